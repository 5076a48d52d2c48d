# F.binary_cross_entropy's backward as PyTorch's own node: BinaryCrossEntropyBackward0 runs
# binary_cross_entropy_backward (Loss.cpp): grad_input = empty_like(input) filled with
# grad * (input - target) / max((1 - input) * input, EPSILON), times the weight, divided by numel for 'mean'.
# The composite (the loss recomputed under grad mode in backward by _composite.named, asked for its gradient)
# stays the reference: DEVICESCOPE_PY_COMPOSITE=1 runs it, tests/composite_backward/bce.py compares the two
# (vae's 128x784 reconstruction loss spent 22 ms a backward in the recomputation).
import numpy as np

import torch
from .._ops import _core as C
from ..autograd import grad_mode, graph
from . import _composite

_EPSILON = 1e-12  # Loss.cpp's EPSILON


def applies(input, target, weight):
    """The direct node covers the gradient of the input alone (a target or weight that needs a gradient, and
    dense layouts other than contiguous, keep the composite)."""
    return (not _composite.REFERENCE and input.dtype in (torch.float32, torch.float64) and target.dtype == input.dtype
            and not target.requires_grad and (weight is None or (not weight.requires_grad
                                                                  and weight.dtype == input.dtype))
            and input.is_contiguous())


def binary_cross_entropy(input, target, weight, reduction, reduction_enum, compute, allocate):
    """compute(input, target, weight): the loss's values (in scratch, as the composite makes them); allocate:
    the composite's allocate hook (the input-sized block a reduced loss keeps), None for reduction='none'."""
    result = _composite.forward_result(compute, (input, target, weight,), allocate)
    if not (torch.is_grad_enabled() and input.requires_grad):
        return result
    numel, mean = input.numel(), reduction == "mean"

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None, None]
        if grad_mode._enabled[0]:
            # create_graph: the same formula in differentiable ops, joined to the input's history
            gi = g * (input - target) / torch.clamp((1 - input) * input, min=_EPSILON)
            if weight is not None:
                gi = gi * weight
            return [gi / numel if mean else gi, None, None]
        dt = C.dtype_of(input)

        def kernel(gv, xv, tv, *wv):
            one, eps = xv.dtype.type(1), xv.dtype.type(_EPSILON)
            r = gv * (xv - tv) / np.maximum((one - xv) * xv, eps)
            if wv:
                r = r * wv[0]
            return r / xv.dtype.type(numel) if mean else r
        operands = [C.read(g), C.read(input), C.read(target)] + ([C.read(weight)] if weight is not None else [])
        gi = C.elementwise_compute(kernel, *operands)
        if tuple(np.shape(gi)) != tuple(input.shape):  # (a weight that broadcasts the loss wider is refused)
            raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape "
                               f"{list(np.shape(gi))}")
        return [C.make(gi, dt, C.device_of(input)), None, None]

    graph.attach("BinaryCrossEntropyBackward0", [result], [input, target, weight], backward,
                 saved={"reduction": reduction_enum, "self": input, "target": target, "weight": weight})
    return result
