# Indexing ops: index_select, gather/scatter, masked_fill/masked_select, nonzero, sort/topk, with PyTorch's
# errors and device rules (subscripts, t[...] and t[...] = v, are subscript.py).
import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .. import return_types
from ..autograd import graph
from . import _core as C
from . import shape as S
from ._scatter_rows import add_rows


def _sname(d):
    from .elementwise import scalar_name
    return scalar_name(d)


def index_select(x, dim, index):
    dev = C.check_same_device("_index_select", [("self", x), ("index", index)])
    if index._impl.dim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if C.dtype_of(index) not in (D.int64, D.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    d = C.wrap_dim(dim, x._impl.dim)
    iv = C.read(index).reshape(-1)
    size = x._impl.sizes[d] if x._impl.dim else 1
    if size == 0 and iv.size and x._impl.dim > 1:  # (ATen's matrix path; vectors report the index)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if iv.size and not C.shape_only(iv):
        # (a few indices - an embedding lookup's - compare faster as Python ints than through two numpy
        # reductions)
        if iv.size <= 32:
            ivl = iv.tolist()
            lo, hi = min(ivl), max(ivl)
        else:
            lo, hi = iv.min(), iv.max()
        if hi >= size or lo < 0:  # (ATen's check: a negative index is out of range, not wrapped)
            raise IndexError("index out of range in self")
    xv = C.read(x)
    if C.shape_only(iv) and not C.shape_only(xv):  # (numpy's take does not dispatch on its indices)
        xv = C.VirtualValues(xv.shape, xv.dtype)
    if not x._impl.dim:
        res = xv.reshape(1)[iv].reshape(())
    elif type(xv) is np.ndarray:
        res = xv.take(iv, axis=d)  # (np.take's result, without its dispatch layer)
    else:
        res = np.take(xv, iv, axis=d)
    out = C.make(res, C.dtype_of(x), dev)
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # index_select saves dim, index and self's sizes, not self
        shape, xdt = tuple(x._impl.sizes), C.dtype_of(x)
        del xv

        def fn(gs):
            # index_select_backward: zeros(self's sizes).index_add_(dim, index, grad), added in the gradient's
            # dtype one slice after the other (add_rows: the same rounding)
            gv = C.read(gs[0])
            gx = C.host_zeros(shape, gv.dtype, gs[0])
            iv = C.read(index)
            if not C.shape_only(gx, gv, iv):  # (shape-only values: nothing to add, as with ufunc.at)
                add_rows(np.moveaxis(gx, d, 0), iv.reshape(-1), np.moveaxis(gv, d, 0))
            return (graph.linear_grad(C.make(gx, xdt, dev), gs[0], "IndexAddBackward0",
                                      lambda gg: index_select(gg, dim, index)),)
        graph.attach("IndexSelectBackward0", [out], [x], fn,
                     saved={"dim": dim, "index": index, "self_sym_sizes": shape})
    return out


def gather(x, dim, index, sparse_grad=False):
    dev = C.check_same_device("gather", [("self", x), ("index", index)])
    if C.dtype_of(index) is not D.int64:
        raise RuntimeError("gather(): Expected dtype int64 for index")
    d = C.wrap_dim(dim, x._impl.dim)
    iv = C.read(index)
    xv = C.read(x)
    if max(iv.ndim, 1) != max(xv.ndim, 1):  # (ATen's ensure_nonempty_dim: 0-dim counts as 1-dim)
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    out_shape = iv.shape
    xv, iv = xv.reshape(xv.shape or (1,)), iv.reshape(iv.shape or (1,))
    size = xv.shape[d]
    if iv.size and not C.shape_only(iv) and (iv.max() >= size or iv.min() < -size):
        raise RuntimeError(f"index {int(iv.max())} is out of bounds for dimension {d} with size {size}")
    sl = tuple(slice(0, s) for s in iv.shape)
    base = xv[tuple(slice(0, s) if i != d else slice(None) for i, s in enumerate(iv.shape))]
    res = np.take_along_axis(base, iv, axis=d).reshape(out_shape)
    out = C.make(res, C.dtype_of(x), dev)
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # gather_backward(grad, self, dim, index, sparse_grad): PyTorch keeps self too
        shape, xdt, x_sizes = xv.shape, C.dtype_of(x), tuple(x._impl.sizes)
        del xv, base

        def fn(gs):
            gx = C.host_zeros(shape, np.float64, gs[0])
            iv = C.read(index)
            iv = iv.reshape(iv.shape or (1,))
            gv = C.read(gs[0]).reshape(iv.shape)
            idx = list(np.indices(iv.shape, sparse=True))
            idx[d] = iv
            np.add.at(gx, tuple(idx), gv)
            gout = C.make(gx.reshape(x_sizes), xdt, dev)
            if C.needs_grad(gs[0]):  # create_graph: gather_backward is zeros.scatter_add(dim, index, grad)
                _attach_scatter_add(gout, d, index, gs[0])
            return (gout,)
        graph.attach("GatherBackward0", [out], [x], fn,
                     saved={"dim": dim, "index": index, "self": x, "sparse_grad": sparse_grad})
    del sl
    return out


def _attach_scatter_add(out, d, index, g):
    """out = zeros.scatter_add(d, index, g) as a node of g (ScatterAddBackward0): its gradient is the gather of
    the incoming one. Double backward of gather, max(dim) and min(dim) goes through it."""
    graph.attach("ScatterAddBackward0", [out], [g], lambda ggs: (gather(ggs[0], d, index),),
                 saved={"dim": d, "index": index})


def scatter_into_zeros(shape, dtype, device, d, index, g):
    """zeros(shape).scatter_add(d, index, g), differentiable in g (create_graph backwards)."""
    gx = C.host_zeros(tuple(shape), np.float64, g)
    iv = C.read(index)
    idx = list(np.indices(iv.shape, sparse=True))
    idx[d] = iv
    np.add.at(gx, tuple(idx), C.read(g))
    out = C.make(gx, dtype, device)
    if C.needs_grad(g):
        _attach_scatter_add(out, d, index, g)
    return out


def _scatter_values(x, dim, index, src, reduce=None):
    d = C.wrap_dim(dim, x._impl.dim)
    iv = C.read(index)
    if iv.ndim == 0:  # a 0-dim index scatters one element, as PyTorch does (transforms tutorial's one-hot)
        iv = iv.reshape(1)
    xv = np.array(C.read(x))
    sv = C.read(src) if isinstance(src, C.Tensor) else np.full(iv.shape, src)
    sv = sv.reshape(1) if sv.ndim == 0 else sv
    sv = sv[tuple(slice(0, s) for s in iv.shape)]
    size = xv.shape[d] if xv.ndim else 1
    bad = iv[(iv >= size) | (iv < -size)] if iv.size else iv
    if bad.size:
        raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {d} with size {size}")
    idx = list(np.indices(iv.shape, sparse=True))
    idx[d] = iv
    idx = tuple(idx)
    if reduce in ("add", "sum"):
        np.add.at(xv, idx, sv)
    elif reduce in ("multiply", "prod"):
        np.multiply.at(xv, idx, sv)
    else:
        xv[idx] = sv
    return xv


def scatter(x, dim, index, src=None, value=None, reduce=None):
    src = src if src is not None else value
    C.check_same_device("scatter", [("self", x), ("index", index)] +
                        ([("src", src)] if isinstance(src, C.Tensor) else []))
    return C.make(_scatter_values(x, dim, index, src, reduce), C.dtype_of(x), C.device_of(x))


def scatter_(x, dim, index, src=None, value=None, reduce=None):
    src = src if src is not None else value
    C.check_inplace(x)
    C.write(x, _scatter_values(x, dim, index, src, reduce))
    return x


def scatter_add(x, dim, index, src):
    return C.make(_scatter_values(x, dim, index, src, "add"), C.dtype_of(x), C.device_of(x))


def scatter_add_(x, dim, index, src):
    C.check_inplace(x)
    C.write(x, _scatter_values(x, dim, index, src, "add"))
    return x


def index_add(x, dim, index, source, alpha=1):
    d = C.wrap_dim(dim, x._impl.dim)
    xv = np.array(C.read(x), dtype=np.float64 if C.dtype_of(x).is_floating_point else np.int64)
    moved = np.moveaxis(xv, d, 0)
    np.add.at(moved, C.read(index), np.moveaxis(C.read(source), d, 0) * alpha)
    return C.make(xv, C.dtype_of(x), C.device_of(x))


def index_add_(x, dim, index, source, alpha=1):
    C.check_inplace(x)
    C.write(x, C.read(index_add(x, dim, index, source, alpha)))
    return x


def masked_select(x, mask):
    C.elementwise_device([x, mask])
    xv, mv = np.broadcast_arrays(C.read(x), C.read(mask).astype(bool))
    out = C.make(np.ascontiguousarray(xv[mv]), C.dtype_of(x), C.device_of(x))
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # masked_select keeps self and the mask: the gradient goes where the (broadcast) mask is set, then is
        # summed back over the dims self was broadcast along
        full_shape, shape, xdt, xdev = mv.shape, tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x)
        del xv, mv

        def fn(gs):
            m = np.broadcast_to(C.read(mask).astype(bool), full_shape)
            g = C.host_zeros(full_shape, np.float64, gs[0])
            g[m] = C.read(gs[0])
            while g.ndim > len(shape):
                g = g.sum(0)
            for i, n in enumerate(shape):
                if n == 1 and g.shape[i] != 1:
                    g = g.sum(i, keepdims=True)
            return (C.make(g, xdt, xdev),)
        graph.attach("MaskedSelectBackward0", [out], [x], fn, saved={"mask": mask, "self": x})
    return out


