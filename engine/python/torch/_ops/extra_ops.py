# Kernels PyTorch runs as one ATen op each, which DeviceScope lacked: sgn (SgnBackward0), logcumsumexp
# (LogcumsumexpBackward0), cummax / cummin (CummaxBackward0 / CumminBackward0), histc, bucketize,
# tril_indices / triu_indices, and quantile / nanquantile (a composite in ATen: sort, gather, lerp; here its
# intermediates are scratch, Note [Scratch allocations]). Each allocates its result(s) once, computes with
# numpy, and attaches PyTorch's node with PyTorch's saved values. The composites built purely from other ops
# are in extra_composites.py.
import builtins as _b
import sys

import numpy as np

from .. import _dtype as D
from .. import return_types
from ..autograd import grad_mode, graph
from . import _core as C


def _torch():
    return sys.modules["torch"]  # (torch imports this module: no import cycle at module level)


def _scalar_name(dt):
    from .._factories import _scalar_name as name
    return name(dt)


def _float_only(x, kernel):
    dt = C.dtype_of(x)
    if not dt.is_floating_point:
        raise RuntimeError(f'"{kernel}" not implemented for \'{_scalar_name(dt)}\'')
    return dt


# ----------------------------------------------------------------------------- sgn
def sgn(x):
    """For real tensors sgn is sign; its node is SgnBackward0 (saves self and result) with sgn_backward's
    formula, (g - sgn * sgn * g) / |x| masked to 0 where x == 0: zero for finite gradients."""
    torch = _torch()
    with torch.no_grad():
        out = torch.sign(x)
    if C.needs_grad(x) and C.dtype_of(x).is_floating_point:
        dev, dt = C.device_of(x), C.dtype_of(x)
        rs = graph.SavedOutput(out)

        def backward(gs):
            g, xv, sv = gs[0], x_saved, rs.unpack()
            if grad_mode._enabled[0]:
                a = xv.abs()
                return ((g - sv * sv * g) / a).masked_fill(a == 0, 0),
            gv, a, s = C.read(g), np.abs(C.read(xv)), C.read(sv)
            with np.errstate(all="ignore"):
                r = (gv - s * s * gv) / a
            return C.make(np.where(a == 0, 0, r), dt, dev),
        x_saved = x.detach()
        node = graph.attach("SgnBackward0", [out], [x], backward, saved={"self": x, "result": out})
        rs.bind(node)
    return out


def sgn_(x):
    torch = _torch()
    return x.sign_() if not C.dtype_of(x).is_complex else torch.sgn(x)


# ----------------------------------------------------------------------------- scans
def _scan_axis(x, dim):
    nd = x._impl.dim
    d = C.wrap_dim(dim, nd)
    return (C.read(x) if nd else np.reshape(C.read(x), (1,))), d, nd


def logcumsumexp(x, dim):
    dev = C.device_of(x)
    dt = _float_only(x, "logcumsumexp_out_cpu")
    xv, d, nd = _scan_axis(x, dim)
    with np.errstate(all="ignore"):
        res = np.logaddexp.accumulate(np.asarray(xv, dtype=np.float64), axis=d) if xv.size else xv
    out = C.make(res.reshape(tuple(x.shape)), dt, dev)
    if C.needs_grad(x):
        x_saved, rs = x.detach(), graph.SavedOutput(out)

        def backward(gs):
            # logcumsumexp_backward: grad_x[i] = sum_{j >= i} g[j] * exp(x[i] - result[j])
            g, r = gs[0], rs.unpack()
            if grad_mode._enabled[0]:
                w = (x_saved.unsqueeze(d + 1 if nd else 0) - r.unsqueeze(d if nd else 0)).exp()
                return _triangular_sum(w, g, d, nd),
            gv = np.reshape(np.asarray(C.read(g), np.float64), xv.shape)
            with np.errstate(all="ignore"):
                rv = np.reshape(np.asarray(C.read(r), np.float64), xv.shape)
                xm = np.moveaxis(np.asarray(xv, np.float64), d, -1)
                gm, rm = np.moveaxis(gv, d, -1), np.moveaxis(rv, d, -1)
                n = xm.shape[-1]
                mask = np.triu(np.ones((n, n), dtype=bool))  # [i, j]: j >= i
                w = np.where(mask, np.exp(xm[..., :, None] - rm[..., None, :]), 0.0)
                gx = np.einsum("...ij,...j->...i", w, gm)
            return C.make(np.moveaxis(gx, -1, d).reshape(tuple(x.shape)), dt, dev),
        node = graph.attach("LogcumsumexpBackward0", [out], [x], backward,
                            saved={"dim": dim, "self": x, "result": out})
        rs.bind(node)
    return out


def _triangular_sum(w, g, d, nd):
    """Differentiable sum over j >= i of w[..., i, j] * g[..., j] (the scan dim moved to the end)."""
    torch = _torch()
    n = w.shape[d + 1 if nd else 1]
    mask = torch.ones(n, n, dtype=torch.bool, device=w.device).triu()
    wm = torch.movedim(w, (d, d + 1) if nd else (0, 1), (-2, -1)) * mask
    gm = torch.movedim(g if nd else g.reshape(1), d if nd else 0, -1)
    return torch.movedim((wm * gm.unsqueeze(-2)).sum(-1), -1, d if nd else 0).reshape(g.shape)


