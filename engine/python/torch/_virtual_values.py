# Shape-only values: what a virtual tensor "reads" as (issue 25, virtual steps).
#
# The ops compute on the host with numpy: read the operands' values, compute, allocate the result with
# those values (_ops/_core.py make / write). A virtual tensor has no bytes, so _core.read gives a
# VirtualValues instead of an array: it carries a shape and a numpy dtype and nothing else, and numpy's
# dispatch protocols (__array_ufunc__, __array_function__) send every computation on it here, where only
# the result's shape and dtype are worked out - in time independent of the element count. The op's own
# code is unchanged: the same calls allocate the same tensors in the same order (make() of shape-only
# values allocates a virtual tensor), only the value loops are skipped.
#
# Anything that needs the values themselves - item(), tolist(), bool() of a comparison, nonzero, boolean
# masks, a numpy function this file does not know - raises VIRTUAL_READ, the engine's own words.
# Mixed operands (a virtual and a real one) give shape-only values: the result is virtual, since its values
# cannot be known.
import numpy as np

VIRTUAL_READ = ("Cannot read the values of a virtual tensor: DeviceScope places, accounts and moves it, but "
                "it has no bytes")


def refuse(what=None):
    msg = VIRTUAL_READ if what is None else f"{VIRTUAL_READ} ({what} depends on its values)"
    raise RuntimeError(msg)


def _sample(x):
    """A one-element stand-in with x's dtype (and 0-dim when x is, for numpy's value-based casting)."""
    if isinstance(x, VirtualValues):
        return np.ones((), x.dtype) if not x.shape else np.ones(1, x.dtype)
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return x
        return np.ones(1, x.dtype)
    return x


def _shape(x):
    if isinstance(x, VirtualValues):
        return x.shape
    return np.shape(x)


def _quiet(fn, *args, **kwargs):
    with np.errstate(all="ignore"):
        return fn(*args, **kwargs)


def _norm_axis(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    return tuple(sorted(a % max(ndim, 1) if ndim else 0 for a in axis))


def _reduced_shape(shape, axis, keepdims):
    axes = _norm_axis(axis, len(shape))
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


class VirtualValues(np.lib.mixins.NDArrayOperatorsMixin):
    """The values of a virtual tensor: a shape and a dtype. numpy operations on it give VirtualValues."""
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)

    # ---------------------------------------------------------------- array-like attributes
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def T(self):  # noqa: N802
        return VirtualValues(self.shape[::-1], self.dtype)

    @property
    def flags(self):
        return _Flags

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self):
        return f"VirtualValues(shape={self.shape}, dtype={self.dtype})"

    # ---------------------------------------------------------------- value reads refused
    def __array__(self, dtype=None):
        refuse()

    def __bool__(self):
        refuse("a truth value")

    def __float__(self):
        refuse("a Python number")

    def __int__(self):
        refuse("a Python number")

    def __index__(self):
        refuse("an index")

    def __iter__(self):
        refuse("iterating over its elements")

    def item(self, *args):
        refuse("item()")

    def tolist(self):
        refuse("tolist()")

    # ---------------------------------------------------------------- shape methods
    def astype(self, dtype, copy=True, **_):
        return VirtualValues(self.shape, dtype)

    def copy(self, order=None):
        return VirtualValues(self.shape, self.dtype)

    def view(self, dtype=None):
        if dtype is None:
            return self.copy()
        return VirtualValues(self.shape[:-1] + (self.shape[-1] * self.dtype.itemsize // np.dtype(dtype).itemsize,)
                             if self.shape else self.shape, dtype)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return VirtualValues(_resolve_reshape(self.size, shape), self.dtype)

    def ravel(self, order="C"):
        return VirtualValues((self.size,), self.dtype)

    flatten = ravel

    def transpose(self, *axes):
        if not axes or axes == (None,):
            return self.T
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return VirtualValues(tuple(self.shape[a] for a in axes), self.dtype)

    def squeeze(self, axis=None):
        return np.squeeze(self, axis)

    def sum(self, axis=None, dtype=None, keepdims=False, **_):
        return np.sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, keepdims=False, **_):
        return np.mean(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def max(self, axis=None, keepdims=False, **_):
        return np.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False, **_):
        return np.min(self, axis=axis, keepdims=keepdims)

    def fill(self, value):
        return None

    def __getitem__(self, key):
        return VirtualValues(_indexed_shape(self.shape, key), self.dtype)

    def __setitem__(self, key, value):
        _indexed_shape(self.shape, key)  # (writing into shape-only values stores nothing)

    # ---------------------------------------------------------------- numpy protocols
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.pop("out", None)
        if out is not None:
            for o in out:
                if not isinstance(o, VirtualValues):
                    refuse("writing shape-only values into a real array")
        if method == "__call__" and ufunc is np.matmul:
            vals = (VirtualValues(_matmul_shape(*inputs), np.result_type(*map(_sample, inputs))),)
        elif method == "__call__":
            shape = np.broadcast_shapes(*(_shape(x) for x in inputs))
            kwargs.pop("where", None)
            r = _quiet(ufunc, *(_sample(x) for x in inputs), **kwargs)
            results = r if isinstance(r, tuple) else (r,)
            vals = tuple(VirtualValues(shape, np.asarray(x).dtype) for x in results)
        elif method in ("reduce", "accumulate") and len(inputs) == 1:
            x = inputs[0]
            axis = kwargs.get("axis", 0)
            dtype = _quiet(ufunc.reduce, np.ones(1, x.dtype), dtype=kwargs.get("dtype")).dtype
            shape = x.shape if method == "accumulate" else _reduced_shape(x.shape, axis, kwargs.get("keepdims", False))
            vals = (VirtualValues(shape, dtype),)
        elif method == "at":
            return None  # scatter into shape-only values: nothing stored
        else:
            refuse(f"numpy's {ufunc.__name__}.{method}")
        if out is not None:
            return out if len(out) > 1 else out[0]
        return vals if len(vals) > 1 else vals[0]

    def __array_function__(self, func, types, args, kwargs):
        rule = _FUNCTIONS.get(func)
        if rule is None:
            refuse(f"numpy's {func.__name__}")
        return rule(*args, **kwargs)


