# torch.linalg: the norms (vector_norm is one ATen-like kernel, _ops/vector_norm.py) and a few numpy-backed solvers.
import numpy as np

from ._ops import _core as C
from ._ops.vector_norm import vector_norm  # noqa: F401  (one kernel: LinalgVectorNormBackward0)


def matrix_norm(x, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    if ord == "fro":
        return vector_norm(x, 2, dim, keepdim, dtype=dtype)
    vals = np.linalg.norm(C.read(x), ord=ord, axis=tuple(dim), keepdims=keepdim)
    return C.make(vals, x.dtype, x.device)


def _torch_norm(x, p="fro", dim=None, keepdim=False, dtype=None):
    """torch.norm / Tensor.norm as PyTorch 2.x routes a strided tensor: a number or "fro" (over at most two
    dims) is linalg.vector_norm; "nuc" and the other matrix norms are linalg.matrix_norm."""
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return vector_norm(x, 2, dim, keepdim, dtype=dtype)
        return matrix_norm(x, p, list(range(x.dim())) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(x, 2.0 if p is None else p, dim, keepdim, dtype=dtype)


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


def matrix_power(A, n, *, out=None):
    """ATen's linalg_matrix_power: n = 0 is a contiguous clone of A overwritten by the identity (CopyBackwards
    over CloneBackward0), n = 1 a clone, n = -1 inv(A); otherwise binary powering with matmul (A^2, A^4, ...
    multiplied in when n's bit is set), on inv(A) for negative n."""
    import torch
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they are {} by {} "
                           "matrices".format(A.shape[-2], A.shape[-1]))
    n = int(n)
    if n == 0:
        res = A.clone(memory_format=torch.contiguous_format)
        res = res.copy_(torch.eye(A.shape[-2], dtype=A.dtype, device=A.device))
    elif n == 1:
        res = A.clone(memory_format=torch.contiguous_format)
    elif n == -1:
        res = inv(A)
    else:
        a = inv(A) if n < 0 else A
        n = abs(n)
        z = res = None
        if n == 2:  # ATen's fast paths for small powers
            res, n = torch.matmul(a, a), 0
        elif n == 3:
            res, n = torch.matmul(torch.matmul(a, a), a), 0
        while n > 0:
            bit = n % 2
            n //= 2
            z = a if z is None else torch.matmul(z, z)
            if bit == 1:
                res = z if res is None else torch.matmul(res, z)
    if out is not None:
        out.resize_(res.shape)
        return out.copy_(res)
    return res
