# Indexing: t[...] (basic indexing makes views, advanced indexing copies), t[...] = v, index_select,
# gather/scatter, masked_fill/masked_select, nonzero, sort/topk, with PyTorch's errors and device rules.
import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .. import return_types
from ..autograd import graph
from . import _core as C
from . import shape as S


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _expand_index(x, index):
    if not isinstance(index, tuple):
        index = (index,)
    consumed = 0
    for it in index:
        if it is None or it is Ellipsis or isinstance(it, bool):
            continue
        if isinstance(it, C.Tensor) and C.dtype_of(it) in (D.bool, D.uint8):
            consumed += max(it._impl.dim, 1) if it._impl.dim else 0
        else:
            consumed += 1
    nd = x._impl.dim
    if consumed > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    out = []
    seen_ellipsis = False
    for it in index:
        if it is Ellipsis:
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
            out.extend([slice(None)] * (nd - consumed))
        else:
            out.append(it)
    return out


def _is_basic(items):
    for it in items:
        if it is None or isinstance(it, slice) or _is_int(it):
            continue
        if isinstance(it, C.Tensor) and it._impl.dim == 0 and not C.dtype_of(it).is_floating_point \
                and C.dtype_of(it) is not D.bool:
            continue
        return False
    return True


def _basic_view(x, items):
    impl = x._impl
    sizes, strides = list(impl.sizes), list(impl.strides)
    offset = impl.offset
    out_sizes, out_strides = [], []
    np_index = []
    name = "AliasBackward0"
    steps = []  # the view ops PyTorch applies, one node each: (node name, its saved values)
    d = 0
    for it in items:
        if it is None:
            steps.append(("UnsqueezeBackward0", {"dim": len(out_sizes)}))
            out_sizes.append(1)
            # unsqueeze's stride at this point of PyTorch's left-to-right slicing: size * stride of the next
            # unprocessed dim (1 past the last one)
            out_strides.append(sizes[d] * strides[d] if d < len(sizes) else 1)
            np_index.append(None)
            name = "UnsqueezeBackward0"
            continue
        if isinstance(it, C.Tensor):
            it = int(C.read(it))
        if _is_int(it):
            it = int(it)
            size = sizes[d]
            if it < -size or it >= size:
                raise IndexError(f"index {it} is out of bounds for dimension {d} with size {size}")
            steps.append(("SelectBackward0", {"dim": len(out_sizes), "index": it}))
            if it < 0:
                it += size
            offset += it * strides[d]
            np_index.append(it)
            name = "SelectBackward0"
            d += 1
            continue
        # slice
        size = sizes[d]
        step = 1 if it.step is None else int(it.step)
        if step <= 0:
            raise ValueError("step must be greater than zero")
        start, stop, _ = slice(it.start, it.stop, step).indices(size)
        n = max(0, (stop - start + step - 1) // step)
        if not (start == 0 and n == size and step == 1):
            name = "SliceBackward0"
            steps.append(("SliceBackward0", {"dim": len(out_sizes), "end": it.stop, "start": it.start,
                                             "step": step}))
        out_sizes.append(n)
        out_strides.append(strides[d] * step)
        offset += start * strides[d]  # even for an empty slice, as ATen's slice does
        np_index.append(slice(start, start + n * step, step) if n else slice(0, 0))
        d += 1
    out_sizes.extend(sizes[d:])
    out_strides.extend(strides[d:])
    out = C.wrap(_E.as_strided(impl, tuple(out_sizes), tuple(out_strides), offset))
    out._base = x._base if x._base is not None else x
    if C.needs_grad(x):
        idx = tuple(i for i in np_index if i is not None)
        old_shape = tuple(sizes)
        xdt, xdev = C.dtype_of(x), C.device_of(x)  # views save no tensor: the closure must not hold x

        def fn(gs):
            gv = C.read(gs[0])
            gx = np.zeros(old_shape, dtype=np.float64)
            gx[idx] = gv.reshape(gx[idx].shape)
            return (C.make(gx, xdt, xdev),)
        saved = None
        if len(steps) == 1 and steps[0][0] == name:
            # one view op, as in PyTorch: its saved values (a chain of them is one node here, unexposed)
            saved = dict(steps[0][1])
            if name != "UnsqueezeBackward0":
                saved["self_sym_sizes"] = old_shape
        graph.attach(name, [out], [x], fn, saved=saved)
    return out


def _np_index(x, items):
    """numpy index for advanced indexing; checks index devices and mask shapes like PyTorch."""
    out = []
    dim = 0
    for it in items:
        if isinstance(it, C.Tensor):
            k = it._impl.device_key
            if k != -1 and k != x._impl.device_key:
                raise RuntimeError("indices should be either on cpu or on the same device as the indexed tensor "
                                   f"({C.device_of(x)})")
            dt = C.dtype_of(it)
            if dt.is_floating_point:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            v = C.read(it)
            if dt in (D.bool, D.uint8):
                v = v.astype(bool)
                for j in range(v.ndim):
                    if v.shape[j] != x._impl.sizes[dim + j]:
                        raise IndexError(f"The shape of the mask {list(v.shape)} at index {j} does not match the "
                                         f"shape of the indexed tensor {list(x._impl.sizes)} at index {dim + j}")
                dim += v.ndim
            else:
                _check_bounds(v, x._impl.sizes[dim] if dim < x._impl.dim else 0, dim)
                dim += 1
            out.append(v)
        elif isinstance(it, (list, tuple)):
            v = np.asarray([int(C.read(e)) if isinstance(e, C.Tensor) else e for e in it])
            if v.dtype == np.bool_:
                dim += 1
            else:
                if v.dtype.kind not in "iu":
                    raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
                _check_bounds(v, x._impl.sizes[dim], dim)
                dim += 1
            out.append(v)
        elif isinstance(it, bool):
            out.append(it)
        elif _is_int(it):
            _check_bounds(np.asarray(it), x._impl.sizes[dim], dim)
            out.append(int(it))
            dim += 1
        elif it is None:
            out.append(None)
        else:
            out.append(it)
            dim += 1
    return tuple(out)


def _check_bounds(v, size, dim):
    if v.size and (v.max() >= size or v.min() < -size):
        bad = int(v.max()) if v.max() >= size else int(v.min())
        raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def getitem(x, index):
    if isinstance(index, C.Tensor) and index._impl.dim == 0 and C.dtype_of(index) is D.bool:
        items = [index]
    else:
        items = _expand_index(x, index)
    if _is_basic(items):
        return _basic_view(x, items)
    C.check_virtual(x)
    npi = _np_index(x, items)
    xv = C.read(x)
    res = np.array(xv[npi])
    out = C.make(res, C.dtype_of(x), C.device_of(x))
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # index saves the index tensors and self's sizes, not self
        meta = (tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x))

        def fn(gs):
            gx = np.zeros(meta[0], dtype=np.float64)
            np.add.at(gx, npi, C.read(gs[0]))
            return (C.make(gx, meta[1], meta[2]),)
        graph.attach("IndexBackward0", [out], [x], fn,
                     saved={"indices": tuple(it if isinstance(it, C.Tensor) else None for it in items),
                            "self_sym_sizes": meta[0]})
    return out


