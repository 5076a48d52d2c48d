# Lesson 019's what-fits-where view runs this script through devicescope.estimate (virtual tensors: no bytes
# held, no values computed): a Llama-shaped model's training step - bf16 weights, bf16 autocast, AdamW
# (foreach), two steps so the second has AdamW's state - on the devices of the session, with one strategy:
#   --strategy single   the whole model on cuda:0 (the other devices idle)
#   --strategy ddp      DistributedDataParallel: a full replica per device, gradient buckets (25 MiB)
#   --strategy fsdp     full sharding (FSDP2's fully_shard per decoder layer and on the root)
# Options: --model 70b|8b|1b|tiny, --layers N, --seq N, --batch N, --checkpoint (activation checkpointing).
import argparse
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="8b", choices=sorted(SHAPES))
    p.add_argument("--layers", type=int, default=None)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--strategy", default="fsdp", choices=["single", "ddp", "fsdp"])
    p.add_argument("--checkpoint", action="store_true")
    a = p.parse_args()
    shape = list(SHAPES[a.model])
    if a.layers is not None:
        shape[2] = a.layers
    model = Llama(tuple(shape), checkpointing=a.checkpoint).to(torch.bfloat16)
    if a.strategy == "single":
        model = model.to("cuda:0")
    else:
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        if a.strategy == "ddp":
            model = torch.nn.parallel.DistributedDataParallel(model.to("cuda"))
        else:
            from torch.distributed.fsdp import fully_shard
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    train_steps(model, opt, a.batch, a.seq, shape[5], 2, "cuda", torch.bfloat16)


main()