def nonzero(x, as_tuple=False):
    C.check_virtual(x, what="nonzero's result size")
    nz = np.nonzero(C.read(x))
    if as_tuple:
        if x._impl.dim == 0:
            return (C.make(np.nonzero(np.atleast_1d(C.read(x)))[0].astype(np.int64), D.int64, C.device_of(x)),)
        # (copy=False: np.nonzero's indices are int64 already, and make copies them into the tensor)
        return tuple(C.make(a.astype(np.int64, copy=False), D.int64, C.device_of(x)) for a in nz)
    nd = x._impl.dim
    # ATen fills a (ndim, n) tensor and returns it transposed in place: strides (1, n), not a view
    cols = (np.stack(nz, axis=0).astype(np.int64, copy=False) if nz
            else np.zeros((0, int(np.count_nonzero(C.read(x)))), np.int64))
    n = cols.shape[1]
    t = C.make(np.ascontiguousarray(cols), D.int64, C.device_of(x))
    st = t._impl.strides
    t._impl.set_data(_E.as_strided(t._impl, (n, nd), (st[1], st[0]), 0))
    return t


def argwhere(x):
    return nonzero(x)


def take(x, index):
    xv = C.read(x).reshape(-1)
    iv = C.read(index)
    n = xv.size
    bad = iv[(iv >= n) | (iv < -n)] if iv.size else iv
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of {n} elements.")
    return C.make(xv[iv], C.dtype_of(x), C.device_of(x))


