# Tensor subscripts, t[index] and t[index] = value, the way PyTorch's Python binding does them
# (torch/csrc/autograd/python_variable_indexing.cpp with ATen/TensorIndexing.h): the items are taken left to
# right; ints, slices, None and bools apply one view op each (select, slice, unsqueeze), tensors and
# sequences are recorded as advanced indices and applied last by `index` / `index_put_`
# (ATen/native/TensorAdvancedIndexing.cpp: make_info, AdvancedIndex), whose results TensorIterator lays out.
# So a subscript without tensors is a view, one with tensors a copy, and every error is PyTorch's.
# Assignment, t[index] = value, is subscript_assign.py, built on the steps here.
import operator

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from ..autograd import graph
from . import _core as C
from . import layout
from . import shape as S
from . import subscript_fast as F
from .out import warn_at_caller

_PY_SSIZE_MAX = 2 ** 63 - 1
_INDEX_CODES = (D.int64._code, D.int32._code, D.uint8._code, D.bool._code)
_MASK_CODES = (D.uint8._code, D.bool._code)  # (dtype codes: comparing dtype objects calls their __eq__)


def _is_int(v):
    """THPUtils_checkLong: a Python or numpy integer, not a bool."""
    return (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)))


def _is_sequence(v):
    # PySequence_Check for what reaches here (tensors are taken before sequences)
    return isinstance(v, (list, tuple, range, np.ndarray, str, bytes))


# ----------------------------------------------------------------------------- view steps
def _plain_view(x, sizes, strides, offset):
    """The view op's result without its autograd node (nothing records it): one as_strided."""
    out = C.wrap(_E.as_strided(x._impl, tuple(sizes), tuple(strides), offset))
    out._base = x._base if x._base is not None else x
    return out


def _select(x, dim, index, real_dim):
    """applySelect: an int index (real_dim: the item's position in the subscript, as ATen reports it)."""
    sizes = x._impl.sizes
    if not sizes:
        if index == 0 and dim == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                             "in C++ to convert a 0-dim tensor to a number")
        size = 0  # (ATen reads a size the 0-dim tensor does not have; what it reports is 0)
    else:
        size = sizes[dim]
    if not (size >= -index and size > index):
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {size}")
    if C.needs_grad(x):
        return S.select(x, dim, index)
    impl = x._impl
    sizes, strides = list(sizes), list(impl.strides)
    offset = impl.offset + (index + size if index < 0 else index) * strides[dim]
    del sizes[dim], strides[dim]
    return _plain_view(x, sizes, strides, offset)


def _unpack_slice(s):
    """PySlice_Unpack: (start, stop, step) as Py_ssize_t, the bounds of a missing start/stop at the extremes."""
    def idx(v, default):
        if v is None:
            return default
        try:
            v = operator.index(v)
        except TypeError:
            raise TypeError("slice indices must be integers or None or have an __index__ method") from None
        return max(-_PY_SSIZE_MAX - 1, min(_PY_SSIZE_MAX, v))
    step = idx(s.step, 1)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    start = idx(s.start, _PY_SSIZE_MAX if step < 0 else 0)
    stop = idx(s.stop, -_PY_SSIZE_MAX - 1 if step < 0 else _PY_SSIZE_MAX)
    return start, stop, step