def setitem(x, index, value):
    C.check_inplace(x)
    items = _expand_index(x, index) if not (isinstance(index, C.Tensor) and index._impl.dim == 0) else [index]
    if _is_basic(items):
        view = _basic_view(x, items) if items else x
        if isinstance(value, C.Tensor):
            if value._impl.device_key != -1 or value._impl.dim != 0 or view._impl.device_key == -1:
                view.copy_(value)  # across devices too: a real copy (recorded as a transfer)
                return
            value = value.item()
        C.check_virtual(view)
        C.write(view, np.asarray(value))
        return
    C.check_virtual(x)
    npi = _np_index(x, items)
    if isinstance(value, C.Tensor):
        if value._impl.device_key != x._impl.device_key and not (value._impl.dim == 0 and
                                                                 value._impl.device_key == -1):
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{C.device_of(x)} and {C.device_of(value)}!")
        if C.dtype_of(value) is not C.dtype_of(x) and value._impl.dim > 0:
            raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                               f"{_sname(C.dtype_of(x))} for the destination and {_sname(C.dtype_of(value))} for "
                               "the source.")
        value = C.read(value)
    view, is_copy = _E.numpy_view(x._impl)
    if x._impl.dtype_code == 3:
        full = C.read(x).copy()
        full[npi] = value
        C.write(x, full)
        return
    view[npi] = value
    if is_copy:
        _E.upload(x._impl, view)
    x._impl.bump_version()


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
    C.check_virtual(x)
    iv = C.read(index).reshape(-1)
    size = x._impl.sizes[d] if x._impl.dim else 1
    if size == 0 and iv.size and x._impl.dim > 1:  # (ATen's matrix path; vectors report the index)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if iv.size and (iv.max() >= size or iv.min() < -size):
        bad = int(iv.max()) if iv.max() >= size else int(iv.min())
        raise IndexError(f"index out of range in self")
    xv = C.read(x)
    res = np.take(xv, iv, axis=d) if x._impl.dim else xv.reshape(1)[iv].reshape(())
    out = C.make(res, C.dtype_of(x), dev)
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # index_select saves dim, index and self's sizes, not self
        shape, xdt = tuple(x._impl.sizes), C.dtype_of(x)
        del xv

        def fn(gs):
            gx = np.zeros(shape, dtype=np.float64)
            gv = C.read(gs[0])
            moved = np.moveaxis(gx, d, 0)
            np.add.at(moved, C.read(index).reshape(-1), np.moveaxis(gv, d, 0))
            return (C.make(gx, xdt, dev),)
        graph.attach("IndexSelectBackward0", [out], [x], fn,
                     saved={"dim": dim, "index": index, "self_sym_sizes": shape})
    return out


