# Shape ops that copy: cat/stack/hstack/vstack, repeat, flip, roll, triu/tril, diag/diagonal/trace, with
# PyTorch's checks, device rules (cat names `tensors` in its device error) and autograd; and atleast_1d/2d/3d
# (views or the tensor itself), which hstack/vstack build on in ATen.
import numpy as np

import _devicescope_C as _E

from ..autograd import grad_mode, graph
from . import _core as C
from .shape import _fmt, reshape, unbind, unsqueeze, _sizes_arg

def cat(tensors, dim=0, out=None):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not isinstance(t, C.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    # Legacy rule: 1-D empty tensors are skipped.
    live = [t for t in tensors if not (t._impl.dim == 1 and t._impl.numel == 0)] or tensors[:1]
    dev = C.check_same_device("cat", [("tensors", t) for t in live])
    ref = live[0]
    nd = ref._impl.dim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = C.wrap_dim(dim, nd)
    for i, t in enumerate(live):
        if t._impl.dim != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and {t._impl.dim}")
        for k in range(nd):
            if k != d and t._impl.sizes[k] != ref._impl.sizes[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ref._impl.sizes[k]} but got size {t._impl.sizes[k]} for tensor number {i} "
                                   "in the list.")
    odt = C.result_type(*live)
    npd = C.compute_dtype(odt)
    res = np.concatenate([C.values_of(t, npd) for t in live], axis=d)
    result = C.make(res, odt, dev)
    if odt.is_floating_point and C.needs_grad(*live):
        _attach_cat(result, live, d, dim)
    if out is not None:
        return out.copy_(result)
    return result


_fast_cat_grad = getattr(_E, "fast_cat_grad", None) if C.FAST_KERNELS else None
_fast_cat_grad = _fast_cat_grad or (lambda g, d, metas: None)


def _attach_cat(result, live, d, dim):
    """CatBackward0: cat saves dim and the inputs' sizes and dtypes, never the inputs themselves."""
    metas = [(t._impl.sizes[d], C.dtype_of(t), C.device_of(t)) for t in live]

    def fn(gs):
        if grad_mode._enabled[0]:  # create_graph: the gradient's slices as differentiable views
            outs, s = [], 0
            for n, dt, dv in metas:
                part = gs[0].narrow(d, s, n)
                outs.append(part if part.dtype is dt else part.to(dt))
                s += n
            return outs
        outs = _fast_cat_grad(gs[0], d, metas)  # float32/float64 in one C call (engine/python/fast_make.cpp)
        if outs is not None:
            return outs
        gv = C.read(gs[0])
        outs, s = [], 0
        for n, dt, dv in metas:
            part = gv[(slice(None),) * d + (slice(s, s + n),)]
            outs.append(C.make(C.as_array(part) if C.shape_only(part) else np.ascontiguousarray(part), dt, dv))
            s += n
        return outs
    graph.attach("CatBackward0", [result], live, fn, saved={"dim": dim})


def _fast_join_node(code, result, tensors, dim):
    """The node the Python path attaches, for a cat (code 0) or stack (code 1) the C++ fast path made while
    autograd records (engine/python/bindings_join.cpp; tensors: the list or tuple it was given, none skipped)."""
    tensors = list(tensors)
    nd = tensors[0]._impl.dim
    if code == 0:
        _attach_cat(result, tensors, C.wrap_dim(dim, nd), dim)
    else:
        _attach_stack(result, tensors, C.wrap_dim(dim, nd + 1), dim)


concat = cat
concatenate = cat


def stack(tensors, dim=0, out=None):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = tensors[0]
    for i, t in enumerate(tensors):
        if tuple(t._impl.sizes) != tuple(ref._impl.sizes):
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {_fmt(ref._impl.sizes)} at "
                               f"entry 0 and {_fmt(t._impl.sizes)} at entry {i}")
    d = C.wrap_dim(dim, ref._impl.dim + 1)
    if out is None and C.needs_grad(*tensors):
        # the views and the cat without history: their nodes would be replaced by StackBackward0 below (an
        # RNN layer stacks every time step's output)
        prev, grad_mode._enabled[0] = grad_mode._enabled[0], False
        try:
            r = cat([unsqueeze(t, d) for t in tensors], d)
        finally:
            grad_mode._enabled[0] = prev
    else:
        r = cat([unsqueeze(t, d) for t in tensors], d, out=out)
    if out is None and C.needs_grad(*tensors):
        _attach_stack(r, tensors, d, dim)
    return r


