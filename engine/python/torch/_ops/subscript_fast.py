# The common subscripts, computed directly when autograd records nothing: a tuple of ints, slices, None and
# Ellipsis as one as_strided; one int64 index or one bool mask over a row-major tensor as one numpy gather or
# scatter. Each returns None wherever the case is not plainly valid (an error to report, another device, an
# empty or non-row-major layout, ...): subscript.py's general path then does it, with PyTorch's checks and
# messages. Results are the general path's exactly; only the work differs.
import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from . import _core as C
from . import layout

_INT64, _BOOL = D.int64._code, D.bool._code


def _row_major(impl):
    return 0 not in impl.sizes and tuple(impl.strides) == layout.contiguous_strides(impl.sizes)


def basic_view(x, items):
    """x[items] for ints (in range), slices with positive steps, None and one Ellipsis; else None."""
    impl = x._impl
    sizes, strides = impl.sizes, impl.strides
    nd = len(sizes)
    specified = 0
    for it in items:
        if it is None or it is Ellipsis:
            continue
        if type(it) is int or type(it) is slice:
            specified += 1
        else:
            return None
    if specified > nd or items.count(Ellipsis) > 1:
        return None
    out_sizes, out_strides, offset, d = [], [], impl.offset, 0
    for it in items:
        if it is None:
            out_sizes.append(1)
            out_strides.append(sizes[d] * strides[d] if d < nd else 1)
        elif it is Ellipsis:
            n = nd - specified
            out_sizes.extend(sizes[d:d + n])
            out_strides.extend(strides[d:d + n])
            d += n
        elif type(it) is int:
            size = sizes[d]
            if not -size <= it < size:
                return None
            offset += (it + size if it < 0 else it) * strides[d]
            d += 1
        else:
            step = 1 if it.step is None else it.step
            if type(step) is not int or step <= 0 or not (it.start is None or type(it.start) is int) or \
                    not (it.stop is None or type(it.stop) is int):
                return None
            start, stop, _ = it.indices(sizes[d])
            out_sizes.append(max(0, (stop - start + step - 1) // step))
            out_strides.append(strides[d] * step)
            offset += start * strides[d]
            d += 1
    out_sizes.extend(sizes[d:])
    out_strides.extend(strides[d:])
    out = C.wrap(_E.as_strided(impl, tuple(out_sizes), tuple(out_strides), offset))
    out._base = x._base if x._base is not None else x
    return out


def _single(x, t):
    """(kind, numpy index) for one int64 index in range or one bool mask of x's leading shape, on x's
    device or the host, over a row-major x; else None."""
    ti = t._impl
    if ti.dim == 0 or not _row_major(x._impl) or not _row_major(ti) or ti.is_virtual or x._impl.is_virtual:
        return None
    if ti.device_key != -1 and ti.device_key != x._impl.device_key:
        return None
    code = ti.dtype_code
    if code == _BOOL:
        m = C.read(t)
        return m if m.shape == tuple(x._impl.sizes[:m.ndim]) else None
    if code == _INT64 and x._impl.dim:
        iv = C.read(t)
        n = x._impl.sizes[0]
        return iv if C.shape_only(iv) or iv.max() < n and iv.min() >= -n else None
    return None


def gather(x, t):
    """x[t] for one index tensor (see _single); else None."""
    npi = _single(x, t)
    if npi is None:
        return None
    res = C.read(x)[npi]
    if res.size == 0:
        return None
    return C.make(res, C.dtype_of(x), C.device_of(x))


def scatter(x, t, value):
    """x[t] = value for one index tensor (see _single) and a number, or a tensor of x's dtype that broadcasts
    to the indexed shape and shares no memory with x; True when done."""
    npi = _single(x, t)
    if npi is None:
        return False
    target_shape = (int(np.count_nonzero(npi)),) if npi.dtype == np.bool_ else npi.shape
    target_shape += tuple(x._impl.sizes[npi.ndim if npi.dtype == np.bool_ else 1:])
    if isinstance(value, C.Tensor):
        vi = value._impl
        if vi.dtype_code != x._impl.dtype_code or vi.is_virtual or vi.same_storage(x._impl) or \
                (vi.device_key != -1 and vi.device_key != x._impl.device_key):
            return False
        v = C.read(value)
        vshape = v.shape
        while vshape and vshape[0] == 1 and len(vshape) > len(target_shape):
            vshape = vshape[1:]  # (leading 1s are stripped before index_put_)
        if len(vshape) > len(target_shape) or any(a != b and a != 1 for a, b in zip(reversed(vshape),
                                                                                  reversed(target_shape))):
            return False  # not expandable to the indexed shape: the general path reports it
        v = v.reshape(vshape)
    else:
        v = np.asarray(value)
    if 0 in target_shape or x._impl.dtype_code == 3:  # (bfloat16 is stored as raw bits: the general path)
        return False
    C.check_inplace(x)
    view, is_copy = _E.numpy_view(x._impl)
    view[npi] = (v != 0) if view.dtype == np.bool_ else v.astype(view.dtype, copy=False)
    if is_copy:
        _E.upload(x._impl, view)
    x._impl.bump_version()
    return True
