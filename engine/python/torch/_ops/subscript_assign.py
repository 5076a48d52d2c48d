# Tensor subscript assignment, t[index] = value (python_variable_indexing.cpp's THPVariable_setitem): the items
# before the advanced indices are applied as views (subscript.py's steps), then the value is copied in place, or
# written through index_put_ where tensors index (ATen/native/TensorAdvancedIndexing.cpp), with PyTorch's checks,
# overlap errors and autograd nodes.
import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from ..autograd import graph
from . import _core as C
from . import overlap
from . import scalar_check
from . import shape as S
from . import subscript_fast as F
from .out import scalar_name, warn_at_caller
from .subscript import (_apply_slicing, _check_bounds, _is_int, _make_info, _np_index, _select, _slice,
                        _unsqueeze, _wrap_tuple, getitem)


def _value(x, value):
    """valueToTensor's checks: a tensor as is, a number as a Python int or float (PyTorch makes it a 0-dim
    tensor of x's dtype; here that tensor is made only where one is needed: _value_tensor)."""
    if isinstance(value, C.Tensor):
        return value
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if _is_int(value) or isinstance(value, (float, np.floating)):  # scalarToTensor's fill: checked_convert
        return scalar_check.check(int(value) if _is_int(value) else float(value), C.dtype_of(x))
    cuda = ".cuda" if x._impl.device_key >= 0 else ""
    raise TypeError(f"can't assign a {type(value).__name__} to a torch{cuda}.{C.dtype_of(x)._legacy}")


def _value_tensor(x, value):
    """A number as the 0-dim tensor of x's dtype PyTorch makes of it (kept on the host: the same values)."""
    if isinstance(value, C.Tensor):
        return value
    return C.make(np.asarray(value).astype(C.compute_dtype(C.dtype_of(x))), C.dtype_of(x), None)


def _strip_leading_ones(sizes):
    sizes = list(sizes)
    while sizes and sizes[0] == 1:
        sizes.pop(0)
    return sizes


def _copy_to(dst, src, record_copy=True):
    """copy_to: the same shape copies, a host 0-dim value fills, anything else is expanded to dst first.
    Returns the op's node name: copy_ records its own (CopyBackwards) when record_copy, fill_ leaves it to the
    caller, which records the assignment's node (so neither writes history here)."""
    from ..autograd import grad_mode
    if not isinstance(src, C.Tensor):  # a number fills as the host 0-dim tensor of dst's dtype it stands for
        with grad_mode.no_grad():
            dst.fill_(src)
        return "FillBackward3"
    if src._impl.dim == 0 and src._impl.device_key == -1 and tuple(dst._impl.sizes) != tuple(src._impl.sizes):
        with grad_mode.no_grad():
            dst.fill_(src)
        return "FillBackward3"
    if tuple(dst._impl.sizes) != tuple(src._impl.sizes):
        src = S.expand(S.view(src, _strip_leading_ones(src._impl.sizes)), tuple(dst._impl.sizes))
    if record_copy:
        dst.copy_(src)
    else:
        with grad_mode.no_grad():
            dst.copy_(src)
    return "CopyBackwards"


def _full_overlap_or_partial(a, b):
    """get_overlap_status(a, b) is FULL or PARTIAL (assert_no_overlap refuses both)."""
    ia, ib = a._impl, b._impl
    if ia is ib:
        return True
    if ia.numel == 0 or ib.numel == 0 or not ia.same_storage(ib):
        return False
    if not (overlap.is_non_overlapping_and_dense(ia) and overlap.is_non_overlapping_and_dense(ib)):
        return False  # too hard to tell: allowed
    size_a, size_b = C.dtype_of(a).itemsize, C.dtype_of(b).itemsize
    a_begin, b_begin = ia.offset * size_a, ib.offset * size_b
    return a_begin < b_begin + ib.numel * size_b and b_begin < a_begin + ia.numel * size_a


def _write_indexed(x, perm, npi, values):
    """x's memory at numpy index npi of x permuted by perm = values (cast as a copy casts)."""
    if x._impl.dtype_code == 3:  # bfloat16 is stored as raw bits: write the whole tensor back
        full = np.array(C.read(x))
        np.transpose(full, perm)[npi] = values
        C.write(x, full)
        return
    view, is_copy = _E.numpy_view(x._impl)
    target = np.transpose(view, perm)
    if view.dtype == np.bool_:
        target[npi] = np.asarray(values) != 0
    else:
        target[npi] = np.asarray(values).astype(view.dtype, copy=False)
    if is_copy:
        _E.upload(x._impl, view)
    x._impl.bump_version()


def _masked_fill_mask(x, indices, value, value_on_host):
    """canDispatchToMaskedFill: one mask and a one-element host value make index_put_ a masked_fill_; the
    mask (unsqueezed to x's dims), or None."""
    if not value_on_host or (isinstance(value, C.Tensor) and value._impl.numel != 1):
        return None
    n, mask = 0, None
    for t in indices:
        if t is None:
            n += 1
            continue
        if C.dtype_of(t) not in (D.bool, D.uint8) or t._impl.device_key != x._impl.device_key or mask is not None:
            return None
        mask = t
        for j, s in enumerate(t._impl.sizes):
            if s != x._impl.sizes[n + j]:
                raise IndexError(f"The shape of the mask {list(t._impl.sizes)} at index {j} does not match the shape "
                                 f"of the indexed tensor {list(x._impl.sizes)} at index {n + j}")
        n += t._impl.dim
    if mask is None:
        return None
    m = C.read(mask).astype(bool)
    return m.reshape(m.shape + (1,) * (x._impl.dim - n))


