# The pre-2.6 import path of FSDP2's fully_shard (torch.distributed.fsdp has it since 2.6).
from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard

__all__ = ["fully_shard", "FSDPModule", "MixedPrecisionPolicy"]