class _Flags:
    c_contiguous = True
    f_contiguous = False
    writeable = True


def _dtype_of(x):
    return x.dtype if isinstance(x, (VirtualValues, np.ndarray)) else np.asarray(x).dtype


def _resolve_reshape(size, shape):
    shape = [int(s) for s in shape]
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        shape[shape.index(-1)] = size // known if known else 0
    return tuple(shape)


def _indexed_shape(shape, key):
    """numpy's result shape of x[key] for basic indexing (ints, slices, None, Ellipsis) and integer index
    arrays (real or shape-only); boolean masks select by value and are refused."""
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, VirtualValues) and k.dtype == np.bool_:
            refuse("a boolean mask")
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            key = _expand_bool(key)
            break
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if Ellipsis in [k for k in key if not isinstance(k, (np.ndarray, VirtualValues, list))]:
        i = next(i for i, k in enumerate(key) if k is Ellipsis and not isinstance(k, (np.ndarray, list)))
        key = key[:i] + (slice(None),) * (len(shape) - n_real) + key[i + 1:]
    else:
        key = key + (slice(None),) * (len(shape) - n_real)
    adv = [i for i, k in enumerate(key) if _is_array_index(k) or (isinstance(k, (int, np.integer)) and
                                                                     any(_is_array_index(j) for j in key))]
    adv_shape = np.broadcast_shapes(*(_shape(key[i]) if _is_array_index(key[i]) else () for i in adv)) if adv else ()
    out, dim, placed = [], 0, False
    contiguous = not adv or adv == list(range(adv[0], adv[-1] + 1))
    for i, k in enumerate(key):
        if k is None:
            out.append(1)
            continue
        n = shape[dim]
        dim += 1
        if i in adv:
            if contiguous and not placed:
                out.extend(adv_shape)
                placed = True
            continue
        if isinstance(k, slice):
            out.append(len(range(*k.indices(n))))
        elif isinstance(k, (int, np.integer)):
            continue
        else:
            refuse(f"indexing with {type(k).__name__}")
    if adv and not contiguous:
        out = list(adv_shape) + out
    return tuple(out)


def _is_array_index(k):
    return isinstance(k, (np.ndarray, VirtualValues, list))


def _expand_bool(key):
    out = []
    for k in key:
        if isinstance(k, np.ndarray) and k.dtype == np.bool_:
            out.extend(np.nonzero(k))
        else:
            out.append(k)
    return tuple(out)


