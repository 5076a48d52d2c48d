# masked_fill / masked_fill_ as ATen has them: the in-place op writes the value where the mask is set and
# allocates nothing; the out-of-place one is `self.expand(broadcast).clone(contiguous).masked_fill_(mask, value)`,
# one allocation. Autograd: MaskedFillBackward0 (a number as value) or MaskedFillBackward1 (a 0-dim tensor),
# saving the mask; self's gradient is grad.masked_fill(mask, 0) (summed back to self's shape when the
# out-of-place op broadcast it), the value tensor's grad.masked_select(mask).sum(). (An earlier version computed
# a `where` over a temporary value tensor: WhereBackward0 nodes, two extra allocations per call - every boolean
# attention mask went through it.)

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .._virtual_values import VirtualValues
from ..autograd import graph
from . import _core as C
from . import scalar_check

_FLOATS = (D.float32, D.float64)


def _check(x, mask, value):
    if C.dtype_of(mask) is not D.bool:
        from .out import TYPEMETA_NAMES  # ATen prints mask.dtype(), a TypeMeta: "long int", "float"
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{TYPEMETA_NAMES[C.dtype_of(mask)._code]}")
    if isinstance(value, C.Tensor):
        if value._impl.dim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._impl.dim} dimension(s).")
        if value._impl.device_key != -1 and value._impl.device_key != x._impl.device_key:
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{C.device_of(value)} and {C.device_of(x)}!")
    C.elementwise_device([x, mask])


def _check_value(x, value):
    """The kernel's value.to<scalar_t>(), after the shape checks (a tensor value through value.item(): its own
    type decides)."""
    fill = value
    if isinstance(value, C.Tensor):
        v = C.read(value)
        fill = None if C.shape_only(v) else v[()].item()
    if fill is not None:
        scalar_check.check(fill, C.dtype_of(x))


def _filled(x, mask, value, shape):
    """x's values (broadcast to `shape`) with `value` where the mask is set, in x's dtype; shape-only values
    when x or the mask has none."""
    xv, mv = C.read(x), C.read(mask)
    if C.shape_only(xv, mv) or (isinstance(value, C.Tensor) and C.shape_only(C.read(value))):
        return VirtualValues(tuple(shape), xv.dtype)
    fill = C.read(value)[()] if isinstance(value, C.Tensor) else value
    with C.fp_quiet():
        fill = np.asarray(fill).astype(xv.dtype)  # value.to<scalar_t>() (a float into an int tensor truncates)
    # np.where's values, made C-ordered (np.copyto broadcasts both): a transposed mask gave np.where an F-ordered
    # result, which C.make then wrote through its slow path (~10 us of a ~25 us call)
    out = np.empty(shape, xv.dtype)
    np.copyto(out, xv)
    np.copyto(out, fill, where=mv)
    return out


def _attach(result, x, mask, value, edges):
    """MaskedFillBackward0/1 on `result` (x itself for the in-place op), `edges` taken before it was given."""
    x_shape = tuple(x._impl.sizes)
    tensor_value = isinstance(value, C.Tensor)

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None] if tensor_value else [None]
        gx = g.masked_fill(mask, 0)
        if tuple(gx._impl.sizes) != x_shape:
            gx = C.sum_to_shape(gx, x_shape)
        if not tensor_value:
            return [gx]
        return [gx, g.masked_select(mask).sum()]

    name = "MaskedFillBackward1" if tensor_value else "MaskedFillBackward0"
    graph.attach_edges(name, [result], edges, backward, saved={"mask": mask})


def _edges(x, value):
    return [graph.edge_of(x)] + ([graph.edge_of(value)] if isinstance(value, C.Tensor) else [])


def masked_fill(x, mask, value):
    _check(x, mask, value)
    shape = C.broadcast_shapes(C.shape_of(x), C.shape_of(mask))
    _check_value(x, value)
    result = C.make(_filled(x, mask, value, shape), C.dtype_of(x), C.device_of(x))
    if C.needs_grad(x, value if isinstance(value, C.Tensor) else None):
        _attach(result, x, mask, value, _edges(x, value))
    return result


def _fill_in_place(x, mask, value, shape):
    """masked_fill_ without a graph, a same-shaped mask and a float32/float64 x: the value written where the mask
    is set, straight into x's memory (no full-size where() result to copy back; the attention masks
    _canonical_mask makes: ~20 us a call before). False where it does not apply (the general path runs)."""
    xi, mi = x._impl, mask._impl
    if (type(value) is not float and type(value) is not int) or xi.is_virtual or mi.is_virtual \
            or tuple(mi.sizes) != shape or C.dtype_of(x) not in _FLOATS:
        return False
    view, is_copy = _E.numpy_view(xi)
    np.copyto(view, view.dtype.type(value), where=C.read(mask))
    if is_copy:
        _E.upload(xi, view)
    xi.bump_version()
    return True


def masked_fill_(x, mask, value):
    C.check_inplace(x)
    _check(x, mask, value)
    shape = tuple(x._impl.sizes)
    if tuple(mask._impl.sizes) != shape:
        # TensorIterator (output self, not resized; input mask): its shape errors
        full = tuple(C.broadcast_shapes(shape, C.shape_of(mask)))
        if full != shape:
            raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(full)}")
    _check_value(x, value)
    wants = C.needs_grad(x, value if isinstance(value, C.Tensor) else None)
    if not wants and _fill_in_place(x, mask, value, shape):
        return x
    values = _filled(x, mask, value, shape)
    edges = _edges(x, value) if wants else None
    before = graph.base_edge(x) if wants else None
    C.write(x, values)
    if wants:
        _attach(x, x, mask, value, edges)
        graph.rebase_view(x, before)  # written through a view: its base's history continues (CopySlices)
    return x