def gather(x, dim, index, sparse_grad=False):
    dev = C.check_same_device("gather", [("self", x), ("index", index)])
    if C.dtype_of(index) is not D.int64:
        raise RuntimeError("gather(): Expected dtype int64 for index")
    d = C.wrap_dim(dim, x._impl.dim)
    C.check_virtual(x)
    iv = C.read(index)
    xv = C.read(x)
    if iv.ndim != xv.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    size = xv.shape[d]
    if iv.size and (iv.max() >= size or iv.min() < -size):
        raise RuntimeError(f"index {int(iv.max())} is out of bounds for dimension {d} with size {size}")
    sl = tuple(slice(0, s) for s in iv.shape)
    base = xv[tuple(slice(0, s) if i != d else slice(None) for i, s in enumerate(iv.shape))]
    res = np.take_along_axis(base, iv, axis=d)
    out = C.make(res, C.dtype_of(x), dev)
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # gather_backward(grad, self, dim, index, sparse_grad): PyTorch keeps self too
        shape, xdt = xv.shape, C.dtype_of(x)
        del xv, base

        def fn(gs):
            gx = np.zeros(shape, dtype=np.float64)
            gv = C.read(gs[0])
            iv = C.read(index)
            idx = list(np.indices(iv.shape, sparse=True))
            idx[d] = iv
            np.add.at(gx, tuple(idx), gv)
            return (C.make(gx, xdt, dev),)
        graph.attach("GatherBackward0", [out], [x], fn,
                     saved={"dim": dim, "index": index, "self": x, "sparse_grad": sparse_grad})
    del sl
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