def _slice(x, dim, s, optimize):
    """applySlice then at::slice (a full explicit slice is x itself when optimize)."""
    start, stop, step = _unpack_slice(s)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    if not x._impl.sizes:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if optimize and start == 0 and step == 1 and stop == x._impl.sizes[dim]:
        return x
    if C.needs_grad(x):
        return S.slice_dim(x, dim, start, stop, step)
    impl = x._impl
    sizes, strides = list(impl.sizes), list(impl.strides)
    start, stop, _ = slice(start, stop, step).indices(sizes[dim])
    sizes[dim] = max(0, (stop - start + step - 1) // step)
    offset = impl.offset + start * strides[dim]  # (even for an empty slice, as ATen's slice does)
    strides[dim] *= step
    return _plain_view(x, sizes, strides, offset)


def _unsqueeze(x, dim):
    if C.needs_grad(x):
        return S.unsqueeze(x, dim)
    impl = x._impl
    sizes, strides = list(impl.sizes), list(impl.strides)
    strides.insert(dim, sizes[dim] * strides[dim] if dim < len(sizes) else 1)
    sizes.insert(dim, 1)
    return _plain_view(x, sizes, strides, impl.offset)


def _bool_index(value):
    """boolToIndexingTensor: True indexes a new size-1 dim as 0:, False as empty."""
    return C.make(np.zeros(1 if value else 0, dtype=np.int64), D.int64, None)


def _sequence_index(seq):
    """indexing_tensor_from_data: a list of bools (or uint8) stays a mask, anything else becomes int64."""
    from .._factories import _infer
    if isinstance(seq, np.ndarray):
        values, dtype = seq, D.from_numpy_dtype(seq.dtype)
    else:
        values, dtype = _infer(list(seq) if isinstance(seq, range) else seq)  # a range is a sequence of ints
    if dtype not in (D.bool, D.uint8):
        dtype = D.int64
    return C.make(np.asarray(values).astype(dtype._np), dtype, None)


def _wrap_tuple(index):
    """wrapTuple: a tuple as is; a short sequence holding a tensor, sequence, slice, Ellipsis or None as a
    tuple (NumPy's heuristic); anything else as a tuple of one."""
    if isinstance(index, tuple):
        return index
    if _is_sequence(index) and not isinstance(index, (str, bytes, np.ndarray)) and len(index) < 32:
        for obj in index:
            if isinstance(obj, C.Tensor) or _is_sequence(obj) or isinstance(obj, slice) or obj is Ellipsis \
                    or obj is None:
                return tuple(index)
    return (index,)


def _count_specified(items):
    count = 0
    for obj in items:
        if isinstance(obj, C.Tensor):
            count += obj._impl.dim if obj._impl.dtype_code in _MASK_CODES else 1
        elif obj is not None and obj is not Ellipsis and obj is not True and obj is not False:
            count += 1
    return count


def _apply_slicing(x, items):
    """applySlicing: the view ops of the items, left to right; returns the view and the advanced indices
    (a list by dim of x's view, None where a dim is not indexed by a tensor)."""
    nd = x._impl.dim
    specified = _count_specified(items)
    if specified > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    result, dim, indices = x, 0, []

    def record(t):
        nonlocal dim
        indices.extend([None] * (dim + 1 - len(indices)))
        indices[dim] = t
        dim += 1

    for i, obj in enumerate(items):
        if _is_int(obj):
            result = _select(result, dim, int(obj), i)
        elif isinstance(obj, slice):
            result = _slice(result, dim, obj, optimize=True)
            dim += 1
        elif obj is Ellipsis:
            dim += nd - specified
        elif obj is None:
            result = _unsqueeze(result, dim)
            dim += 1
        elif obj is True or obj is False:
            result = _unsqueeze(result, dim)
            record(_bool_index(obj))
        elif isinstance(obj, C.Tensor):
            dt = C.dtype_of(obj)
            if obj._impl.dim == 0 and not dt.is_floating_point:
                if obj._impl.dtype_code in _MASK_CODES:
                    result = _unsqueeze(result, dim)
                    record(_bool_index(bool(obj.item())))
                else:
                    result = _select(result, dim, int(obj.item()), i)
            else:
                record(obj)
        elif _is_sequence(obj):
            record(_sequence_index(obj))
        else:
            try:
                v = operator.index(obj)
            except TypeError:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                                 f"are valid indices (got {type(obj).__name__})") from None
            result = _select(result, dim, v, i)
    return result, indices


# ----------------------------------------------------------------------------- advanced indexing
class _Info:
    """make_info + AdvancedIndex: x's dims permuted so the indexed ones are adjacent (perm), the index
    values broadcast (arrays), and the restrided source `src_sizes/src_strides` whose shape is the result's."""
    __slots__ = ("perm", "before", "after", "arrays", "shape", "indexed_sizes", "src_sizes", "src_strides", "defined",
                 "row_major")


