# F.smooth_l1_loss with PyTorch's own backward node: SmoothL1LossBackward0 runs smooth_l1_loss_backward (one
# input-sized gradient per input that wants one, computed by the kernel's formula), where the composite path
# (_functional_loss.smooth_l1_loss through _composite.named) recomputed ~8 ops under a nested autograd.grad in
# every backward: regression_polynomial spent 4 ms a step there. The forward's elementwise loss is the kernel's
# formula in numpy, reduced by the same tensor op as before, so values and allocations (the loss in an
# input-sized block, as at::smooth_l1_loss leaves it) are the composite's. The composite stays the reference
# (DEVICESCOPE_PY_COMPOSITE=1); tests/composite_backward/smooth_l1_loss.py holds the two to the same values,
# nodes, saved values and allocator trace. Anything but two plain same-shaped float32/float64 tensors takes the
# composite path.
import numpy as np

import _devicescope_C as _E

from .._ops import _core as C
from ..autograd import grad_mode, graph
from ._composite import REFERENCE, forward_result

_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction, as loss nodes save it
_FLOAT_CODES = None


def applies(input, target, beta):
    """Whether the direct path takes this call."""
    global _FLOAT_CODES
    if REFERENCE or not beta > 0.0:
        return False
    if _FLOAT_CODES is None:
        from .. import _dtype as D
        _FLOAT_CODES = {D.float32._code, D.float64._code}
    a, b = input._impl, target._impl
    return (a.dtype_code in _FLOAT_CODES and a.dtype_code == b.dtype_code and tuple(a.sizes) == tuple(b.sizes)
            and a.numel > 0 and not a.is_virtual and not b.is_virtual)


def smooth_l1_loss(input, target, reduction, beta, allocate, reduce):
    """The loss (allocated as the composite allocates it: `allocate`, `reduce` are _functional_loss's), with
    SmoothL1LossBackward0 attached when a gradient is wanted."""
    np_dt = C.dtype_of(input)._np
    beta_t = np_dt(beta)

    def elementwise(a, b):
        # smooth_l1_kernel: z = |input - target|; z < beta ? 0.5 * z * z / beta : z - 0.5 * beta (scalar_t ops)
        with C.fp_quiet():
            z = np.abs(C.read(a) - C.read(b))
            return np.where(z < beta_t, np_dt(0.5) * z * z / beta_t, z - np_dt(0.5) * beta_t).astype(np_dt)

    def compute(a, b):
        return reduce(C.make(elementwise(a, b), C.dtype_of(a), C.device_of(a)), reduction)

    result = _reduced(input, target, reduction, allocate, elementwise, beta)
    if result is None:
        result = forward_result(compute, (input, target), allocate)
    if not (grad_mode._enabled[0] and C.needs_grad(input, target)):
        return result
    wants = (C.needs_grad(input), C.needs_grad(target))

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None]
        # derivatives.yaml: self: smooth_l1_loss_backward(grad, self, target, ...), target: the same with the
        # two swapped; each allocated by the kernel (zeros_like) in that order
        return [_backward(g, x, y, reduction, beta) if want else None
                for want, x, y in ((wants[0], input, target), (wants[1], target, input))]

    graph.attach("SmoothL1LossBackward0", [result], [input, target], backward,
                 saved={"beta": beta, "reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target})
    return result


def _reduced(input, target, reduction, allocate, elementwise, beta):
    """forward_result(compute, ...) for a 'mean' or 'sum' loss, from the numpy values alone: compute's elementwise
    loss, then what the reduction's tensor op computes from it (np.sum in its order - the fast x.sum() follows it
    - and mean's division of that sum by numel), without compute's scratch tensors (a third of a small loss's
    time); then the same one allocation (allocate's input-sized block) with the value written into it, as
    _loss_mse._reduced does. None for 'none' (forward_result then)."""
    if reduction == "none":
        return None
    np_dt = C.dtype_of(input)._np
    # the elementwise loss and np.sum's order in one C++ pass (engine/python/bindings_loss_smooth_l1.cpp) for
    # contiguous operands; None: the numpy computation below
    total = _E.nn_smooth_l1_sum(input._impl, target._impl, beta) if C.FAST_KERNELS else None
    with C.fp_quiet():
        value = np_dt(total) if total is not None else np.sum(elementwise(input, target))
        if reduction == "mean":
            value = np.true_divide(value, input._impl.numel)
    result, temps = allocate(None, C.dtype_of(input), input.device)
    C.write(result, value, bump=False)
    del temps
    return result


def _backward(grad, input, target, reduction, beta):
    """smooth_l1_loss_backward(grad, input, target, reduction, beta): input-sized, norm = 1/numel for 'mean'."""
    n = input._impl.numel
    dtype, device = C.dtype_of(input), C.device_of(input)
    np_dt = dtype._np
    if grad_mode._enabled[0]:  # create_graph: a differentiable formula on the inputs' history
        import torch
        x = input - target
        unit = (x > 0).to(input.dtype) * 2 - 1
        norm = 1.0 / n if reduction == "mean" else 1.0
        return torch.where(x.abs() >= beta, unit, x / beta) * (grad * norm)
    if C.FAST_KERNELS:  # the formulas below in one C++ pass (bindings_loss_smooth_l1.cpp), None where they do not apply
        norm_t = np_dt(1.0 / n) if reduction == "mean" else np_dt(1.0)
        fast = _E.nn_smooth_l1_backward(grad._impl, input._impl, target._impl, float(norm_t), float(beta),
                                        device is not None and device.type == "cuda")
        if fast is not None:
            return C.wrap(fast)
    with C.fp_quiet():
        x = (C.read(input) - C.read(target)).reshape(-1)
        g = np.asarray(C.read(grad), dtype=np_dt)
        # a one-element gradient (a reduced loss's) takes part as a 0-dim operand: each product is the same float
        # op as against its broadcast copy, without making one
        g = g.reshape(()) if g.size == 1 else np.broadcast_to(g, tuple(input._impl.sizes)).reshape(-1)
        norm = np_dt(1.0 / n) if reduction == "mean" else np_dt(1.0)  # norm.to<scalar_t>()
        beta_t = np_dt(beta)
        if device is not None and device.type == "cuda":
            # the CUDA kernel: x < -beta ? -norm * g : x > beta ? norm * g : norm * x * g / beta (scalar_t)
            out = np.where(x < -beta_t, -norm * g, np.where(x > beta_t, norm * g, norm * x * g / beta_t))
        else:
            # the CPU kernel (cpu_kernel_vec): whole pairs of AVX2 vectors (16 floats, 8 doubles) take the vector
            # lambda, norm * (|x| >= beta ? +-1 : x / beta) * g; the rest the scalar one, whose / beta is a double
            # division
            vec = n - n % (32 // np_dt().itemsize * 2)
            unit = np.where(x > 0, np_dt(1), np_dt(-1))
            out = norm * np.where(np.abs(x) >= beta_t, unit, x / beta_t) * g
            if vec < n:
                xs, gs = x[vec:], g[vec:] if g.ndim else g
                tail = ((norm * xs * gs).astype(np.float64) / beta).astype(np_dt)
                out[vec:] = np.where(xs <= -beta, -norm * gs, np.where(xs >= beta, norm * gs, tail))
    out = np.ascontiguousarray(out, dtype=np_dt).reshape(tuple(input._impl.sizes))
    return C.make(out, dtype, device)
