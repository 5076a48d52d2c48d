# torch.distributed.fsdp: FSDP2's fully_shard (the composable API) on simulated ranks; see _fully_shard.py.
from ._fully_shard import FSDPModule, MixedPrecisionPolicy, fully_shard

__all__ = ["fully_shard", "FSDPModule", "MixedPrecisionPolicy"]
