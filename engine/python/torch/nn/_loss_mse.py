# F.mse_loss's backward as PyTorch's own node: MseLossBackward0 runs mse_loss_backward (Loss.cpp) for each input
# that needs a gradient, self first: grad_input = zeros_like(input) filled with norm * (input - target) * grad
# (norm = 2 / numel for 'mean', else 2, as the tensor's dtype; the target's gradient swaps input and target).
# The composite (the loss recomputed under grad mode in backward by _composite.named) stays the reference:
# DEVICESCOPE_PY_COMPOSITE=1 runs it, tests/composite_backward/mse.py compares the two (time_sequence_prediction's
# loss spent 4 ms a backward in the recomputation).
import numpy as np

import _devicescope_C as _E

from .._dtype import float32, float64
from .._ops import _core as C
from ..autograd import grad_mode, graph
from . import _composite

_FLOAT_CODES = (float32._code, float64._code)


def applies(input, target):
    """Same-shape contiguous float inputs (a broadcasting target keeps the composite, whose expand the gradient
    is summed back through)."""
    a, b = input._impl, target._impl
    return (not _composite.REFERENCE and a.dtype_code in _FLOAT_CODES and b.dtype_code == a.dtype_code
            and tuple(a.sizes) == tuple(b.sizes) and a.is_contiguous and b.is_contiguous)


def _reduced(input, target, reduction, allocate):
    """forward_result(compute, ...) for a 'sum' or 'mean' loss of real (not virtual) tensors, from their numpy
    values: what the composite's ops compute - (a - b) * (a - b) in the dtype, np.sum's order (the fast x.sum()
    follows it), mean as reduction.mean divides that sum - without its scratch tensors, then the same allocations
    (allocate) and the value written into the result. None for anything else."""
    a, b = input._impl, target._impl
    if reduction == "none" or a.is_virtual or b.is_virtual:
        return None
    # (a - b) * (a - b) and np.sum's order in one C++ pass (engine/python/bindings_loss_mse.cpp); None: numpy below
    total = _E.nn_mse_sum(a, b) if C.FAST_KERNELS else None
    with C.fp_quiet():
        if total is not None:
            loss = C.dtype_of(input)._np(total)
        else:
            d = C.read(input) - C.read(target)
            loss = np.sum(d * d)
        if reduction == "mean":
            loss = np.true_divide(loss, a.numel)
    result, temps = allocate(None, C.dtype_of(input), input.device)
    C.write(result, loss, bump=False)
    del temps  # the elementwise loss's block, freed once the reduction is done
    return result


def mse_loss(input, target, reduction, reduction_enum, compute, allocate):
    """compute(input, target): the loss's values (in scratch, as the composite makes them); allocate: the
    composite's allocate hook (a reduced loss's input-sized block and elementwise temporary), None for 'none'."""
    result = _reduced(input, target, reduction, allocate) if allocate is not None else None
    if result is None:
        result = _composite.forward_result(compute, (input, target,), allocate)
    wants = (C.needs_grad(input), C.needs_grad(target))
    if not any(wants):
        return result
    norm = 2.0 / input._impl.numel if reduction == "mean" else 2.0

    def one(g, a, b):
        """mse_loss_backward(grad, a, b): norm * (a - b) * grad, in a's dtype."""
        if grad_mode._enabled[0]:  # create_graph: the formula in differentiable ops
            return norm * (a - b) * g

        if C.FAST_KERNELS:  # the kernel below in one C++ pass (bindings_loss_mse.cpp) for a one-element gradient
            fast = _E.nn_mse_backward(g._impl, a._impl, b._impl, norm)
            if fast is not None:
                return C.wrap(fast)

        def kernel(gv, av, bv):
            return av.dtype.type(norm) * (av - bv) * gv
        return C.make(C.elementwise_compute(kernel, C.read(g), C.read(a), C.read(b)), C.dtype_of(a), C.device_of(a))

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None]
        gi = one(g, input, target) if wants[0] else None
        gt = one(g, target, input) if wants[1] else None
        return [gi, gt]

    graph.attach("MseLossBackward0", [result], [input, target], backward,
                 saved={"reduction": reduction_enum, "self": input, "target": target})
    return result
