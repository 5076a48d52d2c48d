# torch.linalg: the norms (differentiable, built from the core ops) and a few numpy-backed solvers.
import numpy as np

from ._ops import _core as C
from ._ops import elementwise as E
from ._ops import reduction as R


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if dtype is not None:
        x = x.to(dtype)
    if ord == float("inf"):
        return R.amax(E.abs(x), dim if dim is not None else (), keepdim)
    if ord == -float("inf"):
        return R.amin(E.abs(x), dim if dim is not None else (), keepdim)
    if ord == 0:
        return R.sum(E.ne(x, 0).to(x.dtype), dim, keepdim)
    if ord == 1:
        return R.sum(E.abs(x), dim, keepdim)
    if ord == 2:
        return E.sqrt(R.sum(x * x, dim, keepdim))
    return E.pow(R.sum(E.pow(E.abs(x), ord), dim, keepdim), 1.0 / ord)


def matrix_norm(x, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    if ord == "fro":
        return vector_norm(x, 2, dim, keepdim, dtype=dtype)
    vals = np.linalg.norm(C.read(x), ord=ord, axis=tuple(dim), keepdims=keepdim)
    return C.make(vals, x.dtype, x.device)


def norm(x, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if ord is None:
        return vector_norm(x if dim is not None or x.dim() <= 1 else x.reshape(-1), 2, dim, keepdim, dtype=dtype)
    if isinstance(ord, str) or (dim is not None and not isinstance(dim, int) and len(dim) == 2):
        return matrix_norm(x, ord, dim if dim is not None else (-2, -1), keepdim, dtype=dtype)
    return vector_norm(x, ord, dim, keepdim, dtype=dtype)


def _np_op(fn, *tensors):
    C.check_virtual(*tensors)
    dev = C.elementwise_device(list(tensors))
    res = fn(*[C.values_of(t, np.float64) for t in tensors])
    return C.make(res, tensors[0].dtype, dev)


def inv(x):
    return _np_op(np.linalg.inv, x)


def det(x):
    return _np_op(np.linalg.det, x)


def solve(a, b):
    return _np_op(np.linalg.solve, a, b)


def pinv(x):
    return _np_op(np.linalg.pinv, x)


def eigvalsh(x):
    return _np_op(np.linalg.eigvalsh, x)