def sort(x, dim=-1, descending=False, stable=False):
    d = C.wrap_dim(dim, x._impl.dim)
    xv = C.read(x)
    if x._impl.dim == 0:
        return return_types.sort(x.clone(), C.make(np.asarray(0), D.int64, C.device_of(x)))
    # descending: NaN first (PyTorch ranks it above every number), as topk's order
    idx = _descending_order(xv, d) if descending else np.argsort(xv, axis=d, kind="stable")
    vals = np.take_along_axis(xv, idx, axis=d)
    values = C.make(vals, C.dtype_of(x), C.device_of(x))
    indices = C.make(idx.astype(np.int64), D.int64, C.device_of(x))
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # sort saves dim, the indices and self's sizes, not self
        shape, xdt, xdev = xv.shape, C.dtype_of(x), C.device_of(x)
        del xv

        def fn(gs):
            if C.needs_grad(gs[0]):  # create_graph: value_selecting_reduction_backward, differentiable
                return (scatter_into_zeros(shape, xdt, xdev, d, indices, gs[0]),)
            gx = C.host_zeros(shape, np.float64, gs[0])
            np.put_along_axis(gx, C.read(indices), C.read(gs[0]), axis=d)
            return (C.make(gx, xdt, xdev),)
        graph.attach("SortBackward0", [values], [x], fn,
                     saved={"dim": dim, "indices": indices, "self_sym_sizes": tuple(shape)})
    return return_types.sort(values, indices)


