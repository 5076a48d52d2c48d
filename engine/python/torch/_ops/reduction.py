# Reductions (sum, mean, prod, var/std, max/min/amax/argmax, all/any, logsumexp; norms: vector_norm.py), scans (cumsum)
# and softmax/log_softmax, with dim/keepdim/dtype arguments, PyTorch's result dtypes and autograd.
import builtins as _b
import warnings as _warnings

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .._fp_quiet import fp_quiet  # np.errstate(all="ignore") at a fraction of its cost (sum, mean, softmax: every call)
from .. import return_types
from ..autograd import grad_mode, graph
from . import _core as C


def _axis(dims):
    return None if dims is None else tuple(dims)


def _prep(x):
    return C.device_of(x), C.dtype_of(x)


def _expand_grad(g, shape, dims, keepdim):
    """Gradient of a reduction, broadcast back to the input's shape."""
    gv = C.read(g)
    if dims is None:
        gv = np.reshape(gv, (1,) * len(shape))
    elif not keepdim:
        for d in sorted(dims):
            gv = np.expand_dims(gv, d)
    return np.broadcast_to(gv, shape)


def _expand_grad_graph(g, shape, dims, keepdim, dtype):
    """_expand_grad with differentiable ops, for create_graph (grad mode on in backward): derivatives.yaml's
    sum_backward, grad.unsqueeze(reduced dims).expand(sizes), so that double backward reaches g."""
    if dims is None:
        g = g.reshape((1,) * len(shape))
    elif not keepdim:
        for d in sorted(dims):
            g = g.unsqueeze(d)
    g = g.expand(shape)
    return g if g.dtype is dtype else g.to(dtype)


def _reduction_grad(g, shape, dims, keepdim, dtype, dev, divisor=None):
    """The gradient of sum (no divisor) or mean (divisor: the count) broadcast back to the input: numpy and a
    fresh tensor normally, differentiable torch ops under create_graph."""
    if grad_mode._enabled[0]:
        gx = _expand_grad_graph(g, shape, dims, keepdim, dtype)
        return gx if divisor is None else gx / divisor
    if dims is None and divisor is None:
        # a whole-tensor sum's gradient (every loss.sum()): one value everywhere. np.full makes it contiguous,
        # which make() takes in one call; the broadcast view below goes through make()'s general write (~3x
        # the time for a small tensor). The same values, the same one allocation.
        gv = C.read(g)
        if type(gv) is np.ndarray and gv.size == 1:
            return C.make(np.full(shape, gv.reshape(-1)[0], dtype=gv.dtype), dtype, dev)
    # float32/float64 in one C call (engine/python/fast_make.cpp: the same broadcast values and division, the one
    # allocation make() gives); None for anything else
    out = _fast_expand_grad(g, shape, None if dims is None else tuple(dims), keepdim, dtype._code, dev, divisor)
    if out is not None:
        return out
    gv = _expand_grad(g, shape, dims, keepdim)
    return C.make(gv if divisor is None else gv / divisor, dtype, dev)


_fast_expand_grad = getattr(_E, "fast_expand_grad", None) if C.FAST_KERNELS else None
_fast_expand_grad = _fast_expand_grad or (lambda g, shape, dims, keepdim, code, dev, divisor: None)


RESULT = object()  # in a saved dict: the op's own result


def _finish(name, x, res, odt, dev, backward, saved=None):
    """The result tensor, with a grad_fn when needed. saved: PyTorch's saved set {name: value} (see
    graph.attach; RESULT stands for the result). backward(g, result) must hold only what `saved` names
    (shapes and dims are free): it gets the result (a detached alias) only when "result" is saved."""
    out = C.make(res, odt, dev)
    if backward is not None and odt.is_floating_point and C.needs_grad(x):
        saved = {k: (out if v is RESULT else v) for k, v in saved.items()} if saved else None
        # closures must not reference the output itself (no cycles): a detached alias, only if saved
        # a SavedOutput: under create_graph its unpack() carries the node, so a second backward reaches x
        rs = graph.SavedOutput(out) if saved and saved.get("result") is out else None
        node = graph.attach(name, [out], [x], lambda gs: (backward(gs[0], rs and rs.unpack()),), saved=saved)
        if rs is not None:
            rs.bind(node)
    return out