def _make_info(x, indices, check_devices=True):
    impl = x._impl
    for t in indices:
        if t is not None:
            if t._impl.dtype_code not in _INDEX_CODES:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            k = t._impl.device_key
            if check_devices and k != -1 and k != impl.device_key:
                raise RuntimeError("indices should be either on cpu or on the same device as the indexed tensor "
                                   f"({C.device_of(x)})")
    sizes, strides = list(impl.sizes), list(impl.strides)
    # expandTensors: a mask becomes the columns of its nonzero(), checked against the dims it covers
    expanded = []  # (values, sizes, strides) or None
    for t in indices:
        if t is None:
            expanded.append(None)
            continue
        code = t._impl.dtype_code
        if code in _MASK_CODES:
            if code == D.uint8._code:
                warn_at_caller("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                               "instead.")
            m = C.read(t)
            for j in range(m.ndim):
                src = len(expanded) + j
                if src >= len(sizes):
                    raise IndexError(f"Dimension out of range (expected to be in range of [{-len(sizes)}, "
                                     f"{len(sizes) - 1}], but got {src})")
                if m.shape[j] != sizes[src]:
                    raise IndexError(f"The shape of the mask {list(m.shape)} at index {j} does not match the shape "
                                     f"of the indexed tensor {sizes} at index {src}")
            for col in np.nonzero(m):
                expanded.append((col.astype(np.int64), (col.size,), (1,)))
        else:
            st = tuple(t._impl.strides) if code == D.int64._code else layout.preserved_strides(t._impl.sizes,
                                                                                              t._impl.strides)
            expanded.append((C.read(t).astype(np.int64, copy=False), tuple(t._impl.sizes), st))
    defined = [e for e in expanded if e is not None]
    shape = defined[0][1]
    if any(e[1] != shape for e in defined):
        try:
            shape = tuple(np.broadcast_shapes(*[e[1] for e in defined]))
        except ValueError:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes " +
                             ", ".join(S._fmt(e[1]) for e in defined)) from None
    expanded += [None] * (len(sizes) - len(expanded))
    pos = [i for i, e in enumerate(expanded) if e is not None]
    perm = list(range(len(sizes)))
    if pos[-1] - pos[0] + 1 != len(pos):  # transposeToFront: the indexed dims first, in order
        perm = pos + [i for i in perm if i not in pos]
        expanded = [expanded[i] for i in perm]
        sizes, strides = [sizes[i] for i in perm], [strides[i] for i in perm]
    before = next(i for i, e in enumerate(expanded) if e is not None)
    n_indexed = len(defined)
    after = len(sizes) - before - n_indexed
    info = _Info()
    info.perm, info.before, info.shape = perm, before, shape
    info.indexed_sizes = [sizes[i] for i, e in enumerate(expanded) if e is not None]
    if 0 in info.indexed_sizes and 0 not in shape:
        raise IndexError("index is out of bounds for dimension with size 0")
    info.src_sizes = tuple(sizes[:before]) + shape + tuple(sizes[before + n_indexed:])
    info.src_strides = tuple(strides[:before]) + (0,) * len(shape) + tuple(strides[before + n_indexed:])
    info.arrays = [values if isz == shape else np.broadcast_to(values, shape) for values, isz, _ in defined]
    info.defined, info.after = defined, after
    # row-major x and indices always give a row-major result (as make_pointwise's shortcut; not when empty)
    info.row_major = 0 not in info.src_sizes and tuple(impl.strides) == layout.contiguous_strides(impl.sizes) and \
        all(ist == layout.contiguous_strides(isz) for _, isz, ist in defined)
    return info


def _order_strides(info, itemsize):
    """TensorIterator's layout of the result (also its iteration order) over the restrided source and the
    indices, each reshaped to (1,)*before + shape + (1,)*after (reshape_indexer)."""
    if info.row_major:
        return layout.contiguous_strides(info.src_sizes)
    shape = info.shape
    full = (1,) * info.before + shape + (1,) * info.after
    layouts = [(info.src_sizes, info.src_strides, itemsize)]
    for _, isz, ist in info.defined:
        bst = (0,) * (len(shape) - len(isz)) + tuple(0 if s == 1 and n != 1 else t
                                                    for s, t, n in zip(isz, ist, shape[len(shape) - len(isz):]))
        rst = S.compute_stride(list(shape), list(bst), list(full)) or list(layout.contiguous_strides(full))
        layouts.append((full, tuple(rst), 8))
    return layout.pointwise_strides(info.src_sizes, layouts)


