# torch.distributed on DeviceScope's simulated ranks.
#
# DeviceScope runs one process: it is rank 0 of a world whose size init_process_group is given (or WORLD_SIZE, as
# torchrun sets it; `devicescope estimate --devices N` sets N). The other ranks are not run: DDP and full sharding
# are symmetric (every rank runs the same program on the same shapes), so rank 0's memory is every rank's. The
# collectives therefore act as if every rank held what rank 0 holds, in place, allocating nothing (NCCL's own
# buffers are not the caching allocator's): all_reduce SUM multiplies by the world size, all_gather repeats,
# reduce_scatter takes rank 0's chunk (times the world size for SUM).
import os
from enum import Enum

from ._buckets import _DEFAULT_FIRST_BUCKET_BYTES  # noqa: F401 - torch.distributed API (DDP reads it)
from ._buckets import compute_bucket_assignment_by_size as _compute_bucket_assignment_by_size  # noqa: F401

__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "get_rank",
           "get_world_size", "get_backend", "barrier", "all_reduce", "all_gather", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast", "new_group", "ReduceOp", "ProcessGroup", "GroupMember"]

_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to call "
                    "init_process_group.")


class ReduceOp(Enum):
    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"


class ProcessGroup:
    def __init__(self, rank, size, backend):
        self._rank, self._size, self._backend = rank, size, backend

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    def name(self):
        return self._backend

    def __repr__(self):
        return f"<ProcessGroup rank={self._rank} size={self._size} (DeviceScope: simulated ranks)>"


class GroupMember:
    WORLD = None
    NON_GROUP_MEMBER = object()


class _Work:
    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True

    def get_future(self):
        raise RuntimeError("DeviceScope: Work.get_future is not supported on simulated ranks")


def is_available():
    return True


def is_initialized():
    return GroupMember.WORLD is not None


def is_nccl_available():
    return True


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if world_size is None or world_size < 0:
        world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if rank is None or rank < 0:
        rank = int(os.environ.get("RANK", "0"))
    if world_size < 1:
        raise ValueError(f"world_size must be positive, got {world_size}")
    if not 0 <= rank < world_size:
        raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {world_size - 1}]")
    GroupMember.WORLD = ProcessGroup(rank, world_size, str(backend or "nccl"))


def destroy_process_group(group=None):
    if group is None or group is GroupMember.WORLD:
        GroupMember.WORLD = None


def _group(group):
    g = group if group is not None else GroupMember.WORLD
    if g is None:
        raise ValueError(_NOT_INITIALIZED)
    return g


def get_rank(group=None):
    return _group(group).rank()


def get_world_size(group=None):
    return _group(group).size()


def get_backend(group=None):
    return _group(group).name()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False):
    world = _group(None)
    size = len(ranks) if ranks is not None else world.size()
    return ProcessGroup(0, size, str(backend or world.name()))


def barrier(group=None, async_op=False, device_ids=None):
    _group(group)
    return _Work() if async_op else None


def _done(async_op):
    return _Work() if async_op else None


def _scale(tensor, op, n):
    import torch
    with torch.no_grad():
        if op in (ReduceOp.SUM, "sum") and n != 1:
            tensor.mul_(n)
        elif op in (ReduceOp.PRODUCT, "product") and n != 1:
            tensor.pow_(n)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _scale(tensor, op, _group(group).size())
    return _done(async_op)


def broadcast(tensor, src=0, group=None, async_op=False):
    _group(group)
    return _done(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    import torch
    n = _group(group).size()
    if len(tensor_list) != n:
        raise ValueError(f"all_gather: tensor_list has {len(tensor_list)} tensors, the group has {n} ranks")
    with torch.no_grad():
        for t in tensor_list:
            t.copy_(tensor)
    return _done(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    import torch
    n = _group(group).size()
    if output_tensor.numel() != n * input_tensor.numel():
        raise ValueError("output tensor size must be equal to world_size times input tensor size")
    with torch.no_grad():
        chunks = output_tensor.view(n, -1)
        for i in range(n):
            chunks[i].copy_(input_tensor.reshape(-1))
    return _done(async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    import torch
    g = _group(group)
    n = g.size()
    if input.numel() != n * output.numel():
        raise ValueError("input tensor must be the same size as output size times world size")
    with torch.no_grad():
        output.view(-1).copy_(input.reshape(n, -1)[g.rank()])
    _scale(output, op, n)
    return _done(async_op)