def argsort(x, dim=-1, descending=False, stable=False):
    return sort(x, dim, descending, stable).indices


def _descending_order(xv, d):
    """A stable descending argsort along d with NaN above every number, as PyTorch orders a largest-first
    topk (numpy's argsort puts NaN last whichever way the key points)."""
    if xv.dtype == np.bool_:
        return np.argsort(~xv, axis=d, kind="stable")
    if xv.dtype.kind in "iu":
        return np.argsort(~xv, axis=d, kind="stable")  # (~x = -x - 1: decreasing, and no overflow at the minimum)
    nan = np.isnan(xv)
    if not nan.any():
        return np.argsort(-xv, axis=d, kind="stable")
    return np.lexsort((-xv, ~nan), axis=d)  # NaN first, then the numbers largest first (lexsort is stable)


def topk(x, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    d = C.wrap_dim(dim, x._impl.dim)
    if k > (x._impl.sizes[d] if x._impl.dim else 1) or k < 0:
        raise RuntimeError("selected index k out of range")
    if x._impl.dim == 0:
        s = sort(x, d, descending=largest)
        return return_types.topk(s.values, s.indices)
    # ATen's topk allocates the k values and the k indices only (values first), and TopkBackward0 saves what
    # SortBackward0 saves; ties keep the lower index first, as sort's stable order does
    xv = C.read(x)
    order = _descending_order(xv, d) if largest else np.argsort(xv, axis=d, kind="stable")
    idx = order[(slice(None),) * d + (slice(0, k),)]
    del order
    dt, dev = C.dtype_of(x), C.device_of(x)
    values = C.make(np.take_along_axis(xv, idx, axis=d), dt, dev)
    indices = C.make(idx.astype(np.int64, copy=False), D.int64, dev)
    if dt.is_floating_point and C.needs_grad(x):
        shape = xv.shape
        del xv

        def fn(gs):
            if C.needs_grad(gs[0]):  # create_graph: value_selecting_reduction_backward, differentiable
                return (scatter_into_zeros(shape, dt, dev, d, indices, gs[0]),)
            gx = C.host_zeros(shape, np.float64, gs[0])
            np.put_along_axis(gx, C.read(indices), C.read(gs[0]), axis=d)
            return (C.make(gx, dt, dev),)
        graph.attach("TopkBackward0", [values], [x], fn,
                     saved={"dim": dim, "indices": indices, "self_sym_sizes": tuple(shape)})
    return return_types.topk(values, indices)


def unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    C.check_virtual(x, what="unique's result size")
    vals, inv, counts = np.unique(C.read(x), return_inverse=True, return_counts=True)
    dev = C.device_of(x)
    out = [C.make(vals, C.dtype_of(x), dev)]
    if return_inverse:
        out.append(C.make(inv.reshape(tuple(x._impl.sizes)).astype(np.int64), D.int64, dev))
    if return_counts:
        out.append(C.make(counts.astype(np.int64), D.int64, dev))
    return out[0] if len(out) == 1 else tuple(out)


def bincount(x, weights=None, minlength=0):
    w = C.read(weights) if weights is not None else None
    res = np.bincount(C.read(x), weights=w, minlength=minlength)
    return C.make(res, D.float64 if weights is not None else D.int64, C.device_of(x))


def searchsorted(sorted_sequence, values, right=False, side=None):
    side = side or ("right" if right else "left")
    res = np.searchsorted(C.read(sorted_sequence), C.read(values) if isinstance(values, C.Tensor) else values,
                          side=side)
    return C.make(np.asarray(res, dtype=np.int64), D.int64, C.device_of(sorted_sequence))
