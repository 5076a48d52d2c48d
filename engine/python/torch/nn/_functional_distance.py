# Distances (ATen's Distance.cpp): F.cosine_similarity, F.pairwise_distance, F.pdist, torch.dist, torch.cdist;
# re-exported by torch.nn.functional and torch.
#
# cosine_similarity and pairwise_distance are ATen composites: the primitives below make PyTorch's graph
# (SumBackward1 <- MulBackward0 <- DivBackward0 ...; NormBackward1 <- AddBackward1 <- SubBackward0). dist,
# _cdist_forward, _euclidean_dist and _pdist_forward are kernels with their own nodes: `named`.
import numpy as np

import torch
from ._composite import named


def _is_floating(dtype):
    return dtype.is_floating_point


def _p_norm(x, p, dim, keepdim):
    """The vector p-norm's values (ATen's norm / linalg_vector_norm) from primitives."""
    if p == 1:
        return x.abs().sum(dim, keepdim=keepdim)
    if p == float("inf"):
        return x.abs().amax(dim, keepdim=keepdim)
    if p == 0:
        return (x != 0).to(x.dtype).sum(dim, keepdim=keepdim)
    s = (x * x).sum(dim, keepdim=keepdim) if p == 2 else (x.abs() ** p).sum(dim, keepdim=keepdim)
    # ATen's norm backward is 0 where the norm is 0 (not 0 * inf): the root only sees the positive sums
    pos = s > 0
    safe = torch.where(pos, s, torch.ones((), dtype=s.dtype, device=s.device))
    root = torch.sqrt(safe) if p == 2 else safe ** (1.0 / p)
    return torch.where(pos, root, torch.zeros((), dtype=s.dtype, device=s.device))


def _vector_norm(x, dim, keepdim):
    """at::linalg_vector_norm(x, 2, dim, keepdim): one LinalgVectorNormBackward0 node."""
    return torch.linalg.vector_norm(x, 2, dim, keepdim)


def _norm_dim(x, p, dim, keepdim):
    """at::norm(x, p, dim, keepdim): NormBackward1."""
    return named("NormBackward1", lambda t: _p_norm(t, p, dim, keepdim), (x,),
                 saved=lambda result: {"dim": (dim,), "keepdim": keepdim, "p": p, "result": result, "self": x})


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """ATen (2.x): x1 / max(||x1||, eps) times x2 / max(||x2||, eps), summed over dim. The norms are
    linalg_vector_norm(..., keepdim=True).clone() clamped in place under no_grad."""
    common = torch.result_type(x1, x2)
    if not _is_floating(common):
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is {}".format(
            _scalar_name(common)))
    if not _is_floating(x1.dtype):
        x1 = x1.to(common)
    if not _is_floating(x2.dtype):
        x2 = x2.to(common)
    if tuple(x1.shape) != tuple(x2.shape):
        x1, x2 = torch.broadcast_tensors(x1, x2)
    n1 = _vector_norm(x1, dim, True).clone()
    n2 = _vector_norm(x2, dim, True).clone()
    with torch.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    innermost = max(x1.dim(), x2.dim()) - 1
    # at::add(Tensor, Scalar) from C++: AddBackward1, which keeps no tensor
    shifted = named("AddBackward1", lambda t: t + eps, (x1 - x2,), saved={}, linear=(0,))
    return _norm_dim(shifted, float(p), innermost, keepdim)  # (pairwise_distance's p is a double)


def dist(input, other, p=2):
    """torch.dist: the p-norm of input - other (broadcast), one DistBackward0 node."""
    torch.broadcast_shapes(tuple(input.shape), tuple(other.shape))
    return named("DistBackward0", lambda a, b: _p_norm((a - b).reshape(-1), p, 0, False), (input, other),
                 saved=lambda result: {"other": other, "p": p, "result": result, "self": input})


