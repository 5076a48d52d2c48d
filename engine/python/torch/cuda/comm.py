# torch.cuda.comm: PyTorch re-exports nn.parallel.comm's collectives here (broadcast, scatter, gather,
# reduce_add); each copy between devices is a recorded transfer.
from ..nn.parallel.comm import (broadcast, broadcast_coalesced, gather, reduce_add, reduce_add_coalesced,  # noqa: F401
                                scatter)

__all__ = ["broadcast", "broadcast_coalesced", "reduce_add", "reduce_add_coalesced", "scatter", "gather"]