def index_put_(x, indices, value, value_on_host=None):
    """at::index_put_ (accumulate=False) with PyTorch's checks in PyTorch's order."""
    impl = x._impl
    if len(indices) > impl.dim:
        raise IndexError(f"too many indices for tensor of dimension {impl.dim} (got {len(indices)})")
    C.check_inplace(x)
    number = not isinstance(value, C.Tensor)
    expanded = overlap.has_internal_overlap(impl)
    if expanded:
        warn_at_caller("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                       "performing this operation. This also applies to advanced indexing e.g. tensor[indices] = "
                       "tensor")
    on_host = (number or value._impl.device_key == -1) if value_on_host is None else value_on_host
    mask = _masked_fill_mask(x, indices, value, on_host)
    if mask is not None:
        if expanded:
            warn_at_caller("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                           "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
                           "scalar")
        v = _value_tensor(x, value) if number else value
        _write_indexed(x, list(range(impl.dim)), np.broadcast_to(mask, tuple(impl.sizes)), C.read(v).reshape(()))
        return x
    value = _value_tensor(x, value)
    if _full_overlap_or_partial(x, value) or any(t is not None and _full_overlap_or_partial(x, t) for t in indices):
        raise RuntimeError(overlap._PARTIAL)
    info = _make_info(x, indices)
    vs, ss = list(value._impl.sizes), list(info.src_sizes)
    if len(vs) > len(ss) or any(v != s and v != 1 for v, s in zip(reversed(vs), reversed(ss))):
        raise RuntimeError(f"shape mismatch: value tensor of shape {S._fmt(vs)} cannot be broadcast to indexing "
                           f"result of shape {S._fmt(ss)}")
    if C.dtype_of(value) is not C.dtype_of(x):
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{scalar_name(C.dtype_of(x))} for the destination and {scalar_name(C.dtype_of(value))} for "
                           "the source.")
    _check_bounds(info, C.dtype_of(x).itemsize)
    if 0 not in info.src_sizes:
        _write_indexed(x, info.perm, _np_index(info), np.broadcast_to(C.read(value), info.src_sizes))
    return x


def setitem(x, index_, value):
    """THPVariable_setitem; when autograd records it, x's history continues from a node on x."""
    is_number = not isinstance(value, C.Tensor)
    value = _value(x, value)
    need = C.needs_grad(x, value)
    if not need:  # the common cases, directly (when they do not apply: the general path below)
        if isinstance(index_, C.Tensor) and F.scatter(x, index_, value):
            return
        if isinstance(index_, tuple):
            dst = F.basic_view(x, index_)
            if dst is not None:
                _copy_to(dst, value)
                return
    name = _assign(x, index_, value, (x._impl.device_key == -1) if is_number else None)
    if need and name:
        _attach_assign_grad(x, index_, value, name)


def _assign(x, index_, value, on_host):
    """The write of x[index_] = value; the name of the node PyTorch records for it (None: nothing written).
    on_host: a number, made on x's device by PyTorch, counts as there for the masked_fill_ shortcut."""
    if index_ is False:
        return None
    if index_ is Ellipsis:
        dst = x
    elif index_ is None or index_ is True:
        dst = _unsqueeze(x, 0)
    elif _is_int(index_):
        dst = _select(x, 0, int(index_), 0)
    elif isinstance(index_, slice):
        dst = _slice(x, 0, index_, optimize=True)
    else:
        dst, indices = _apply_slicing(x, _wrap_tuple(index_))
        if indices:
            if isinstance(value, C.Tensor):
                stripped = _strip_leading_ones(value._impl.sizes)
                if len(stripped) != value._impl.dim:
                    value = S.view(value, stripped)
            index_put_(dst, indices, value, on_host)
            return "IndexPutBackward0" if dst is x else "CopySlices"
    op = _copy_to(dst, value, record_copy=dst is x)
    if dst is x:  # written directly: named after the op (copy_ has recorded itself)
        return None if op == "CopyBackwards" else op
    return "CopySlices"  # (a write through a view of x: PyTorch rebases x's history with CopySlices)


def _attach_assign_grad(x, index_, value, name):
    """x's node after an assignment: the places written get no gradient from x's past, a tensor value gets
    theirs (summed back to its shape). The places are found by indexing a tensor of x's element numbers."""
    from ..autograd import grad_mode
    with grad_mode.no_grad():
        numbers = C.make(np.arange(x._impl.numel, dtype=np.int64).reshape(tuple(x._impl.sizes)), D.int64, None)
        written = C.read(getitem(numbers, index_, check_devices=False)).astype(np.int64)
    xdt, xdev = C.dtype_of(x), C.device_of(x)
    vmeta = (tuple(value._impl.sizes), C.dtype_of(value), C.device_of(value)) if C.needs_grad(value) else None

    def fn(gs):
        g = C.as_array(C.read(gs[0]), np.float64).copy()
        flat = g.reshape(-1)
        gv = flat[written]
        flat[written] = 0
        out = [C.make(g, xdt, xdev)]
        if vmeta is not None:
            shape = vmeta[0]
            while gv.ndim > len(shape):
                gv = gv.sum(0)
            for d, n in enumerate(shape[len(shape) - gv.ndim:]):
                if n == 1 and gv.shape[d] != 1:
                    gv = gv.sum(d, keepdims=True)
            out.append(C.make(gv.reshape(shape), vmeta[1], vmeta[2]))
        else:
            out.append(None)
        return tuple(out)
    # two edges, the value's empty when it needs no gradient (a number is a wrapped tensor: copy_'s src)
    graph.attach(name, [x], [x, value if isinstance(value, C.Tensor) else None], fn)