def _cum_extreme(x, dim, name, better):
    dev, dt = C.device_of(x), C.dtype_of(x)
    xv, d, nd = _scan_axis(x, dim)
    xm = np.moveaxis(np.asarray(xv), d, -1)
    vals, idx = np.empty_like(xm), np.empty(xm.shape, dtype=np.int64)
    if xm.size:
        out_v, out_i = xm[..., 0].copy(), np.zeros(xm.shape[:-1], dtype=np.int64)
        for i in range(xm.shape[-1]):
            cur = xm[..., i]
            # ATen: a NaN wins and stays; otherwise ties move to the later index (>= / <=)
            take = better(cur, out_v)
            if dt.is_floating_point:
                take = np.isnan(cur) | (~np.isnan(out_v) & take)
            out_v = np.where(take, cur, out_v)
            out_i = np.where(take, i, out_i)
            vals[..., i], idx[..., i] = out_v, out_i
    shape = tuple(x.shape)
    values = C.make(np.moveaxis(vals, -1, d).reshape(shape), dt, dev)
    indices = C.make(np.moveaxis(idx, -1, d).reshape(shape), D.int64, dev)
    if C.needs_grad(x) and dt.is_floating_point:
        def backward(gs):  # cummaxmin_backward: zeros_like(self).scatter_add(dim, indices, grad)
            g = gs[0]
            if g is None:
                return None,
            if nd == 0:
                return g if grad_mode._enabled[0] else C.make(C.read(g), dt, dev),
            torch = _torch()
            if grad_mode._enabled[0]:
                return torch.zeros(shape, dtype=dt, device=dev).scatter_add(d, indices, g),
            gx = np.zeros(np.moveaxis(vals, -1, d).shape, dtype=np.float64)
            np.add.at(np.moveaxis(gx, d, -1), _scatter_index(idx), np.moveaxis(np.asarray(C.read(g), np.float64)
                                                                              .reshape(gx.shape), d, -1))
            return C.make(gx.reshape(shape), dt, dev),
        # the indices are an integer output: not differentiable, no grad_fn (the node has values only)
        graph.attach(name, [values], [x], backward, saved={"dim": dim, "indices": indices, "self": x})
    return values, indices


def _scatter_index(idx):
    """Index arrays that send idx[..., i] (positions along the last axis) to their place, for np.add.at."""
    lead = np.indices(idx.shape)[:-1]
    return tuple(lead) + (idx,)


def cummax(x, dim):
    v, i = _cum_extreme(x, dim, "CummaxBackward0", lambda cur, best: cur >= best)
    return return_types.cummax((v, i))


def cummin(x, dim):
    v, i = _cum_extreme(x, dim, "CumminBackward0", lambda cur, best: cur <= best)
    return return_types.cummin((v, i))


# ----------------------------------------------------------------------------- histc / bucketize
def histc(x, bins=100, min=0, max=0, *, out=None):  # noqa: A002
    dev = C.device_of(x)
    dt = _float_only(x, "histogram_cpu")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    C.check_virtual(x, what="histc")
    npdt = np.float64 if dt is D.float64 else np.float32
    xv = np.asarray(C.read(x), dtype=npdt).ravel()
    lo, hi = npdt(min), npdt(max)
    if lo == hi and xv.size:  # the data's range
        finite = xv[np.isfinite(xv)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (lo, hi)
    if lo == hi:
        lo, hi = lo - npdt(1), hi + npdt(1)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    edges = np.linspace(lo, hi, bins + 1).astype(npdt)  # the kernel's bin edges, in the input's dtype
    inside = xv[(xv >= lo) & (xv <= hi)]
    with np.errstate(all="ignore"):
        pos = ((inside - lo) * npdt(bins) / (hi - lo)).astype(np.int64)
    pos = np.clip(pos, 0, bins)
    # as ATen: check the neighbouring edges (an element close to an edge may land one bin off) ...
    for k in range(inside.size):
        p = pos[k]
        a, b = _b.max(0, p - 1), _b.min(p + 2, bins + 1)
        pos[k] = a + np.searchsorted(edges[a:b], inside[k], side="right") - 1
    pos = np.where(inside == hi, bins - 1, pos)  # ... and the right edge closes the last bin
    counts = np.bincount(pos, minlength=bins)[:bins].astype(npdt)
    result = C.make(counts, dt, dev)
    if out is not None:
        out.resize_(result.shape).copy_(result)
        return out
    return result


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):  # noqa: A002
    torch = _torch()
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    dev = C.device_of(boundaries)
    C.check_virtual(boundaries, input, what="bucketize")
    values = C.read(input) if isinstance(input, C.Tensor) else np.asarray(input)
    res = np.searchsorted(np.asarray(C.read(boundaries)), values, side="right" if right else "left")
    odt = D.int32 if out_int32 else D.int64
    result = C.make(np.asarray(res, dtype=np.int64).reshape(np.shape(values)), odt, dev)
    if out is not None:
        with torch.no_grad():
            out.resize_(result.shape).copy_(result)
        return out
    return result