def _dim_arg(dim):
    """The dim argument as PyTorch's node keeps it (int[1]? dim: a tuple)."""
    return tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)


def _dims(x, dim):
    if dim is None or dim == () or dim == []:
        return None
    dims = C.dims_arg(dim, x._impl.dim)  # PyTorch's IndexError for a dim out of range (0-dim: [-1, 0])
    return None if x._impl.dim == 0 else dims  # reducing a 0-dim tensor over dim 0 is the identity


def sum(x, dim=None, keepdim=False, dtype=None):  # noqa: A001
    dev, xdt = _prep(x)
    if dtype is not None:
        x = x.to(dtype)
        xdt = dtype
    odt = xdt if xdt.is_floating_point else D.int64
    dims = _dims(x, dim)
    with fp_quiet():
        res = np.sum(C.values_of(x, C.compute_dtype(odt)), axis=_axis(dims), keepdims=keepdim)
    shape, gdt = tuple(x._impl.sizes), C.dtype_of(x)
    # sum saves only the input's sizes (and its dim arguments)
    saved = {"self_sym_sizes": shape} if dims is None else {"dim": _dim_arg(dim), "keepdim": keepdim,
                                                            "self_sym_sizes": shape}
    return _finish("SumBackward0" if dims is None else "SumBackward1", x, res, odt, dev,
                   lambda g, out: _reduction_grad(g, shape, dims, keepdim, gdt, dev), saved)


def attach_sum(x, out):
    """sum()'s SumBackward0 (as _finish makes it for a whole-tensor sum) on `out`, x.sum() already computed by the
    C++ fast path (torch/_ops/fast_grad.py)."""
    shape, gdt, dev = tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x)
    graph.attach("SumBackward0", [out], [x], lambda gs: (_reduction_grad(gs[0], shape, None, False, gdt, dev),),
                 saved={"self_sym_sizes": shape})


def nansum(x, dim=None, keepdim=False, dtype=None):
    from .elementwise import isnan, where
    return sum(where(isnan(x), 0.0, x), dim, keepdim, dtype)


def mean(x, dim=None, keepdim=False, dtype=None):
    dev, xdt = _prep(x)
    if dtype is not None:
        x = x.to(dtype)
        xdt = dtype
    if not xdt.is_floating_point:
        from .elementwise import scalar_name
        raise RuntimeError(f"mean(): could not infer output dtype. {'Input' if dtype is None else 'Optional'} dtype "
                           "must be either a floating point or complex dtype. Got: " + scalar_name(xdt))
    dims = _dims(x, dim)
    shape = x._impl.sizes
    n = 1
    for d in (range(len(shape)) if dims is None else dims):
        n *= shape[d]
    with fp_quiet():  # sum / count: an empty mean is NaN without numpy's warning
        res = np.true_divide(np.sum(C.values_of(x, np.float64 if xdt is D.float64 else np.float32),
                                    axis=_axis(dims), keepdims=keepdim), n)
    shape = tuple(shape)
    # mean saves the input's sizes and numel, never the input (2.x; 1.13's MeanBackward1 kept self)
    saved = {"self_sym_numel": x._impl.numel, "self_sym_sizes": shape}
    if dims is not None:
        saved = {"dim": _dim_arg(dim), "keepdim": keepdim, **saved}
    return _finish("MeanBackward0" if dims is None else "MeanBackward1", x, res, xdt, dev,
                   lambda g, out: _reduction_grad(g, shape, dims, keepdim, xdt, dev, _b.max(n, 1)), saved)


def nanmean(x, dim=None, keepdim=False, dtype=None):
    dev, xdt = _prep(x)
    dims = _dims(x, dim)
    with fp_quiet():
        res = np.nanmean(C.values_of(x, C.compute_dtype(xdt)), axis=_axis(dims), keepdims=keepdim)
    return C.make(res, xdt, dev)


