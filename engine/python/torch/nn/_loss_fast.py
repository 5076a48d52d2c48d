# nll_loss (and so cross_entropy's second half) computed in a few numpy calls with its own NllLossBackward0
# node, for the common case: a dense 2-D float input, a 1-D int64 target with every class index in range, an
# optional 1-D weight. The composite path (_functional_loss.nll_loss through _composite.named) builds the loss
# from ~10 torch ops and its backward recomputes them under a nested autograd.grad: in a 784-128-10 MLP step
# that was about half of the step's time (issue 23). Anything else - virtual tensors, other ranks or dtypes, a
# target out of range - returns None and takes the composite path, which stays the reference.
#
# Allocations are those of ATen's kernels, as the composite makes them: the loss (0-dim, or [N] for
# reduction='none'), then total_weight (0-dim); backward allocates one input-sized gradient
# (nll_loss_backward's zeros_like(self)). The node saves what PyTorch's NllLossBackward0 saves.
import numpy as np

import _devicescope_C as _E

from .._ops import _core as C
from .._ops.layout import contiguous_strides
from ..autograd import graph, grad_mode

_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}
_FLOAT_CODES = None


def _plain(t):
    impl = t._impl
    return not impl.is_virtual and impl.is_contiguous and impl.numel > 0


def _fresh(values, dtype, device):
    """One real allocation holding `values` (materialize's layout: a flat block viewed as the shape)."""
    values = np.asarray(values, dtype=dtype._np, order="C")  # (ascontiguousarray would make a 0-dim value 1-d)
    base = C.new_empty((values.size,), dtype, device)
    impl = _E.as_strided(base._impl, values.shape, contiguous_strides(values.shape), 0)
    _E.write_contiguous(impl, values)
    return C.wrap(impl)


def nll_loss(input, target, weight, ignore_index, reduction):
    """The loss tensor, or None when the fast path does not apply (the caller takes the composite path)."""
    global _FLOAT_CODES
    if _FLOAT_CODES is None:
        from .. import _dtype as D
        _FLOAT_CODES = {D.float32._code, D.float64._code}
    if input._impl.dim != 2 or target._impl.dim != 1 or input._impl.dtype_code not in _FLOAT_CODES:
        return None
    if not (_plain(input) and _plain(target)) or (weight is not None and not (
            _plain(weight) and weight._impl.dim == 1 and weight._impl.dtype_code == input._impl.dtype_code
            and weight._grad_fn is None and not weight._requires_grad)):
        return None  # (a weight that requires grad: the composite path, which differentiates it)
    n, c = input._impl.sizes
    if target._impl.sizes[0] != n or (weight is not None and weight._impl.sizes[0] != c):
        return None
    code = _REDUCTION_ENUM[reduction]
    wi = None if weight is None else weight._impl
    fast = _E.nn_nll_loss(input._impl, target._impl, wi, ignore_index, code) if C.FAST_KERNELS else None
    if fast is not None:  # the C++ kernel (bindings_fast_grad.cpp): the same formulas, values and allocations
        result, total_weight = C.wrap(fast[0]), C.wrap(fast[1])
        if grad_mode._enabled[0] and (input._grad_fn is not None or input._requires_grad):
            _attach(result, input, target, weight, ignore_index, reduction, total_weight, None)
        return result
    t = C.read(target)
    valid = t != ignore_index
    safe = np.where(valid, t, 0)
    if safe.min() < 0 or safe.max() >= c:
        return None  # the composite path reports it as PyTorch does
    dtype, device = C.dtype_of(input), C.device_of(input)
    np_dt = dtype._np
    w = valid.astype(np_dt) if weight is None else C.read(weight)[safe] * valid
    rows = np.arange(n)
    x = C.read(input)
    with np.errstate(all="ignore"):
        loss = -x[rows, safe] * w
        # total_weight: the weights' sum; reduction='none' leaves it zeroed (the kernels skip the sum)
        tw = w.sum(dtype=np_dt) if reduction != "none" else np.zeros((), dtype=np_dt)
        if reduction == "none":
            value = loss
        elif reduction == "sum":
            value = loss.sum(dtype=np_dt)
        else:
            value = np.asarray(loss.sum(dtype=np_dt) / tw, dtype=np_dt)
    result = _fresh(value, dtype, device)
    total_weight = _fresh(tw, dtype, device)
    if grad_mode._enabled[0] and (input._grad_fn is not None or input._requires_grad):
        _attach(result, input, target, weight, ignore_index, reduction, total_weight, (valid, safe, w, tw))
    return result


def _rows(target, weight, ignore_index, c, dtype):
    """The numpy path's per-row values: (valid, safe, w, tw) before total_weight's reduction choice."""
    t = C.read(target)
    valid = t != ignore_index
    safe = np.where(valid, t, 0)
    w = valid.astype(dtype._np) if weight is None else C.read(weight)[safe] * valid
    return valid, safe, w


def _attach(result, input, target, weight, ignore_index, reduction, total_weight, rows):
    """NllLossBackward0 on `result`. rows: the numpy path's (valid, safe, w, tw), or None after the C++ kernel
    (the backward then uses the C++ kernel too, or recomputes them from the saved target and weight)."""
    # (the closure holds neither input nor its values: the node saves `self`, the closure needs only its shape)
    dtype, device = C.dtype_of(input), C.device_of(input)
    np_dt = dtype._np
    n, c = input._impl.sizes
    shape = (n, c)
    code = _REDUCTION_ENUM[reduction]

    def per_row():
        if rows is not None:
            return rows
        valid, safe, w = _rows(target, weight, ignore_index, c, dtype)
        return valid, safe, w, C.read(total_weight)[()]

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None, None]
        if C.FAST_KERNELS and not grad_mode._enabled[0] and not g._impl.is_virtual:
            fast = _E.nn_nll_loss_backward(g._impl, target._impl, None if weight is None else weight._impl,
                                           total_weight._impl, ignore_index, code, n, c)
            if fast is not None:
                return [C.wrap(fast), None, None]
        valid, safe, w, tw = per_row()
        if grad_mode._enabled[0]:  # create_graph: a differentiable formula (the gradient is linear in g)
            coef = np.where(valid, -w if reduction != "mean" else -w / tw, 0)  # +0 where ignored
            gv = C.make(coef, dtype, device) * (g if reduction == "none" else g.reshape(1))
            zeros = C.new_empty(shape, dtype, device)
            C.write(zeros, 0.0, bump=False)
            return [zeros.scatter(1, C.make(safe.reshape(n, 1), target.dtype, device), gv.reshape(n, 1)),
                    None, None]
        gval = C.read(g)
        with np.errstate(all="ignore"):
            if reduction == "mean":
                picked = -w * (gval / tw)
            else:
                picked = -w * gval
        out = np.zeros(shape, dtype=np_dt)
        out[np.arange(n)[valid], safe[valid]] = picked[valid]  # ignored rows stay +0, as the kernel skips them
        return [_fresh(out, dtype, device), None, None]

    graph.attach("NllLossBackward0", [result], [input, target, weight], backward,
                 saved={"ignore_index": ignore_index, "reduction": _REDUCTION_ENUM[reduction], "self": input,
                        "target": target, "total_weight": total_weight, "weight": weight})
