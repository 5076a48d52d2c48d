# torch.linalg.vector_norm as ATen's one kernel (LinearAlgebra.cpp linalg_vector_norm): one result allocation
# and one LinalgVectorNormBackward0 node saving self, ord, dim, keepdim and the result, whose backward is
# FunctionsManual.cpp's norm_backward written in torch ops (so it allocates what ATen's formula allocates and
# works under create_graph). PyTorch 2.x routes torch.norm / Tensor.norm with a number or "fro" here too, and
# so do F.normalize and clip_grad_norm_.
#
# It replaced a composition of primitives (x * x, sum, sqrt) that showed SqrtBackward0, allocated an
# input-sized temporary per norm, and gave NaN gradients where the norm is 0 (ATen masks them to 0).
import math

import numpy as np

from .._virtual_values import VirtualValues
from . import _core as C
from . import out as O
from . import reduction as R


def _ord_text(ord):  # noqa: A002
    """ord as a c10::Scalar prints in ATen's messages: -3, 0.5, inf."""
    if math.isinf(ord):
        return "inf" if ord > 0 else "-inf"
    return str(int(ord)) if float(ord).is_integer() else repr(float(ord))


def _check(x, ord, dims):  # noqa: A002
    xdt = C.dtype_of(x)
    if not xdt.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{O.scalar_name(xdt)}")
    if x._impl.numel == 0 and (ord < 0 or math.isinf(ord)):
        if dims is None:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on an empty tensor "
                               "because the operation does not have an identity")
        for d in dims:
            if x._impl.sizes[d] == 0:  # (upstream's message lacks the space before "because")
                raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on the dimension "
                                   f"{d}because this dimension is empty and the operation does not have an identity")


def _values(v, ord, axis, keepdim):  # noqa: A002
    """The norm's values, accumulated in float64 and rounded once to the result dtype."""
    a = np.abs(v.astype(np.float64, copy=False))
    with np.errstate(all="ignore"):
        if ord == math.inf:
            return np.max(a, axis=axis, keepdims=keepdim)
        if ord == -math.inf:
            return np.min(a, axis=axis, keepdims=keepdim)
        if ord == 0:
            return np.sum(a != 0, axis=axis, keepdims=keepdim, dtype=np.float64)
        if ord == 1:
            return np.sum(a, axis=axis, keepdims=keepdim)
        if ord == 2:
            return np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
        return np.sum(a ** ord, axis=axis, keepdims=keepdim) ** (1.0 / ord)


def _reduced_shape(shape, dims, keepdim):
    reduced = range(len(shape)) if dims is None else dims
    if keepdim:
        return tuple(1 if i in reduced else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in reduced)


def _unsqueeze_reduced(t, dims, ndim):
    """unsqueeze_multiple(t, dim, ndim): the reduced dims back as size 1 (all of them when dim is empty)."""
    for d in (range(ndim) if dims is None else sorted(dims)):
        t = t.unsqueeze(d)
    return t


def norm_backward(grad, x, ord, norm, dims, keepdim):  # noqa: A002
    """FunctionsManual.cpp norm_backward: None (an undefined gradient) for ord 0, as in PyTorch. (self.sgn() there
    is sign() for real tensors.)"""
    ndim = x.dim()
    if not keepdim and ndim != 0:
        grad = _unsqueeze_reduced(grad, dims, ndim)
        norm = _unsqueeze_reduced(norm, dims, ndim)
    if ord == 0:
        return None
    if ord == 1:
        return x.sign() * grad
    if ord == 2:
        return grad * (x / norm).masked_fill_(norm == 0, 0)
    if math.isinf(ord):
        # the derivative of amax(abs(self)) that respects NaNs: shared evenly by the entries at the norm
        x_abs = x.abs()
        mask = x_abs.eq(norm).logical_or(x_abs.isnan())
        return x.sign() * ((grad / mask.sum(tuple(range(ndim)) if dims is None else dims, True)) * mask)
    if ord < 1:
        scaled = x.sign() * x.abs().pow_(ord - 1).masked_fill_(x == 0, 0)
        return scaled * grad * norm.pow(1 - ord)
    if ord < 2:
        scaled = x.sign() * x.abs().pow_(ord - 1)
    else:
        scaled = x * x.abs().pow_(ord - 2)
    scale = grad / norm.pow(ord - 1)
    scale.masked_fill_(norm == 0, 0)
    return scaled * scale


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if dtype is not None:
        x = x.to(dtype)
    saved_ord, ord = ord, float(ord)  # noqa: A001  (the node keeps the Scalar as given: 2 or 2.0)
    if dim is not None and not isinstance(dim, (list, tuple)):
        dim = (dim,)
    dims = C.dims_arg(tuple(dim), x._impl.dim) if dim else None  # an empty dim list reduces every dim
    _check(x, ord, dims)
    if x._impl.dim == 0:
        dims = None
    dev, xdt = C.device_of(x), C.dtype_of(x)
    if x._impl.is_virtual:  # shape-only (devicescope estimate): the same allocation and node, no values
        res = VirtualValues(_reduced_shape(tuple(x._impl.sizes), dims, keepdim), C.compute_dtype(xdt))
    else:
        res = _values(C.values_of(x, C.compute_dtype(xdt)), ord, R._axis(dims), keepdim)
    saved = {"dim": None if dim is None else tuple(dim), "keepdim": keepdim, "ord": saved_ord,
             "result": R.RESULT, "self": x}
    return R._finish("LinalgVectorNormBackward0", x, res if x._impl.is_virtual else np.asarray(res), xdt, dev,
                     lambda g, out: norm_backward(g, x, ord, out, dims, keepdim), saved)