def _check_cdist(x1, x2, p):
    if x1.dim() < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X1 got: {}D".format(x1.dim()))
    if x2.dim() < 2:
        raise RuntimeError("cdist only supports at least 2D tensors, X2 got: {}D".format(x2.dim()))
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: {} X2: {}".format(
            x1.shape[-1], x2.shape[-1]))
    if not _is_floating(x1.dtype):
        raise RuntimeError("cdist only supports floating-point dtypes, X1 got: {}".format(_scalar_name(x1.dtype)))
    if not _is_floating(x2.dtype):
        raise RuntimeError("cdist only supports floating-point dtypes, X2 got: {}".format(_scalar_name(x2.dtype)))
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")


def _pairwise(a, b, p):
    """[..., P, M] x [..., R, M] -> [..., P, R] p-norm distances, by broadcasting."""
    return _p_norm(a.unsqueeze(-2) - b.unsqueeze(-3), p, -1, False)


def _euclidean(a, b):
    """ATen's _euclidean_dist: one matmul of [-2 x1, |x1|^2, 1] and [x2, 1, |x2|^2], clamped at 0, sqrt."""
    n1 = (a * a).sum(-1, keepdim=True)
    n2 = (b * b).sum(-1, keepdim=True)
    a_ = torch.cat([a * -2, n1, torch.ones_like(n1)], -1)
    b_ = torch.cat([b, torch.ones_like(n2), n2], -1)
    return torch.sqrt(torch.clamp(a_.matmul(b_.transpose(-2, -1)), min=0))


def cdist(x1, x2, p=2.0, compute_mode=None):
    """torch.cdist: _cdist_forward (CdistBackward0), or for p = 2 with more than 25 rows on a side (or
    compute_mode 'use_mm_for_euclid_dist') _euclidean_dist (EuclideanDistBackward0) viewed to the output shape."""
    modes = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
             "donot_use_mm_for_euclid_dist": 2}
    if compute_mode not in modes:
        raise ValueError("{} is not a valid value for compute_mode".format(compute_mode))
    mode = modes[compute_mode]
    _check_cdist(x1, x2, p)
    r1, r2 = x1.shape[-2], x2.shape[-2]
    if x1.numel() > 0 and x2.numel() > 0 and p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        batch = torch.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
        out_shape = tuple(batch) + (r1, r2)
        a, b = x1, x2
        if len(batch) and (tuple(x1.shape[:-2]) != tuple(batch) or tuple(x2.shape[:-2]) != tuple(batch)):
            a = x1.expand(tuple(batch) + tuple(x1.shape[-2:]))
            b = x2.expand(tuple(batch) + tuple(x2.shape[-2:]))
        d = named("EuclideanDistBackward0", _euclidean, (a, b),
                  saved=lambda result: {"result": result, "x1": a, "x2": b})
        return d.view(out_shape)
    return named("CdistBackward0", lambda a, b: _pairwise(a, b, p), (x1, x2),
                 saved=lambda result: {"p": float(p), "result": result, "x1": x1, "x2": x2})


def pdist(input, p=2):
    if input.dim() != 2:
        raise RuntimeError("pdist only supports 2D tensors, got: {}D".format(input.dim()))
    if not _is_floating(input.dtype):
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    x = input.contiguous()
    rows, cols = np.triu_indices(x.shape[0], 1)  # the pairs i < j in ATen's order

    def compute(t):
        if rows.size == 0:
            return torch.empty((0,), dtype=t.dtype, device=t.device)
        # the index tensors are made in the op's scratch scope: not allocations of the op (as in ATen's kernel)
        ri = torch.as_tensor(rows, device=t.device)
        ci = torch.as_tensor(cols, device=t.device)
        return _p_norm(t.index_select(0, ri) - t.index_select(0, ci), p, -1, False)
    return named("PdistBackward0", compute, (x,),
                 saved=lambda result: {"p": float(p), "result": result, "self": x})


def _scalar_name(dtype):
    from .._ops.elementwise import scalar_name
    return scalar_name(dtype)