def masked_fill(x, mask, value):
    from .elementwise import where
    if C.dtype_of(mask) is not D.bool:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_sname_lower(mask)}")
    if isinstance(value, C.Tensor):
        if value._impl.dim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._impl.dim} dimension(s).")
        if value._impl.device_key != -1 and value._impl.device_key != x._impl.device_key:
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{C.device_of(value)} and {C.device_of(x)}!")
    C.elementwise_device([x, mask])
    if not isinstance(value, C.Tensor):
        value = C.make(np.asarray(value), C.dtype_of(x), C.device_of(x)) if C.dtype_of(x).is_floating_point or \
            not isinstance(value, float) else C.make(np.asarray(value), C.dtype_of(x), C.device_of(x))
    out = where(mask, value.to(C.dtype_of(x)) if C.dtype_of(value) is not C.dtype_of(x) else value, x)
    if tuple(out._impl.sizes) != tuple(x._impl.sizes):
        out = out.expand(x.shape).contiguous()
    return out


def _sname_lower(t):
    return _sname(C.dtype_of(t))


def masked_fill_(x, mask, value):
    C.check_inplace(x)
    r = masked_fill(x, mask, value)
    if C.needs_grad(x, value if isinstance(value, C.Tensor) else None):
        C.write(x, C.read(r))
        x._grad_fn, x._output_nr = r._grad_fn, 0
        return x
    C.write(x, C.read(r))
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
            g = np.zeros(full_shape, dtype=np.float64)
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
    C.check_virtual(x)
    nz = np.nonzero(C.read(x))
    if as_tuple:
        if x._impl.dim == 0:
            return (C.make(np.nonzero(np.atleast_1d(C.read(x)))[0].astype(np.int64), D.int64, C.device_of(x)),)
        return tuple(C.make(a.astype(np.int64), D.int64, C.device_of(x)) for a in nz)
    nd = x._impl.dim
    # ATen fills a (ndim, n) tensor and returns it transposed in place: strides (1, n), not a view
    cols = np.stack(nz, axis=0).astype(np.int64) if nz else np.zeros((0, int(np.count_nonzero(C.read(x)))), np.int64)
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
    C.check_virtual(x)
    d = C.wrap_dim(dim, x._impl.dim)
    xv = C.read(x)
    if x._impl.dim == 0:
        return return_types.sort(x.clone(), C.make(np.asarray(0), D.int64, C.device_of(x)))
    key = -xv if descending and xv.dtype != np.bool_ else xv
    idx = np.argsort(key, axis=d, kind="stable")
    vals = np.take_along_axis(xv, idx, axis=d)
    values = C.make(vals, C.dtype_of(x), C.device_of(x))
    indices = C.make(idx.astype(np.int64), D.int64, C.device_of(x))
    if C.dtype_of(x).is_floating_point and C.needs_grad(x):
        # sort saves dim, the indices and self's sizes, not self
        shape, xdt, xdev = xv.shape, C.dtype_of(x), C.device_of(x)
        del xv, key

        def fn(gs):
            gx = np.zeros(shape, dtype=np.float64)
            np.put_along_axis(gx, C.read(indices), C.read(gs[0]), axis=d)
            return (C.make(gx, xdt, xdev),)
        graph.attach("SortBackward0", [values], [x], fn,
                     saved={"dim": dim, "indices": indices, "self_sym_sizes": tuple(shape)})
    return return_types.sort(values, indices)


def argsort(x, dim=-1, descending=False, stable=False):
    return sort(x, dim, descending, stable).indices


def topk(x, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    d = C.wrap_dim(dim, x._impl.dim)
    if k > (x._impl.sizes[d] if x._impl.dim else 1) or k < 0:
        raise RuntimeError("selected index k out of range")
    s = sort(x, d, descending=largest)
    values = S.narrow(s.values, d, 0, k) if x._impl.dim else s.values
    indices = S.narrow(s.indices, d, 0, k) if x._impl.dim else s.indices
    return return_types.topk(values.contiguous(), indices.contiguous())


def unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    C.check_virtual(x)
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
