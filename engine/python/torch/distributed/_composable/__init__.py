# torch.distributed._composable: where fully_shard lived before 2.6 (torch.distributed._composable.fsdp).
