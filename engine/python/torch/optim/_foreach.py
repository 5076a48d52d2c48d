# The torch._foreach_* calls PyTorch 2.6's multi-tensor optimizers make, with the device allocations of the
# CUDA foreach kernels (aten/src/ATen/native/cuda/ForeachBinaryOpList.cu, ForeachUnaryOp.cu, ...): an
# out-of-place op makes one result per tensor, in list order (empty_like each) and returns a Python list; an
# in-place op allocates nothing. The values come from the per-tensor ops, so they match the single-tensor path;
# a per-tensor op DeviceScope builds from smaller ones (lerp_, addcmul_, addcdiv_) runs as scratch, since the
# foreach kernel makes no intermediates.
import torch

from .._scratch import scratch as _scratch  # Note [Scratch allocations] (engine/runtime/runtime.h)

__all__ = ["default_to_foreach", "group_by_device_and_dtype"]

_FOREACH_TYPES = None


def default_to_foreach(params, differentiable):
    """torch/optim/optimizer.py _default_to_fused_or_foreach(params, differentiable, use_fused=False)[1]:
    foreach when every tensor is a plain Tensor or Parameter on a device with foreach kernels (cuda)."""
    global _FOREACH_TYPES
    if differentiable:
        return False
    if _FOREACH_TYPES is None:
        _FOREACH_TYPES = (torch.Tensor, torch.nn.Parameter)
    return all(p is None or (type(p) in _FOREACH_TYPES and p.device.type == "cuda") for p in params)


_SAME_INDEX = ("Tensors of the same index must be on the same device and the same dtype except `step` tensors "
               "that can be CPU and float32/64 notwithstanding")


def group_by_device_and_dtype(tensorlists, steps_index=None):
    """Optimizer._group_tensors_by_device_and_dtype(tensorlists, with_indices=True): {(device, dtype):
    (lists, indices)} keyed by the first list's tensors, in order of first appearance. As the C++ grouping
    (ForeachUtils.h _group_tensors_by_first_tensors_device_and_dtype), every tensor must share its index's
    first tensor's device and dtype; the step counters (list `steps_index`) may be float32/64 CPU scalars."""
    groups = {}
    for i, first in enumerate(tensorlists[0]):
        key = (first.device, first.dtype)
        for j, lst in enumerate(tensorlists):
            t = lst[i] if lst else None
            if t is None or (t.device == first.device and t.dtype == first.dtype):
                continue
            if not (j == steps_index and t.device.type == "cpu" and t.numel() == 1
                    and t.dtype in (torch.float32, torch.float64)):
                raise RuntimeError(_SAME_INDEX)
        entry = groups.get(key)
        if entry is None:
            entry = groups[key] = ([[] for _ in tensorlists], [])
        for lst, out in zip(tensorlists, entry[0]):
            if lst:
                out.append(lst[i])
        entry[1].append(i)
    return groups


# ---------------------------------------------------------------------------- out of place: one result each
def neg(tensors):
    return [torch.neg(t) for t in tensors]


def add_list(tensors, others, alpha=1):
    return [t.add(o, alpha=alpha) for t, o in zip(tensors, others)]


def sqrt(tensors):
    return [torch.sqrt(t) for t in tensors]


# ---------------------------------------------------------------------------- in place: nothing allocated
def add_scalar_(tensors, value):
    for t in tensors:
        t.add_(value)


def add_list_(tensors, others, alpha=1):
    for t, o in zip(tensors, others):
        t.add_(o, alpha=alpha)


def mul_scalar_(tensors, value):
    for t in tensors:
        t.mul_(value)


def div_scalarlist_(tensors, scalars):
    for t, s in zip(tensors, scalars):
        t.div_(s)


def lerp_scalar_(tensors, ends, weight):
    with _scratch():
        for t, e in zip(tensors, ends):
            t.lerp_(e, weight)


def addcmul_scalar_(tensors, t1, t2, value):
    with _scratch():
        for t, a, b in zip(tensors, t1, t2):
            t.addcmul_(a, b, value=value)


def addcdiv_scalarlist_(tensors, t1, t2, scalars):
    with _scratch():
        for t, a, b, s in zip(tensors, t1, t2, scalars):
            t.addcdiv_(a, b, value=s)


def maximum_(tensors, others):
    with _scratch():
        for t, o in zip(tensors, others):
            torch.maximum(t, o, out=t)