def _attach_stack(r, tensors, d, dim):
    """One StackBackward0 node over the original tensors (not Cat over Unsqueeze views)."""
    def fn(gs):
        return list(unbind(gs[0], d))
    graph.attach("StackBackward0", [r], tensors, lambda gs: [g.contiguous() for g in fn(gs)], saved={"dim": dim})


def hstack(tensors):
    tensors = list(tensors)
    return cat(tensors, 0 if tensors[0]._impl.dim == 1 else 1)


def vstack(tensors):
    return cat([t if t._impl.dim >= 2 else reshape(t, (1, -1)) for t in tensors], 0)


def repeat(x, *sizes):
    sizes = _sizes_arg(sizes)
    if len(sizes) < x._impl.dim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                           "tensor")
    xv = C.read(x)
    xv = xv.reshape((1,) * (len(sizes) - xv.ndim) + xv.shape)
    out = C.new_empty(tuple(s * n for s, n in zip(sizes, xv.shape)), C.dtype_of(x), C.device_of(x), False,
                      x._impl.is_virtual)
    if out._impl.numel and not out._impl.is_virtual:
        C.write(out, np.tile(xv, sizes), bump=False)
    if C.needs_grad(x):
        shape = xv.shape
        del xv
        meta = (tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x))  # repeat saves sizes only, not x

        def fn(gs):
            gv = C.read(gs[0])
            parts = gv.reshape(sum(((r, s) for r, s in zip(sizes, shape)), ()))
            red = parts.sum(axis=tuple(range(0, 2 * len(sizes), 2)))
            return (graph.linear_grad(C.make(red.reshape(meta[0]), meta[1], meta[2]), gs[0], "SumBackward1",
                                      lambda gg: repeat(gg, sizes)),)
        graph.attach("RepeatBackward0", [out], [x], fn,
                     saved={"repeats": tuple(sizes), "self_sym_sizes": meta[0]})
    return out


def flip(x, dims):
    dims = C.dims_arg(list(dims) if isinstance(dims, (list, tuple)) else [dims], x._impl.dim)
    # (a 0-dim tensor accepts dim 0 or -1 and flips nothing)
    out = C.make(np.flip(C.read(x), dims if x._impl.dim else ()).copy(), C.dtype_of(x), C.device_of(x))
    if C.needs_grad(x):
        graph.attach("FlipBackward0", [out], [x], lambda gs: (flip(gs[0], dims),), saved={"dims": dims})
    return out


def roll(x, shifts, dims=None):
    if dims is not None:
        if x._impl.dim == 0:
            d0 = dims[0] if isinstance(dims, (list, tuple)) else dims
            raise IndexError(f"Dimension specified as {d0} but tensor has no dimensions")
        dims = tuple(C.wrap_dim(d, x._impl.dim) for d in dims) if isinstance(dims, (list, tuple)) \
            else C.wrap_dim(dims, x._impl.dim)
    res = np.roll(C.read(x), shifts, axis=dims)
    out = C.make(res, C.dtype_of(x), C.device_of(x))
    if C.needs_grad(x):
        neg = tuple(-s for s in shifts) if isinstance(shifts, (tuple, list)) else -shifts
        graph.attach("RollBackward0", [out], [x], lambda gs: (roll(gs[0], neg, dims),))
    return out


def _tri(x, diagonal, upper):
    if x._impl.numel == 0 and x._impl.dim:
        return C.make(np.zeros(tuple(x._impl.sizes)), C.dtype_of(x), C.device_of(x))  # ATen returns early
    if x._impl.dim == 0:
        raise IndexError("Dimension specified as -2 but tensor has no dimensions")
    C.wrap_dim(-2, x._impl.dim)  # tril/triu need a matrix: PyTorch's IndexError on 1-D input
    out = C.make(_tri_values(C.read(x), diagonal, upper), C.dtype_of(x), C.device_of(x))
    if C.needs_grad(x):
        graph.attach("TriuBackward0" if upper else "TrilBackward0", [out], [x],
                     lambda gs: (_tri(gs[0], diagonal, upper),))
    return out