def prod(x, dim=None, keepdim=False, dtype=None):
    dev, xdt = _prep(x)
    if dtype is not None:
        x = x.to(dtype)
        xdt = dtype
    odt = xdt if xdt.is_floating_point else D.int64
    dims = _dims(x, dim)
    xv = C.values_of(x, C.compute_dtype(odt))
    with fp_quiet():
        res = np.prod(xv, axis=_axis(dims), keepdims=keepdim)

    shape = tuple(x._impl.sizes)

    def back(g, out):
        # the product of the other elements, made without dividing by x: zeros get their gradient
        if grad_mode._enabled[0]:  # create_graph: the same products as differentiable ops
            if dims is None:
                others = _prod_others_graph(x.reshape(-1), 0).reshape(shape)
            else:
                others = _prod_others_graph(x, dims[0])
            return _expand_grad_graph(g, shape, dims, keepdim, xdt) * others
        xv = C.values_of(x, C.compute_dtype(odt))  # x is saved: read it now
        with fp_quiet():
            if dims is None:
                others = _prod_others_np(xv.reshape(-1), 0).reshape(shape)
            else:
                others = _prod_others_np(xv, dims[0])
            gx = _expand_grad(g, shape, dims, keepdim) * others
        return C.make(gx, xdt, dev)
    saved = {"result": RESULT, "self": x}
    if dims is not None:
        saved = {"dim": dim, "keepdim": keepdim, **saved}
    return _finish("ProdBackward0" if dims is None else "ProdBackward1", x, res, odt, dev, back, saved)


def _prod_others_np(xv, d):
    """For each element, the product of the others along axis d: exclusive products from the front times
    those from the back."""
    n = xv.shape[d]
    ones = np.ones_like(np.take(xv, [0], axis=d)) if n else xv
    before = np.cumprod(np.concatenate([ones, np.take(xv, range(n - 1), axis=d)], axis=d), axis=d)
    after = np.flip(np.cumprod(np.flip(np.concatenate([np.take(xv, range(1, n), axis=d), ones], axis=d), d),
                               axis=d), d)
    return before * after if n else xv


def _prod_others_graph(x, d):
    """_prod_others_np with differentiable ops (cat, cumprod, flip), for create_graph."""
    from .join import cat
    n = x.shape[d]
    if n == 0:
        return x
    ones = _ones_like(x.narrow(d, 0, 1))
    before = cat([ones, x.narrow(d, 0, n - 1)], d).cumprod(d)
    after = cat([x.narrow(d, 1, n - 1), ones], d).flip(d).cumprod(d).flip(d)
    return before * after


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None:
        return 1
    return 1 if unbiased else 0


def _var_args(dim, unbiased, keepdim):
    # var(dim, unbiased, keepdim) and var(unbiased) legacy positional forms
    if isinstance(dim, bool):
        return None, dim, keepdim
    return dim, unbiased, keepdim


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, unbiased, keepdim = _var_args(dim, unbiased, keepdim)
    dev, xdt = _prep(x)
    if not xdt.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    corr = _correction(unbiased, correction)
    dims = _dims(x, dim)
    xv = C.values_of(x, np.float64)
    with fp_quiet(), _warnings.catch_warnings():
        _warnings.simplefilter("ignore", RuntimeWarning)  # (no degrees of freedom: NaN, silently, as in PyTorch)
        res = np.var(xv, axis=_axis(dims), ddof=corr, keepdims=keepdim)
    shape = x._impl.sizes
    n = 1
    for d in (range(len(shape)) if dims is None else dims):
        n *= shape[d]

    shape = tuple(shape)

    def back(g, out):
        if grad_mode._enabled[0]:  # create_graph: var_backward in differentiable ops
            m = x.mean() if dims is None else x.mean(tuple(dims), keepdim=True)
            return _expand_grad_graph(g, shape, dims, keepdim, xdt) * 2.0 * (x - m) / _b.max(n - corr, 0)
        xv = C.values_of(x, np.float64)  # x is saved: read it now
        m = np.mean(xv, axis=_axis(dims), keepdims=True)
        with fp_quiet():
            gx = _expand_grad(g, shape, dims, keepdim) * 2.0 * (xv - m) / _b.max(n - corr, 0)
        return C.make(gx, xdt, dev)
    return _finish("VarBackward0", x, res, xdt, dev, back,
                   {"correction": corr, "dim": None if dim is None else _dim_arg(dim), "keepdim": keepdim,
                    "self": x})


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, unbiased, keepdim = _var_args(dim, unbiased, keepdim)
    from .elementwise import sqrt
    v = var(x, dim, unbiased, keepdim, correction=correction)
    return sqrt(v)


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return var(x, dim, unbiased, keepdim, correction=correction), mean(x, dim, keepdim)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return std(x, dim, unbiased, keepdim, correction=correction), mean(x, dim, keepdim)