def _check_bounds(info, itemsize):
    """The kernel's check, element by element in TensorIterator's order (the output's memory order), each
    index in turn: the first bad value is reported with its index's position among the indices."""
    if 0 in info.src_sizes or C.shape_only(*info.arrays) or all(a.size == 0 or (a.max() < n and a.min() >= -n)
                                  for a, n in zip(info.arrays, info.indexed_sizes)):
        return
    order_strides = _order_strides(info, itemsize)
    bad = [(a >= n) | (a < -n) for a, n in zip(info.arrays, info.indexed_sizes)]
    key = np.zeros(info.shape, dtype=np.int64)
    for d, s in enumerate(order_strides[info.before:info.before + len(info.shape)]):
        key = key + np.arange(info.shape[d]).reshape((-1,) + (1,) * (len(info.shape) - d - 1)) * s
    any_bad = np.zeros(info.shape, dtype=bool)
    for b in bad:
        any_bad |= b
    first = np.unravel_index(int(np.argmin(np.where(any_bad, key, np.iinfo(np.int64).max))), info.shape)
    for j, b in enumerate(bad):
        if b[first]:
            raise IndexError(f"index {int(info.arrays[j][first])} is out of bounds for dimension {j} with size "
                             f"{info.indexed_sizes[j]}")


def _np_index(info):
    return (slice(None),) * info.before + tuple(info.arrays)


def index(x, indices, check_devices=True):
    """at::index: the gathered copy, laid out by TensorIterator over the restrided source and the indices."""
    info = _make_info(x, indices, check_devices)
    itemsize = C.dtype_of(x).itemsize
    _check_bounds(info, itemsize)
    strides = _order_strides(info, itemsize)
    npi = _np_index(info)
    dt, dev = C.dtype_of(x), C.device_of(x)
    if 0 in info.src_sizes:  # (numpy would index an empty array and warn about indices nothing reads)
        res = np.empty(info.src_sizes, dtype=C.compute_dtype(dt))
    else:
        xv = C.read(x)
        res = (xv if info.perm == list(range(xv.ndim)) else np.transpose(xv, info.perm))[npi]
    if tuple(strides) == layout.contiguous_strides(info.src_sizes):
        out = C.make(res, dt, dev)
    else:
        out = C.make_strided(res, dt, dev, strides)
    if dt.is_floating_point and C.needs_grad(x):
        # index saves the index tensors and self's sizes, not self
        shape, perm = tuple(x._impl.sizes), info.perm

        def fn(gs):
            gx = C.host_zeros(shape, np.float64, gs[0])
            np.add.at(np.transpose(gx, perm), npi, C.read(gs[0]))
            return (graph.linear_grad(C.make(gx, dt, dev), gs[0], "IndexPutBackward0",
                                      lambda gg: index(gg, indices)),)
        graph.attach("IndexBackward0", [out], [x], fn, saved={"indices": tuple(indices), "self_sym_sizes": shape})
    return out


def getitem(x, index_, check_devices=True):
    """THPVariable_getitem (check_devices=False: the index tensors may be on another device, for positions)."""
    if index_ is None:
        return _unsqueeze(x, 0)
    if index_ is Ellipsis:
        return S.alias(x)
    if _is_int(index_):
        return _select(x, 0, int(index_), 0)
    if isinstance(index_, slice):
        return _slice(x, 0, index_, optimize=False)
    if index_ is True or index_ is False:
        r = _unsqueeze(x, 0)
        return index(r, [_bool_index(index_)])
    if not C.needs_grad(x):  # the common cases, directly (None: the general path below)
        r = F.basic_view(x, index_) if isinstance(index_, tuple) else \
            F.gather(x, index_) if isinstance(index_, C.Tensor) else None
        if r is not None:
            return r
    sliced, indices = _apply_slicing(x, _wrap_tuple(index_))
    if not indices:
        return S.alias(sliced) if sliced is x else sliced
    return index(sliced, indices, check_devices)