_TRI_MASKS = {}  # (rows, cols, diagonal, upper) -> the bool mask of the elements np.triu / np.tril zero


def _tri_values(xv, diagonal, upper):
    """np.triu(xv, diagonal) / np.tril's values (the zeroed elements are the dtype's 0, NaNs there too) from a cached
    mask of the last two dims: np.triu builds np.tri and a where() each call (~8 us of a 7x7 attention mask's 10)."""
    if not isinstance(xv, np.ndarray):  # a virtual tensor's shape-only values: numpy's functions take them
        return np.triu(xv, diagonal) if upper else np.tril(xv, diagonal)
    r, c = xv.shape[-2:]
    key = (r, c, diagonal, upper)
    mask = _TRI_MASKS.get(key)
    if mask is None:
        # np.triu zeroes tri(r, c, diagonal - 1), np.tril the complement of tri(r, c, diagonal)
        mask = np.tri(r, c, diagonal - 1, dtype=bool) if upper else ~np.tri(r, c, diagonal, dtype=bool)
        if r * c <= 1 << 16 and len(_TRI_MASKS) < 256:
            _TRI_MASKS[key] = mask
    out = np.array(xv, order="C")
    np.copyto(out, out.dtype.type(0), where=mask)
    return out


def triu(x, diagonal=0):
    return _tri(x, diagonal, True)


def tril(x, diagonal=0):
    return _tri(x, diagonal, False)


def diag(x, diagonal=0):
    """torch.diag as 2.x composes it: diag_embed of a vector (DiagEmbedBackward0: the gradient's diagonal), a
    copy of a matrix's diagonal (diagonal_copy, whose node is codegen'd from diagonal's: DiagonalBackward0_copy)."""
    from .shape import diagonal as diagonal_view
    nd = x._impl.dim
    if nd not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")
    out = C.make(np.diag(C.read(x), diagonal).copy(), C.dtype_of(x), C.device_of(x))
    if not C.needs_grad(x):
        return out
    if nd == 1:
        graph.attach("DiagEmbedBackward0", [out], [x], lambda gs: (diagonal_view(gs[0], diagonal, -2, -1),),
                     saved={"dim1": -2, "dim2": -1, "offset": diagonal})
        return out
    sizes, dtype, device = tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x)

    def backward(gs):
        g = gs[0]
        gx = C.make(C.host_zeros(sizes, C.compute_dtype(dtype), g), dtype, device)
        C.write(diagonal_view(gx, diagonal, 0, 1), C.read(g), bump=False)
        return (graph.linear_grad(gx, g, "DiagonalBackwardBackward0", lambda gg: diagonal_view(gg, diagonal, 0, 1)),)
    graph.attach("DiagonalBackward0_copy", [out], [x], backward,
                 saved={"dim1": 0, "dim2": 1, "offset": diagonal, "self_sym_sizes": sizes})
    return out


def trace(x):
    from .shape import diagonal
    return diagonal(x).sum()


def _atleast(views, tensors):
    """torch.atleast_Nd(*tensors): one tensor gives a tensor, several (or one sequence) a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], C.Tensor):
        return views(tensors[0])
    seq = tensors[0] if len(tensors) == 1 else tensors
    return tuple(views(t) for t in seq)


def atleast_1d(*tensors):
    return _atleast(lambda t: reshape(t, (1,)) if t._impl.dim == 0 else t, tensors)


def atleast_2d(*tensors):
    return _atleast(lambda t: reshape(t, (1, 1)) if t._impl.dim == 0 else unsqueeze(t, 0) if t._impl.dim == 1 else t,
                    tensors)


def atleast_3d(*tensors):
    def views(t):
        nd = t._impl.dim
        if nd == 0:
            return reshape(t, (1, 1, 1))
        if nd == 1:
            return unsqueeze(unsqueeze(t, 0), -1)
        return unsqueeze(t, -1) if nd == 2 else t
    return _atleast(views, tensors)