def _empty_check(x, name, dims):
    if x._impl.numel == 0:
        if dims is None:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")


def _extreme(x, dim, keepdim, is_max, name):
    dev, xdt = _prep(x)
    npf = np.argmax if is_max else np.argmin
    redf = np.max if is_max else np.min
    xv = C.values_of(x, C.compute_dtype(xdt))
    if dim is None:
        _empty_check(x, name, None)
        val = redf(xv)
        count = None

        def back(g, out):
            # evenly_distribute_backward(grad, self, result): both are saved
            if grad_mode._enabled[0]:  # create_graph: the same as differentiable ops
                mask = x == out
                return mask.to(xdt) * (g / _b.max(int(mask.sum()), 1))
            xs = C.values_of(x, C.compute_dtype(xdt))
            mask = xs == C.read(out)
            cnt = _b.max(int(mask.sum()), 1)
            return C.make(np.where(mask, float(C.read(g)) / cnt, 0.0), xdt, dev)
        return _finish("MaxBackward1" if is_max else "MinBackward1", x, val, xdt, dev, back,
                       {"result": RESULT, "self": x})
    d = C.wrap_dim(dim, x._impl.dim)
    if x._impl.dim == 0:
        values = x.clone()
        idx = C.make(np.asarray(0), D.int64, dev)
        return getattr(return_types, name)(values, idx)
    if x._impl.sizes[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = npf(xv, axis=d)
    val = np.take_along_axis(xv, np.expand_dims(idx, d), axis=d)
    if not keepdim:
        val = np.squeeze(val, d)
    else:
        idx = np.expand_dims(idx, d)
    indices = C.make(idx.astype(np.int64), D.int64, dev)

    shape = xv.shape
    del xv  # the backward below needs only the indices (saved) and the input's sizes

    def back(g, out):
        if grad_mode._enabled[0]:  # create_graph: value_selecting_reduction_backward, differentiable
            from .indexing import scatter_into_zeros
            return scatter_into_zeros(shape, xdt, dev, d, indices if keepdim else indices.unsqueeze(d),
                                      g if keepdim else g.unsqueeze(d))
        gx = C.host_zeros(shape, np.float64, g)
        gv = C.read(g)
        ii = C.read(indices) if keepdim else np.expand_dims(C.read(indices), d)
        np.put_along_axis(gx, ii, gv if keepdim else np.expand_dims(gv, d), axis=d)
        return C.make(gx, xdt, dev)
    values = _finish("MaxBackward0" if is_max else "MinBackward0", x, val, xdt, dev, back,
                     {"dim": dim, "indices": indices, "keepdim": keepdim, "self_sym_sizes": tuple(shape)})
    return getattr(return_types, name)(values, indices)


def max(x, dim=None, keepdim=False, *, other=None):  # noqa: A001
    if isinstance(dim, C.Tensor):
        from .elementwise import maximum
        return maximum(x, dim)
    return _extreme(x, dim, keepdim, True, "max")


def min(x, dim=None, keepdim=False):  # noqa: A001
    if isinstance(dim, C.Tensor):
        from .elementwise import minimum
        return minimum(x, dim)
    return _extreme(x, dim, keepdim, False, "min")


def _amax(x, dim, keepdim, is_max):
    dev, xdt = _prep(x)
    dims = _dims(x, dim)
    name = "amax" if is_max else "amin"
    _empty_check(x, name, dims)
    for d in (() if dims is None else dim if isinstance(dim, (list, tuple)) else (dim,)):
        if x._impl.sizes[C.wrap_dim(d, x._impl.dim)] == 0:  # (the message names the dim as given)
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    xv = C.values_of(x, C.compute_dtype(xdt))
    f = np.max if is_max else np.min
    res = f(xv, axis=_axis(dims), keepdims=keepdim)

    shape = xv.shape
    del xv

    def back(g, out):
        if grad_mode._enabled[0]:  # create_graph: scale_grad_by_count(restore_reduced_dims(...)), differentiable
            mask = (x == _expand_grad_graph(out, shape, dims, keepdim, xdt)).to(xdt)
            cnt = mask.sum() if dims is None else mask.sum(tuple(dims), keepdim=True)
            return _expand_grad_graph(g, shape, dims, keepdim, xdt) * mask / cnt.clamp(min=1)
        xs = C.values_of(x, C.compute_dtype(xdt))  # self and result are saved: read them now
        full = _expand_grad(out, shape, dims, keepdim)
        mask = (xs == full)
        cnt = np.sum(mask, axis=_axis(dims), keepdims=True)
        return C.make(np.where(mask, _expand_grad(g, shape, dims, keepdim) / np.maximum(cnt, 1), 0.0), xdt, dev)
    return _finish("AmaxBackward0" if is_max else "AminBackward0", x, res, xdt, dev, back,
                   {"dim": _dim_arg(dim), "keepdim": keepdim, "result": RESULT, "self": x})


def amax(x, dim=(), keepdim=False):
    return _amax(x, dim, keepdim, True)


def amin(x, dim=(), keepdim=False):
    return _amax(x, dim, keepdim, False)


def aminmax(x, *, dim=None, keepdim=False):
    return return_types.aminmax(amin(x, dim if dim is not None else (), keepdim),
                                amax(x, dim if dim is not None else (), keepdim))


def _arg(x, dim, keepdim, f, name):
    dev, xdt = _prep(x)
    xv = C.values_of(x, C.compute_dtype(xdt))
    if dim is None:
        if x._impl.numel == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        r = f(xv.reshape(-1))
        if keepdim:
            r = np.reshape(r, (1,) * x._impl.dim)
    else:
        d = C.wrap_dim(dim, x._impl.dim)
        r = f(xv, axis=d) if x._impl.dim else np.asarray(0)
        if keepdim and x._impl.dim:
            r = np.expand_dims(r, d)
    return C.make(r.astype(np.int64) if C.shape_only(r) else np.asarray(r, dtype=np.int64), D.int64, dev)


def argmax(x, dim=None, keepdim=False):
    return _arg(x, dim, keepdim, np.argmax, "argmax")


def argmin(x, dim=None, keepdim=False):
    return _arg(x, dim, keepdim, np.argmin, "argmin")


def _bool_array(r):
    """A whole-tensor np.all / np.any answers a numpy bool scalar: as a 0-dim array it takes make's one C call
    (a scalar went through its general path: ~5 us of the causal-mask check TransformerDecoder runs each step)."""
    return np.asarray(r) if type(r) is np.bool_ else r


def all(x, dim=None, keepdim=False):  # noqa: A001
    dev, _ = _prep(x)
    dims = _dims(x, dim)
    return C.make(_bool_array(np.all(C.read(x), axis=_axis(dims), keepdims=keepdim)), D.bool, dev)


def any(x, dim=None, keepdim=False):  # noqa: A001
    dev, _ = _prep(x)
    dims = _dims(x, dim)
    return C.make(_bool_array(np.any(C.read(x), axis=_axis(dims), keepdims=keepdim)), D.bool, dev)


def count_nonzero(x, dim=None):
    dev, _ = _prep(x)
    dims = _dims(x, dim)
    return C.make(np.asarray(np.count_nonzero(C.read(x), axis=_axis(dims)), dtype=np.int64), D.int64, dev)


def logsumexp(x, dim, keepdim=False):
    dev, xdt = _prep(x)
    dims = _dims(x, dim)  # (0-dim: dim 0 or -1, reduces nothing)
    xv = C.values_of(x, np.float64)
    m = np.max(xv, axis=_axis(dims), keepdims=True, initial=-np.inf)  # (an empty slice gives -inf)
    m = np.where(np.isfinite(m), m, 0.0)
    with fp_quiet():
        res = np.log(np.sum(np.exp(xv - m), axis=_axis(dims), keepdims=True)) + m
    if not keepdim:
        res = np.squeeze(res, axis=_axis(dims))

    shape = xv.shape
    del xv

    def back(g, out):
        if grad_mode._enabled[0]:  # create_graph: logsumexp_backward in differentiable ops
            return _expand_grad_graph(g, shape, dims, keepdim, xdt) * (x - _expand_grad_graph(
                out, shape, dims, keepdim, xdt)).exp()
        xs = C.values_of(x, np.float64)  # self and result are saved: read them now
        full = _expand_grad(out, shape, dims, keepdim)
        return C.make(_expand_grad(g, shape, dims, keepdim) * np.exp(xs - full), xdt, dev)
    return _finish("LogsumexpBackward0", x, res, xdt if xdt.is_floating_point else D.float32, dev, back,
                   {"dim": _dim_arg(dim), "keepdim": keepdim, "result": RESULT, "self": x})


def cumsum(x, dim, dtype=None):
    dev, xdt = _prep(x)
    if dtype is not None:
        x = x.to(dtype)
        xdt = dtype
    odt = xdt if xdt.is_floating_point else D.int64
    d = C.wrap_dim(dim, x._impl.dim)
    xv = C.values_of(x, C.compute_dtype(odt))
    res = np.cumsum(xv, axis=d) if x._impl.dim else xv.copy()

    nd = x._impl.dim
    del xv

    def back(g, out):  # cumsum saves only dim
        if grad_mode._enabled[0]:  # create_graph: the reversed cumsum in differentiable ops
            gx = g if nd == 0 else g.flip(d).cumsum(d).flip(d)
            return gx if gx.dtype is xdt else gx.to(xdt)
        gv = C.read(g)
        if nd == 0:
            return C.make(gv, xdt, dev)
        return C.make(np.flip(np.cumsum(np.flip(gv, d), axis=d), d), xdt, dev)
    return _finish("CumsumBackward0", x, res, odt, dev, back, {"dim": dim})


def cumprod(x, dim, dtype=None):
    dev, xdt = _prep(x)
    if dtype is not None:
        x = x.to(dtype)
        xdt = dtype
    odt = xdt if xdt.is_floating_point else D.int64
    d = C.wrap_dim(dim, x._impl.dim)
    xv = C.values_of(x, C.compute_dtype(odt))
    res = np.cumprod(xv, axis=d) if x._impl.dim else xv.copy()
    nd = x._impl.dim
    del xv

    def back(g, out):  # cumprod_backward(grad, self, dim, result), without dividing by self (zeros are fine)
        if nd == 0:
            return g if grad_mode._enabled[0] else C.make(C.read(g), xdt, dev)
        if grad_mode._enabled[0]:
            gx = _cumprod_grad_graph(g, x, d)
            return gx if gx.dtype is xdt else gx.to(xdt)
        return C.make(_cumprod_grad_np(C.read(g), C.values_of(x, C.compute_dtype(odt)), d), xdt, dev)
    return _finish("CumprodBackward0", x, res, odt, dev, back, {"dim": dim, "result": RESULT, "self": x})


def _cumprod_grad_np(gv, xv, d):
    """d/dx_k of sum_j g_j prod_{i<=j} x_i = prod_{i<k} x_i * S_k, where S_k = g_k + x_{k+1} S_{k+1}."""
    g, x = np.moveaxis(np.asarray(gv, dtype=xv.dtype), d, 0), np.moveaxis(xv, d, 0)
    n = g.shape[0]
    suffix = np.empty_like(g)
    before = np.empty_like(g)
    if n:
        suffix[n - 1] = g[n - 1]
        for k in range(n - 2, -1, -1):
            suffix[k] = g[k] + x[k + 1] * suffix[k + 1]
        before[0] = 1
        for k in range(1, n):
            before[k] = before[k - 1] * x[k - 1]
    return np.moveaxis(before * suffix, 0, d)


def _ones_like(t):
    return C.make(np.ones(tuple(t._impl.sizes)), C.dtype_of(t), C.device_of(t))


def _cumprod_grad_graph(g, x, d):
    """_cumprod_grad_np with differentiable ops, for create_graph."""
    from .join import stack
    gs, xs = g.unbind(d), x.unbind(d)
    n = len(xs)
    suffix = [None] * n
    suffix[n - 1] = gs[n - 1]
    for k in range(n - 2, -1, -1):
        suffix[k] = gs[k] + xs[k + 1] * suffix[k + 1]
    before = [_ones_like(xs[0])]
    for k in range(1, n):
        before.append(before[-1] * xs[k - 1])
    return stack([b * s for b, s in zip(before, suffix)], d)


def _kernel_temporary(like):
    """A buffer of `like`'s shape and dtype that ATen's (log_)softmax kernels allocate after their output and free
    before they return: input.contiguous() of a strided input (SoftMax.cpp, SoftMax.cu host_softmax), the
    backward's grad.contiguous(), and CUDA softmax backward's `tmp = grad * output`. Allocated and dropped here,
    so that the allocator's trace and peak show it as PyTorch's do."""
    li = like._impl
    if li.numel:
        C.new_empty(tuple(li.sizes), C.dtype_of(like), C.device_of(like), False, li.is_virtual)


def _input_copy(x):
    if not x._impl.is_contiguous:
        _kernel_temporary(x)


def _softmax_np(xv, d):
    m = np.max(xv, axis=d, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(xv - m)
    return e / np.sum(e, axis=d, keepdims=True)


def softmax(x, dim=None, dtype=None, _stacklevel=3):
    if dtype is not None:
        x = x.to(dtype)
    dev, xdt = _prep(x)
    if not xdt.is_floating_point:
        raise RuntimeError("\"softmax_lastdim_kernel_impl\" not implemented for 'Long'")
    dim = dim if dim is not None else _implicit_dim(x)  # the node saves dim as given (-1 stays -1)
    d = C.wrap_dim(dim, x._impl.dim)
    ax = d if x._impl.dim else None
    fast = _E.nn_softmax(x._impl, d) if C.FAST_KERNELS and ax is not None and not x._impl.is_virtual else None

    def back(g, out):  # _softmax_backward_data(grad, result, dim): only the result is saved
        if grad_mode._enabled[0]:  # create_graph: the same formula in differentiable ops
            return out * (g - ((g * out).sum() if ax is None else (g * out).sum(ax, keepdim=True)))
        if C.FAST_KERNELS and ax is not None and not g._impl.is_virtual and not out._impl.is_virtual:
            r = _E.nn_softmax_backward(g._impl, out._impl, d)  # the last dim of float32 (bindings_transformer.cpp)
            if r is not None:
                return _softmax_backward_temporaries(g, C.wrap(r))
        gv, rv = C.read(g).astype(np.float64), C.read(out).astype(np.float64)
        return _softmax_backward_temporaries(g, C.make(rv * (gv - np.sum(gv * rv, axis=ax, keepdims=True)), xdt, dev))
    if fast is not None:  # the C++ kernel (bindings_transformer.cpp): the last dim of a dense float32 tensor
        out = C.wrap(fast)
        _input_copy(x)
        return _finish_made("SoftmaxBackward0", out, x, back, dim)
    with fp_quiet():
        res = _softmax_np(C.values_of(x, np.float64), ax)
    out = _finish("SoftmaxBackward0", x, res, xdt, dev, back, {"dim": dim, "result": RESULT})
    _input_copy(x)
    return out


def _softmax_backward_temporaries(g, grad_input):
    """After grad_input: CUDA's softmax_backward_cuda_out computes `tmp = grad * output` first (always a
    temporary), the CPU kernel takes grad.contiguous()."""
    if g._impl.device_key >= 0:
        _kernel_temporary(g)
    else:
        _input_copy(g)
    return grad_input


def _finish_made(name, out, x, back, dim):
    """_finish's autograd half for a (log_)softmax result a C++ kernel already allocated."""
    if C.needs_grad(x):
        rs = graph.SavedOutput(out)
        rs.bind(graph.attach(name, [out], [x], lambda gs: (back(gs[0], rs.unpack()),),
                             saved={"dim": dim, "result": out}))
    return out


def log_softmax(x, dim=None, dtype=None, _stacklevel=3):
    if dtype is not None:
        x = x.to(dtype)
    dev, xdt = _prep(x)
    if not xdt.is_floating_point:
        raise RuntimeError("\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'")
    dim = dim if dim is not None else _implicit_dim(x)  # the node saves dim as given (-1 stays -1)
    d = C.wrap_dim(dim, x._impl.dim)
    ax = d if x._impl.dim else None
    fast = _E.nn_log_softmax(x._impl, d) if ax is not None and not x._impl.is_virtual else None
    if fast is not None:  # the C++ kernel (bindings_fast_grad.cpp): a dense float tensor on host-readable memory
        out = C.wrap(fast)
        _input_copy(x)
        return _attach_log_softmax(out, x, dim, d, ax, xdt, dev)
    xv = C.values_of(x, np.float64)
    m = np.max(xv, axis=ax, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with fp_quiet():
        res = xv - m - np.log(np.sum(np.exp(xv - m), axis=ax, keepdims=True))

    del xv, m
    out = _finish("LogSoftmaxBackward0", x, res, xdt, dev, _log_softmax_back(d, ax, xdt, dev),
                  {"dim": dim, "result": RESULT})
    _input_copy(x)
    return out


def _log_softmax_back(d, ax, xdt, dev):
    def back(g, out):  # _log_softmax_backward_data(grad, result, dim): only the result is saved
        if grad_mode._enabled[0]:  # create_graph: the same formula in differentiable ops
            return g - out.exp() * (g.sum() if ax is None else g.sum(ax, keepdim=True))
        if ax is not None and not g._impl.is_virtual and not out._impl.is_virtual:
            fast = _E.nn_log_softmax_backward(g._impl, out._impl, d)
            if fast is not None:
                r = C.wrap(fast)
                _input_copy(g)  # grad.contiguous()
                return r
        gv, rv = C.read(g).astype(np.float64), C.read(out).astype(np.float64)
        r = C.make(gv - np.exp(rv) * np.sum(gv, axis=ax, keepdims=True), xdt, dev)
        _input_copy(g)
        return r
    return back


def _attach_log_softmax(out, x, dim, d, ax, xdt, dev):
    """_finish's autograd half for a result the C++ kernel already allocated (dim: as given, d: wrapped)."""
    if C.needs_grad(x):
        back = _log_softmax_back(d, ax, xdt, dev)
        rs = graph.SavedOutput(out)
        rs.bind(graph.attach("LogSoftmaxBackward0", [out], [x], lambda gs: (back(gs[0], rs.unpack()),),
                             saved={"dim": dim, "result": out}))
    return out


def _implicit_dim(x):
    import warnings
    warnings.warn("Implicit dimension choice for softmax has been deprecated. Change the call to include "
                  "dim=X as an argument.", stacklevel=4)
    nd = x._impl.dim
    return 0 if nd in (0, 1, 3) else 1