# ------------------------------------------------------------------------- numpy functions: shape rules
def _reduction(func):
    def rule(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        kw = {"dtype": dtype} if dtype is not None else {}
        if func in (np.argmax, np.argmin):
            rdt = np.dtype(np.int64)
        else:
            rdt = _quiet(func, np.ones(1, _dtype_of(a)), **kw, **({k: v for k, v in kwargs.items()
                                                                     if k in ("ddof",)})).dtype
        return VirtualValues(_reduced_shape(_shape(a), axis, keepdims), rdt)
    return rule


def _elementwise_fn(func):
    def rule(*args, **kwargs):
        shapes = [_shape(a) for a in args if isinstance(a, (VirtualValues, np.ndarray))]
        r = _quiet(func, *(_sample(a) for a in args), **kwargs)
        return VirtualValues(np.broadcast_shapes(*shapes) if shapes else (), np.asarray(r).dtype)
    return rule


def _where(cond, x=None, y=None):
    if x is None:
        refuse("nonzero")
    shape = np.broadcast_shapes(_shape(cond), _shape(x), _shape(y))
    return VirtualValues(shape, np.result_type(_sample(x), _sample(y)))


def _same(a, *args, **kwargs):
    return VirtualValues(_shape(a), _dtype_of(a))


def _expand_dims(a, axis):
    shape = list(_shape(a))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = len(shape) + len(axes)
    for ax in sorted(x % n for x in axes):
        shape.insert(ax, 1)
    return VirtualValues(shape, _dtype_of(a))


def _squeeze(a, axis=None):
    shape = _shape(a)
    if axis is None:
        return VirtualValues(tuple(s for s in shape if s != 1), _dtype_of(a))
    axes = _norm_axis(axis, len(shape))
    return VirtualValues(tuple(s for i, s in enumerate(shape) if i not in axes), _dtype_of(a))


def _broadcast_to(a, shape, subok=False):
    return VirtualValues(tuple(shape), _dtype_of(a))


def _reshape(a, newshape, order="C"):
    if isinstance(a, VirtualValues):
        return a.reshape(newshape)
    return VirtualValues(_resolve_reshape(int(np.prod(_shape(a))), tuple(np.atleast_1d(newshape))), _dtype_of(a))


def _transpose(a, axes=None):
    return a.transpose(axes) if axes is not None else a.T


def _moveaxis(a, source, destination):
    order = [n for n in range(a.ndim) if n not in _norm_axis(source, a.ndim)]
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    for d, s in sorted(zip((x % a.ndim for x in dst), (x % a.ndim for x in src))):
        order.insert(d, s)
    return a.transpose(order)


def _swapaxes(a, axis1, axis2):
    order = list(range(a.ndim))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return a.transpose(order)


def _matmul_shape(a, b):
    sa, sb = _shape(a), _shape(b)
    if len(sa) == 1 and len(sb) == 1:
        return ()
    if len(sa) == 1:
        return tuple(np.broadcast_shapes(sb[:-2])) + (sb[-1],)
    if len(sb) == 1:
        return tuple(sa[:-1])
    return tuple(np.broadcast_shapes(sa[:-2], sb[:-2])) + (sa[-2], sb[-1])


def _concatenate(arrays, axis=0, out=None, dtype=None, **_):
    arrays = list(arrays)
    shape = list(_shape(arrays[0]))
    if axis is None:
        return VirtualValues((sum(int(np.prod(_shape(a))) for a in arrays),), np.result_type(*map(_sample, arrays)))
    ax = axis % len(shape)
    shape[ax] = sum(_shape(a)[ax] for a in arrays)
    return VirtualValues(shape, dtype or np.result_type(*map(_sample, arrays)))


def _stack(arrays, axis=0, out=None, **_):
    arrays = list(arrays)
    shape = list(_shape(arrays[0]))
    shape.insert(axis % (len(shape) + 1), len(arrays))
    return VirtualValues(shape, np.result_type(*map(_sample, arrays)))


def _take(a, indices, axis=None, **_):
    if axis is None:
        return VirtualValues(_shape(indices), _dtype_of(a))
    s = _shape(a)
    ax = axis % len(s)
    return VirtualValues(s[:ax] + tuple(_shape(indices)) + s[ax + 1:], _dtype_of(a))


def _take_along_axis(a, indices, axis):
    return VirtualValues(np.broadcast_shapes(_shape(a)[:0] + _shape(indices)), _dtype_of(a))


def _einsum(subscripts, *operands, **_):
    inputs, output = subscripts.replace(" ", "").split("->")
    sizes = {}
    for spec, op in zip(inputs.split(","), operands):
        for ch, n in zip(spec, _shape(op)):
            sizes[ch] = max(sizes.get(ch, 1), n)
    return VirtualValues(tuple(sizes[ch] for ch in output), np.result_type(*map(_sample, operands)))


def _ascontiguous(a, dtype=None, **_):
    return VirtualValues(_shape(a), dtype or _dtype_of(a))


def _flip(a, axis=None):
    return VirtualValues(_shape(a), _dtype_of(a))


def _shape_fn(a):
    return _shape(a)


def _broadcast_arrays(*args, **_):
    shape = np.broadcast_shapes(*(_shape(a) for a in args))
    return [VirtualValues(shape, _dtype_of(a)) for a in args]


def _full_like(a, fill_value, dtype=None, **_):
    return VirtualValues(_shape(a), dtype or _dtype_of(a))


def _put_along_axis(arr, indices, values, axis):
    return None


def _copyto(dst, src, **_):
    return None


_FUNCTIONS = {
    np.sum: _reduction(np.sum), np.mean: _reduction(np.mean), np.prod: _reduction(np.prod),
    np.max: _reduction(np.max), np.min: _reduction(np.min), np.amax: _reduction(np.amax),
    np.amin: _reduction(np.amin), np.any: _reduction(np.any), np.all: _reduction(np.all),
    np.var: _reduction(np.var), np.std: _reduction(np.std), np.nanmean: _reduction(np.nanmean),
    np.nansum: _reduction(np.nansum), np.argmax: _reduction(np.argmax), np.argmin: _reduction(np.argmin),
    np.where: _where, np.clip: _elementwise_fn(np.clip), np.round: _elementwise_fn(np.round),
    np.nan_to_num: _elementwise_fn(np.nan_to_num), np.isclose: _elementwise_fn(np.isclose),
    np.expand_dims: _expand_dims, np.squeeze: _squeeze, np.broadcast_to: _broadcast_to, np.reshape: _reshape,
    np.transpose: _transpose, np.moveaxis: _moveaxis, np.swapaxes: _swapaxes,
    np.matmul: lambda a, b, **_: VirtualValues(_matmul_shape(a, b), np.result_type(_sample(a), _sample(b))),
    np.dot: lambda a, b, **_: VirtualValues(_matmul_shape(a, b), np.result_type(_sample(a), _sample(b))),
    np.concatenate: _concatenate, np.stack: _stack, np.take: _take, np.take_along_axis: _take_along_axis,
    np.einsum: _einsum, np.tril: _same, np.triu: _same, np.sort: _same,
    np.argsort: lambda a, axis=-1, kind=None, order=None: VirtualValues(_shape(a), np.int64),
    np.ascontiguousarray: _ascontiguous, np.flip: _flip, np.shape: _shape_fn,
    np.broadcast_arrays: _broadcast_arrays, np.full_like: _full_like, np.zeros_like: _full_like,
    np.ones_like: lambda a, dtype=None, **_: _full_like(a, 1, dtype), np.empty_like: lambda a, dtype=None, **_:
    _full_like(a, 0, dtype), np.put_along_axis: _put_along_axis, np.copyto: _copyto,
    np.cumsum: lambda a, axis=None, dtype=None, **_: VirtualValues(_shape(a) if axis is not None else
                                                                   (int(np.prod(_shape(a))),), dtype or _dtype_of(a)),
    np.cumprod: lambda a, axis=None, dtype=None, **_: VirtualValues(_shape(a) if axis is not None else
                                                                    (int(np.prod(_shape(a))),), dtype or _dtype_of(a)),
    np.ravel: lambda a, order="C": VirtualValues((int(np.prod(_shape(a))),), _dtype_of(a)),
    np.copy: lambda a, **_: VirtualValues(_shape(a), _dtype_of(a)),
    np.ndim: lambda a: len(_shape(a)), np.size: lambda a, axis=None: int(np.prod(_shape(a))),
    np.result_type: lambda *a: np.result_type(*map(_sample, a)),
}