# ----------------------------------------------------------------------------- tril/triu_indices
def _indices(kind, row, col, offset, dtype, device):
    from .._factories import _device
    dtype = D.int64 if dtype is None else dtype
    if dtype not in (D.int64, D.int32):
        raise RuntimeError(f'"{kind}" not implemented for \'{_scalar_name(dtype)}\'')
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    rows, cols = (np.tril_indices if kind == "tril_indices" else np.triu_indices)(row, offset, col)
    values = np.stack([rows, cols]).astype(np.int64) if len(rows) else np.zeros((2, 0), dtype=np.int64)
    return C.make(values, dtype, _device(device))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False):
    return _indices("tril_indices", row, col, offset, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False):
    return _indices("triu_indices", row, col, offset, dtype, device)


# ----------------------------------------------------------------------------- quantile
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    torch = _torch()
    if not isinstance(q, C.Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
        q = torch.full((), q, dtype=x.dtype, device=x.device)  # at::scalar_tensor(q, self.options())
    if x.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if x.dtype not in (D.float32, D.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not x.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if q.device != x.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    wrapped = C.wrap_dim(dim if dim is not None else 0, max(x.dim(), 1)) if x.dim() else 0
    out_shape = []
    if dim is not None and x.dim() > 0:
        out_shape = list(x.shape)
        if keepdim:
            out_shape[wrapped] = 1
        else:
            del out_shape[wrapped]
    elif keepdim:
        out_shape = [1] * x.dim()
    if q.dim() > 0:
        out_shape.insert(0, q.numel())
    if x.device.type == "cpu" and not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")

    def compute(xi, qi):
        # ATen's quantile_compute, out of place (same values): sort along the reduced dim, ranks from q,
        # gather below / above, interpolate, move the q dim first
        if dim is None:
            srt = xi.flatten().sort()[0]
        elif wrapped == xi.dim() - 1:
            srt = xi.sort()[0]
        else:
            srt = xi.unsqueeze(-1).transpose(wrapped, -1).sort()[0]
        shape = list(out_shape) if qi.dim() > 0 else [1] + list(out_shape)  # q's dim first
        srt = srt.view(shape[1:] + [srt.shape[-1]])  # the kept dims, then the sorted one
        if ignore_nan:
            ranks = qi * (srt.isnan().logical_not().sum(-1, True) - 1)
            ranks = ranks.masked_fill(ranks < 0, 0)
        else:
            last = srt.shape[-1] - 1
            a, b = torch.broadcast_tensors(qi * last, srt.isnan().any(-1, True))
            ranks = a.masked_fill(b, last)
        if interpolation == "lower":
            ranks = ranks.floor()
        elif interpolation == "higher":
            ranks = ranks.ceil()
        elif interpolation == "nearest":
            ranks = ranks.round()
        below = ranks.to(torch.int64)
        values = srt.gather(-1, below)
        if interpolation in ("linear", "midpoint"):
            weights = torch.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
            values = values.lerp(srt.gather(-1, ranks.ceil().to(torch.int64)), weights)
        if qi.dim() == 0:
            return values.squeeze(-1)
        return values.unsqueeze(0).transpose(0, -1).squeeze(-1)

    from ..nn._composite import named
    # 2.x's last op is squeeze_(-1), in place: SqueezeBackward4 (1.13: SqueezeBackward3)
    return named("SqueezeBackward4", compute, [x, q],
                 saved=lambda result: {"dim": -1, "self_sym_sizes": tuple(result.shape) + (1,)})


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):  # noqa: A002
    r = _quantile(input, q, dim, keepdim, interpolation, False)
    return r if out is None else out.resize_(r.shape).copy_(r)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):  # noqa: A002
    r = _quantile(input, q, dim, keepdim, interpolation, True)
    return r if out is None else out.resize_(r.shape).copy_(r)


# ----------------------------------------------------------------------------- isin
def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    """A bool tensor of elements' shape (one allocation): whether each element is among test_elements."""
    torch = _torch()
    if not isinstance(elements, C.Tensor) and not isinstance(test_elements, C.Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got (Number, Number)")
    ref = elements if isinstance(elements, C.Tensor) else test_elements
    C.check_virtual(*[t for t in (elements, test_elements) if isinstance(t, C.Tensor)], what="isin")
    ev = C.read(elements) if isinstance(elements, C.Tensor) else np.asarray(elements)
    tv = C.read(test_elements) if isinstance(test_elements, C.Tensor) else np.asarray(test_elements)
    res = np.isin(ev, np.ravel(tv), invert=invert).reshape(np.shape(ev))
    result = C.make(res, D.bool, C.device_of(ref))
    if out is not None:
        with torch.no_grad():
            out.resize_(result.shape).copy_(result)
        return out
    return result
