# The torch._foreach_* calls PyTorch 2.6's multi-tensor optimizers make, with the device allocations of the
# CUDA foreach kernels (aten/src/ATen/native/cuda/ForeachBinaryOpList.cu, ForeachUnaryOp.cu, ...): an
# out-of-place op makes one result per tensor, in list order (empty_like each) and returns a Python list; an
# in-place op allocates nothing. The values come from the per-tensor ops, so they match the single-tensor path;
# a per-tensor op DeviceScope builds from smaller ones (lerp_, addcmul_, addcdiv_) runs as scratch, since the
# foreach kernel makes no intermediates.
# Each op first tries its C++ form (engine/python/bindings_foreach.cpp: the whole list in one call, the same
# bits and allocations) and runs the per-tensor Python loop below when that declines (grad mode on, virtual
# or non-contiguous tensors, other dtypes, real device memory...). DEVICESCOPE_PY_FOREACH=1 keeps the Python
# loops (tests/conformance/optim_foreach_agreement.py compares the two).
import os

import _devicescope_C as _E
import torch

from .._scratch import scratch as _scratch  # Note [Scratch allocations] (engine/runtime/runtime.h)

_FAST = os.environ.get("DEVICESCOPE_PY_FOREACH") != "1"

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
    if _FAST and tensorlists[0] and _E.foreach_group(tensorlists, -1 if steps_index is None else steps_index):
        # one device and dtype throughout (the common case, checked in C++): one group, in order
        first = tensorlists[0][0]
        return {(first.device, first.dtype): ([list(lst) for lst in tensorlists],
                                              list(range(len(tensorlists[0]))))}
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
    out = _E.foreach_unary("neg", tensors) if _FAST else None
    return out if out is not None else [torch.neg(t) for t in tensors]


def add_list(tensors, others, alpha=1):
    return [t.add(o, alpha=alpha) for t, o in zip(tensors, others)]


def sqrt(tensors):
    out = _E.foreach_unary("sqrt", tensors) if _FAST else None
    return out if out is not None else [torch.sqrt(t) for t in tensors]


# ---------------------------------------------------------------------------- in place: nothing allocated
def add_scalar_(tensors, value):
    if _FAST and _E.foreach_binary_("add", tensors, value, 1):
        return
    for t in tensors:
        t.add_(value)


def add_list_(tensors, others, alpha=1):
    if _FAST and _E.foreach_binary_("add", tensors, others, alpha):
        return
    for t, o in zip(tensors, others):
        t.add_(o, alpha=alpha)


def mul_scalar_(tensors, value):
    if _FAST and _E.foreach_binary_("mul", tensors, value, 1):
        return
    for t in tensors:
        t.mul_(value)


def mul_tensor_(tensors, scalar):
    """_foreach_mul_(tensors, Tensor): every tensor times a 0-dim tensor, in place."""
    if _FAST and _E.foreach_binary_("mul", tensors, scalar, 1):
        return
    for t in tensors:
        t.mul_(scalar)


def clamp_min_(tensors, value):
    for t in tensors:
        t.clamp_min_(value)


def clamp_max_(tensors, value):
    for t in tensors:
        t.clamp_max_(value)


def div_scalarlist_(tensors, scalars):
    if _FAST and _E.foreach_binary_("div", tensors, scalars, 1):
        return
    for t, s in zip(tensors, scalars):
        t.div_(s)


def lerp_scalar_(tensors, ends, weight):
    if _FAST and _E.foreach_pointwise_("lerp", tensors, ends, None, weight):
        return
    with _scratch():
        for t, e in zip(tensors, ends):
            t.lerp_(e, weight)


def addcmul_scalar_(tensors, t1, t2, value):
    if _FAST and _E.foreach_pointwise_("addcmul", tensors, t1, t2, value):
        return
    with _scratch():
        for t, a, b in zip(tensors, t1, t2):
            t.addcmul_(a, b, value=value)


def addcdiv_scalarlist_(tensors, t1, t2, scalars):
    if _FAST and _E.foreach_pointwise_("addcdiv", tensors, t1, t2, scalars):
        return
    with _scratch():
        for t, a, b, s in zip(tensors, t1, t2, scalars):
            t.addcdiv_(a, b, value=s)


def maximum_(tensors, others):
    with _scratch():
        for t, o in zip(tensors, others):
            torch.maximum(t, o, out=t)


def items(tensors, one):
    """[one(t) for t in tensors] where one(t) is t.item() for the plain CPU float scalars (the step counters)."""
    out = _E.foreach_items(tensors) if _FAST else None
    return out if out is not None else [one(t) for t in tensors]


# ---------------------------------------------------------------------------- reductions
_CHUNK = 65536  # MultiTensorApply.cuh kChunkSize


def norm(tensors, ord=2):  # noqa: A002
    """torch._foreach_norm. On CUDA, for ord 1, 2 or inf over floating tensors of one dtype, the fused kernel
    (ForeachReduceOp.cu _foreach_tensor_norm_cuda_impl): a zeroed per-chunk buffer (tensors x the most 64K
    chunks of any tensor, opmath dtype), a zeroed 320-entry global buffer, a 0-dim result per tensor and a
    global one, the buffers freed on return; an empty tensor's result is a fresh zeros(()). Elsewhere the slow
    path: linalg.vector_norm of each tensor."""
    p = float(ord)
    first = tensors[0] if tensors else None
    if (first is None or first.device.type != "cuda" or p not in (1.0, 2.0, float("inf"))
            or any(t.device != first.device or t.dtype != first.dtype or not t.dtype.is_floating_point
                   for t in tensors)):
        return [torch.linalg.vector_norm(t, ord) for t in tensors]
    dtype, device = first.dtype, first.device
    opmath = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
    chunks = max((t.numel() + _CHUNK - 1) // _CHUNK for t in tensors)
    virtual = any(t.is_virtual for t in tensors)  # shape-only gradients (devicescope estimate): shape-only norms
    per_chunk = torch.zeros(len(tensors) * chunks, dtype=opmath, device=device, virtual=virtual)  # noqa: F841
    global_partials = torch.zeros(320, dtype=opmath, device=device, virtual=virtual)  # noqa: F841
    results = [torch.empty((), dtype=dtype, device=device, virtual=virtual) for _ in tensors]
    global_norm = torch.empty((), dtype=dtype, device=device, virtual=virtual)  # noqa: F841
    if (_FAST and p == 2.0 and not virtual and all(t.numel() for t in tensors)
            and _E.foreach_norm2_into(results, tensors)):
        return list(results)  # the values in C++ (bindings_foreach.cpp foreach_norm2_into), no scratch norms
    out = []
    filled = iter(results)
    for t in tensors:
        if t.numel() == 0:
            out.append(torch.zeros((), dtype=dtype, device=device, virtual=virtual))
            continue
        r = next(filled)
        with _scratch():
            r.copy_(torch.linalg.vector_norm(t, ord))
        out.append(r)
    return out
