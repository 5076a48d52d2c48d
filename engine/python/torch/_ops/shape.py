# Shape ops that make views (view, reshape when possible, transpose, permute, t, squeeze/unsqueeze, expand,
# select, slice/narrow, split/chunk/unbind, movedim, as_strided): they share their base's storage through
# the engine (SEMANTICS §9). The copying ones live in join.py and are re-exported here.
import numpy as np

import _devicescope_C as _E

from .._size import Size
from ..autograd import grad_mode, graph
from . import _core as C


def _base_of(x):
    return x._base if x._base is not None else x


def _view(x, sizes, strides, offset, name, backward, saved=None):
    """A view of x. View nodes save no tensor (only sizes and arguments, `saved`): `backward` must not
    reference x, or an intermediate PyTorch frees would stay allocated as long as the graph."""
    out = C.wrap(_E.as_strided(x._impl, tuple(sizes), tuple(strides), int(offset)))
    out._base = _base_of(x)
    if C.needs_grad(x):
        _attach(out, x, name, backward, saved)
    return out


def _attach(out, x, name, backward, saved):
    graph.attach(name, [out], [x], lambda gs: (backward(gs[0]),), saved=saved)


def _fast_view_node(code, out, x, info):
    """The node the Python path attaches to a view, for one the C++ fast path made while autograd records
    (engine/python/bindings_views.cpp; code: 0 view/reshape, 1 t, 2 transpose, 3 unsqueeze, 4 permute,
    6 squeeze; info: what the op below keeps for its backward). The backward functions are written out
    (what _attach would wrap) and attached directly: tens of thousands of views per transformer epoch."""
    attach = graph.attach
    if code == 0:
        attach("ViewBackward0", [out], [x], lambda gs: (reshape(gs[0], info),), saved={"self_sym_sizes": info})
    elif code == 1:
        attach("TBackward0", [out], [x], (lambda gs: (gs[0],)) if info < 2 else (lambda gs: (t(gs[0]),)))
    elif code == 2:
        dim0, dim1, a, b, nd = info
        attach("TransposeBackward0", [out], [x],
               (lambda gs: (gs[0],)) if nd == 0 else (lambda gs: (transpose(gs[0], a, b),)),
               saved={"dim0": dim0, "dim1": dim1})
    elif code == 3:
        dim, d = info
        attach("UnsqueezeBackward0", [out], [x], lambda gs: (squeeze(gs[0], d),), saved={"dim": dim})
    elif code == 4:
        inv = [0] * len(info)
        for i, d in enumerate(info):
            inv[d] = i
        attach("PermuteBackward0", [out], [x], lambda gs: (permute(gs[0], inv),), saved={"dims": info})
    elif code == 6:
        old, dim = info
        if dim is None:
            attach("SqueezeBackward0", [out], [x], lambda gs: (reshape(gs[0], old),), saved={"self_sym_sizes": old})
        else:
            attach("SqueezeBackward1", [out], [x], lambda gs: (reshape(gs[0], old),),
                   saved={"dim": dim, "self_sym_sizes": old})
    else:
        raise ValueError(f"_fast_view_node: unknown view code {code}")


def _sizes_arg(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = tuple(args[0])
    out = []
    for a in args:
        if isinstance(a, C.Tensor):
            a = a.item()
        if not hasattr(a, "__index__"):
            raise TypeError(f"view(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(a).__name__} at pos {len(out)}")
        out.append(a.__index__())
    return out


def infer_size(shape, numel):
    shape = list(shape)
    infer = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
        else:
            known *= s
    if infer is not None:
        if known == 0 or numel % known != 0:
            raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
        shape[infer] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
    return shape


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def compute_stride(oldshape, oldstride, newshape):
    """ATen's computeStride: strides that view `oldshape/oldstride` as `newshape`, or None."""
    numel = 1
    for s in oldshape:
        numel *= s
    if numel == 0:
        if list(oldshape) == list(newshape):
            return list(oldstride)
        out = [1] * len(newshape)
        for i in range(len(newshape) - 2, -1, -1):
            out[i] = out[i + 1] * max(newshape[i + 1], 1)
        return out
    if not oldshape:  # a 0-dim tensor (one element) views as any all-ones shape
        return [1] * len(newshape)
    newstride = [0] * len(newshape)
    view_d = len(newshape) - 1
    chunk_base_stride = oldstride[-1] if oldstride else 1
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(oldshape) - 1, -1, -1):
        tensor_numel *= oldshape[tensor_d]
        if tensor_d == 0 or (oldshape[tensor_d - 1] != 1 and
                             oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base_stride
                view_numel *= newshape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = oldstride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return newstride


def view(x, *shape):
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, Size)) and not hasattr(shape[0], "__index__"):
        return _view_dtype(x, shape[0])
    impl = x._impl
    shape = infer_size(_sizes_arg(shape), impl.numel)
    strides = compute_stride(list(impl.sizes), list(impl.strides), shape)
    if strides is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    old = tuple(impl.sizes)
    return _view(x, shape, strides, impl.offset, "ViewBackward0", lambda g: reshape(g, old),
                 {"self_sym_sizes": old})


def _view_dtype(x, dtype):
    """Tensor.view(dtype): the same bytes read as another dtype (ATen's view_dtype rules and messages)."""
    from .out import scalar_name
    impl = x._impl
    src = C.dtype_of(x)
    if not hasattr(dtype, "_code"):
        raise TypeError(f"view(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    if dtype is src:
        return _view(x, impl.sizes, impl.strides, impl.offset, "ViewBackward0", lambda g: g)
    old_size, new_size = src.itemsize, dtype.itemsize
    sizes, strides, offset = list(impl.sizes), list(impl.strides), impl.offset
    what = f"to view {scalar_name(src)} as {scalar_name(dtype)} (different element sizes)"
    if old_size != new_size:
        if impl.dim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
        if new_size > old_size:
            ratio = new_size // old_size
            if sizes[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {sizes[-1]}")
            if offset % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}")
            for i in range(len(strides) - 1):
                if strides[i] % ratio:
                    raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, but got "
                                       f"{strides[i]}")
            sizes[-1] //= ratio
            strides = [s // ratio for s in strides[:-1]] + [1]
            offset //= ratio
        else:
            ratio = old_size // new_size
            sizes[-1] *= ratio
            strides = [s * ratio for s in strides[:-1]] + [1]
            offset *= ratio
    out = C.wrap(_E.view_dtype(impl, dtype._code, tuple(sizes), tuple(strides), int(offset)))
    out._base = _base_of(x)
    return out


def reshape(x, *shape):
    impl = x._impl
    shape = infer_size(_sizes_arg(shape), impl.numel)
    strides = compute_stride(list(impl.sizes), list(impl.strides), shape)
    old = tuple(impl.sizes)
    if strides is not None:
        return _view(x, shape, strides, impl.offset, "ViewBackward0", lambda g: reshape(g, old),
                     {"self_sym_sizes": old})
    dense = _E.contiguous(impl)  # copy into a contiguous layout (None: impl is contiguous already), then view
    c = x if dense is None else C.wrap(dense)
    out = C.wrap(_E.as_strided(c._impl, tuple(shape), tuple(_contig(shape)), 0))
    if C.needs_grad(x):
        graph.attach("UnsafeViewBackward0", [out], [x], lambda gs: (reshape(gs[0], old),),
                     saved={"self_sym_sizes": old})
    return out


def _contig(shape):
    out = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        out[i] = out[i + 1] * max(shape[i + 1], 1)
    return out


def view_as(x, other):
    return view(x, tuple(other._impl.sizes))


def reshape_as(x, other):
    return reshape(x, tuple(other._impl.sizes))


def flatten(x, start_dim=0, end_dim=-1):
    nd = x._impl.dim
    if nd == 0:
        return reshape(x, (1,))
    s = C.wrap_dim(start_dim, nd)
    e = C.wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return x
    sizes = list(x._impl.sizes)
    n = 1
    for d in range(s, e + 1):
        n *= sizes[d]
    return reshape(x, sizes[:s] + [n] + sizes[e + 1:])


def unflatten(x, dim, sizes):
    d = C.wrap_dim(dim, x._impl.dim)
    cur = list(x._impl.sizes)
    new = infer_size(list(sizes), cur[d])
    return view(x, cur[:d] + new + cur[d + 1:])


def transpose(x, dim0, dim1):
    nd = x._impl.dim
    a, b = C.wrap_dim(dim0, nd), C.wrap_dim(dim1, nd)
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    saved = {"dim0": dim0, "dim1": dim1}
    if nd == 0:
        return _view(x, sizes, strides, x._impl.offset, "TransposeBackward0", lambda g: g, saved)
    sizes[a], sizes[b] = sizes[b], sizes[a]
    strides[a], strides[b] = strides[b], strides[a]
    return _view(x, sizes, strides, x._impl.offset, "TransposeBackward0", lambda g: transpose(g, a, b), saved)


swapaxes = transpose
swapdims = transpose


def t(x):
    nd = x._impl.dim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    if nd < 2:
        return _view(x, x._impl.sizes, x._impl.strides, x._impl.offset, "TBackward0", lambda g: g)
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    return _view(x, sizes[::-1], strides[::-1], x._impl.offset, "TBackward0", lambda g: t(g))


def permute(x, *dims):
    if not dims:  # (the Python argument parser's words)
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    nd = x._impl.dim
    if len(dims) != nd:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
                           f"to len(dims) = {len(dims)}")
    dims = [C.wrap_dim(d, nd) for d in dims]
    if len(set(dims)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    sizes, strides = x._impl.sizes, x._impl.strides
    inv = [0] * nd
    for i, d in enumerate(dims):
        inv[d] = i
    return _view(x, [sizes[d] for d in dims], [strides[d] for d in dims], x._impl.offset, "PermuteBackward0",
                 lambda g: permute(g, inv), {"dims": tuple(dims)})


def movedim(x, source, destination):
    nd = x._impl.dim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({_fmt(src)} dims) should contain "
                           f"the same number of dims as destination ({_fmt(dst)} dims)")
    wsrc, wdst = [C.wrap_dim(s, nd) for s in src], [C.wrap_dim(d, nd) for d in dst]
    if len(set(wsrc)) != len(wsrc):
        raise RuntimeError(f"movedim: repeated dim in `source` ({_fmt(src)})")
    if len(set(wdst)) != len(wdst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({_fmt(dst)})")
    if nd == 0:  # a no-op on a 0-dim tensor (an alias)
        return alias(x)
    src, dst = wsrc, wdst
    order = [None] * nd
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter([i for i in range(nd) if i not in src])
    order = [o if o is not None else next(rest) for o in order]
    return permute(x, order)


moveaxis = movedim


def unsqueeze(x, dim):
    nd = x._impl.dim
    d = C.wrap_dim(dim, nd + 1)
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    new_stride = sizes[d] * strides[d] if d < nd else 1
    sizes.insert(d, 1)
    strides.insert(d, new_stride)
    return _view(x, sizes, strides, x._impl.offset, "UnsqueezeBackward0", lambda g: squeeze(g, d), {"dim": dim})


def squeeze(x, dim=None):
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    old = tuple(sizes)
    if dim is None:
        keep = [i for i, s in enumerate(sizes) if s != 1]
        name = "SqueezeBackward0"
        saved = {"self_sym_sizes": old}
    else:
        dims = C.dims_arg(dim, x._impl.dim)  # (a 0-dim tensor takes dims -1 and 0)
        keep = [i for i in range(len(sizes)) if not (i in dims and sizes[i] == 1)]
        name = "SqueezeBackward1"
        saved = {"dim": dim, "self_sym_sizes": old}
    return _view(x, [sizes[i] for i in keep], [strides[i] for i in keep], x._impl.offset, name,
                 lambda g: reshape(g, old), saved)


def expand(x, *sizes):
    sizes = _sizes_arg(sizes)
    impl = x._impl
    nd = impl.dim
    if len(sizes) < nd:
        from .out import type_string
        raise RuntimeError(f"expand({type_string(x)}{{{_fmt(impl.sizes)}}}, size={_fmt(sizes)}): the number of "
                           "sizes provided (" + str(len(sizes)) + ") must be greater or equal to the number of "
                           "dimensions in the tensor (" + str(nd) + ")")
    # ATen's inferExpandGeometry, from the last dim back: a new leading dim kept at size 1 gets the stride
    # of the dims inside it, an expanded dim stride 0; the first mismatch from the right is reported
    n = len(sizes)
    new_sizes, new_strides = [0] * n, [0] * n
    for i in range(n - 1, -1, -1):
        d = i - (n - nd)
        size = impl.sizes[d] if d >= 0 else 1
        stride = impl.strides[d] if d >= 0 else (new_sizes[i + 1] * new_strides[i + 1] if i + 1 < n else 1)
        target = sizes[i]
        if target == -1:
            if d < 0:
                raise RuntimeError(f"The expanded size of the tensor ({target}) isn't allowed in a leading, "
                                   "non-existing dimension " + str(i))
            target = size
        if size != target:
            if size != 1:
                raise RuntimeError(f"The expanded size of the tensor ({target}) must match the existing size "
                                   f"({size}) at non-singleton dimension {i}.  Target sizes: {_fmt(sizes)}.  "
                                   f"Tensor sizes: {_fmt(impl.sizes)}")
            size, stride = target, 0
        new_sizes[i], new_strides[i] = size, stride
    if nd == 0:
        new_strides = [0] * n  # (ATen returns early for a 0-dim tensor: every stride 0)
    old = tuple(impl.sizes)
    return _view(x, new_sizes, new_strides, impl.offset, "ExpandBackward0", lambda g: C.sum_to_shape(g, old),
                 {"self_sym_sizes": old})


def expand_as(x, other):
    return expand(x, tuple(other._impl.sizes))


def broadcast_to(x, shape):
    return expand(x, tuple(shape))


_fast_embed_grad = getattr(_E, "fast_embed_grad", None) if C.FAST_KERNELS else None
_fast_embed_grad = _fast_embed_grad or (lambda g, sizes, code, device, index: None)
_fast_unbind_grad = getattr(_E, "fast_unbind_grad", None) if C.FAST_KERNELS else None
_fast_unbind_grad = _fast_unbind_grad or (lambda gs, sizes, d, code, device: None)


def _meta(x):
    """(sizes, dtype, device) of x: what a gradient needs to be built in x's shape, without holding x."""
    return tuple(x._impl.sizes), C.dtype_of(x), C.device_of(x)


def _embed_grad(g, meta, index, name=None, take=None):
    """Gradient of a view taken with numpy `index`: zeros of the input's shape with g placed at index.
    Under create_graph (grad mode on in backward, g part of a graph) the result gets its own node `name`
    (slice_backward / select_backward in PyTorch), whose gradient is `take(grad)`: the same view of it."""
    sizes, dtype, device = meta
    # float32/float64 in one C call (engine/python/fast_make.cpp: the same values and the one allocation make()
    # gives); None for anything else
    out = _fast_embed_grad(g, sizes, dtype._code, device, index)
    if out is None:
        gx = C.host_zeros(sizes, C.compute_dtype(C.dtype_of(g)), g)
        gx[index] = C.read(g)
        out = C.make(gx, dtype, device)
    if take is not None and C.needs_grad(g):
        graph.attach(name, [out], [g], lambda gs: (take(gs[0]),))
    return out


def select(x, dim, index):
    nd = x._impl.dim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = C.wrap_dim(dim, nd)
    size = x._impl.sizes[d]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {_fmt(x._impl.sizes)} at "
                         f"dimension {d}")
    saved = {"dim": dim, "index": index, "self_sym_sizes": tuple(x._impl.sizes)}
    if index < 0:
        index += size
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    offset = x._impl.offset + index * strides[d]
    del sizes[d]
    del strides[d]
    idx = (slice(None),) * d + (index,)
    meta = _meta(x)
    return _view(x, sizes, strides, offset, "SelectBackward0",
                 lambda g: _embed_grad(g, meta, idx, "SelectBackwardBackward0", lambda gg: select(gg, d, index)),
                 saved)


def slice_dim(x, dim, start, stop, step=1):
    d = C.wrap_dim(dim, x._impl.dim)
    size = x._impl.sizes[d]
    if step <= 0:
        raise ValueError("step must be greater than zero")
    saved = {"dim": dim, "end": stop, "self_sym_sizes": tuple(x._impl.sizes), "start": start, "step": step}
    start, stop, _ = slice(start, stop, step).indices(size)
    n = max(0, (stop - start + step - 1) // step)
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    offset = x._impl.offset + start * strides[d]  # even for an empty slice, as ATen's slice does
    sizes[d] = n
    strides[d] = strides[d] * step
    idx = (slice(None),) * d + (slice(start, start + n * step, step) if n else slice(0, 0),)
    meta = _meta(x)
    stop = start + n * step if n else start
    return _view(x, sizes, strides, offset, "SliceBackward0",
                 lambda g: _embed_grad(g, meta, idx, "SliceBackwardBackward0",
                                       lambda gg: slice_dim(gg, d, start, stop, step)), saved)


def narrow(x, dim, start, length):
    if x._impl.dim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = C.wrap_dim(dim, x._impl.dim)
    size = x._impl.sizes[d]
    if isinstance(start, C.Tensor):
        start = start.item()
    if start != size:  # start == size is a valid (empty) narrow, though not a valid dim to wrap
        start = C.wrap_dim(start, size)
    if length < 0 or start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(x, d, start, start + length)


def diagonal(x, offset=0, dim1=0, dim2=1):
    """A view of the diagonal (ATen's diagonal: the two dims go, the diagonal becomes the last one)."""
    nd = x._impl.dim
    d1, d2 = C.wrap_dim(dim1, nd), C.wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    start = x._impl.offset
    if offset >= 0:
        n = max(min(sizes[d1], sizes[d2] - offset), 0)
    else:
        n = max(min(sizes[d1] + offset, sizes[d2]), 0)
    if n > 0:
        start += offset * strides[d2] if offset >= 0 else -offset * strides[d1]
    new_sizes = [s for i, s in enumerate(sizes) if i not in (d1, d2)] + [n]
    new_strides = [s for i, s in enumerate(strides) if i not in (d1, d2)] + [strides[d1] + strides[d2]]
    meta = _meta(x)

    def backward(g):
        gx = C.make(C.host_zeros(meta[0], C.compute_dtype(meta[1]), g), meta[1], meta[2])
        C.write(diagonal(gx, offset, d1, d2), C.read(g), bump=False)
        return graph.linear_grad(gx, g, "DiagonalBackwardBackward0", lambda gg: diagonal(gg, offset, d1, d2))
    return _view(x, new_sizes, new_strides, start, "DiagonalBackward0", backward,
                 {"dim1": dim1, "dim2": dim2, "offset": offset, "self_sym_sizes": meta[0]})


def unfold(x, dimension, size, step):
    """Tensor.unfold: windows of `size` every `step` along `dimension`, as a new last dim (a view)."""
    nd = x._impl.dim
    d = C.wrap_dim(dimension, nd)
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    max_size = sizes[d] if nd else 1
    if size > max_size:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {max_size} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if nd == 0:
        new_sizes, new_strides = [size], [1]
    else:
        new_sizes = sizes[:d] + [(sizes[d] - size) // step + 1] + sizes[d + 1:] + [size]
        new_strides = strides[:d] + [strides[d] * step] + strides[d + 1:] + [strides[d]]
    meta = _meta(x)

    def backward(g):
        gv = C.read(g)
        gx = C.host_zeros(meta[0], np.float64, g)
        if nd == 0:
            gx = gx + gv.sum()
        else:
            moved = np.moveaxis(gv, d, -2)  # [..., windows, size]
            target = np.moveaxis(gx, d, -1)  # a view of gx: [..., sizes[d]]
            for w in range(moved.shape[-2]):
                target[..., w * step:w * step + size] += moved[..., w, :]
        return graph.linear_grad(C.make(gx, meta[1], meta[2]), g, "UnfoldBackwardBackward0",
                                 lambda gg: unfold(gg, dimension, size, step))
    return _view(x, new_sizes, new_strides, x._impl.offset, "UnfoldBackward0", backward,
                 {"dimension": dimension, "self_sym_sizes": meta[0], "size": size, "step": step})


def split(x, split_size_or_sections, dim=0):
    if x._impl.dim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = C.wrap_dim(dim, x._impl.dim)
    size = x._impl.sizes[d]
    if isinstance(split_size_or_sections, int):
        s = split_size_or_sections
        if s <= 0 and size > 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        sections = ([s] * (size // s) + ([size % s] if size % s else []) if s > 0 else [0]) or [0]  # (empty: one piece)
        name = "SplitBackward0"
        saved = {"dim": dim, "self_sym_sizes": tuple(x._impl.sizes), "split_size": s}
    else:
        sections = list(split_size_or_sections)
        if sum(sections) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                               f"size at dimension {d}), but got split_sizes={_fmt(sections)}")
        name = "SplitWithSizesBackward0"
        saved = {"dim": dim, "self_sym_sizes": tuple(x._impl.sizes), "split_sizes": tuple(sections)}
    return _split_views(x, d, sections, name, saved)


def _split_views(x, d, sections, name, saved=None):
    outs = []
    start = 0
    sizes, strides = list(x._impl.sizes), list(x._impl.strides)
    for n in sections:
        sz = list(sizes)
        sz[d] = n
        o = C.wrap(_E.as_strided(x._impl, tuple(sz), tuple(strides), x._impl.offset + start * strides[d]))
        o._base = _base_of(x)
        outs.append(o)
        start += n
    if C.needs_grad(x):
        bounds = []
        s = 0
        for n in sections:
            bounds.append((s, s + n))
            s += n

        xdt, xdev = C.dtype_of(x), C.device_of(x)  # split saves sizes only: the closure must not hold x

        def fn(gs):
            if grad_mode._enabled[0]:  # create_graph: the pieces' gradients (zeros if missing) concatenated
                from .join import cat
                ref = next(g for g in gs if g is not None)
                parts = [g if g is not None else ref.new_zeros(tuple(sizes[:d]) + (b - a,) + tuple(sizes[d + 1:]))
                         for (a, b), g in zip(bounds, gs)]
                gx = cat(parts, d)
                return (gx if gx.dtype is xdt else gx.to(xdt),)
            gx = C.host_zeros(tuple(sizes), np.float64, *gs)
            for (a, b), g in zip(bounds, gs):
                if g is not None:
                    gx[(slice(None),) * d + (slice(a, b),)] = C.read(g)
            return (C.make(gx, xdt, xdev),)
        graph.attach(name, outs, [x], fn, saved=saved)
    return tuple(outs)


def tensor_split(x, indices_or_sections, dim=0):
    """ATen's tensor_split: a slice per piece (each its own SliceBackward0, so each may be written in place);
    indices are slice bounds as given (x[7:3] is empty, the next piece starts at 3 again)."""
    d = C.wrap_dim(dim, x._impl.dim)
    size = x._impl.sizes[d]
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        base, extra = divmod(size, n)
        sections = [base + 1] * extra + [base] * (n - extra)
        bounds = [sum(sections[:i]) for i in range(n + 1)]
    else:
        bounds = [0] + list(indices_or_sections) + [size]
    return tuple(slice_dim(x, d, a, b) for a, b in zip(bounds, bounds[1:]))


def chunk(x, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    if x._impl.dim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    d = C.wrap_dim(dim, x._impl.dim)
    size = x._impl.sizes[d]
    if size == 0:  # ATen: `chunks` empty pieces
        return _split_views(x, d, [0] * chunks, "SplitWithSizesBackward0",
                            {"dim": dim, "self_sym_sizes": tuple(x._impl.sizes), "split_sizes": (0,) * chunks})
    return split(x, (size + chunks - 1) // chunks, d)


def unbind(x, dim=0):
    d = C.wrap_dim(dim, x._impl.dim)
    if x._impl.dim == 0:  # (the dim wraps to 0, then self.size(0) refuses)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    sizes = list(x._impl.sizes)
    sz = sizes[:d] + sizes[d + 1:]
    # the n views in one engine call (bindings_views.cpp unbind_views: as_strided(sz, st, offset + i * stride) each)
    base = _base_of(x)
    outs = [C.wrap(v) for v in _E.unbind_views(x._impl, d)]
    for o in outs:
        o._base = base
    if C.needs_grad(x):
        xdt, xdev = C.dtype_of(x), C.device_of(x)  # unbind saves only dim: the closure must not hold x

        def fn(gs):
            if grad_mode._enabled[0]:  # create_graph: the pieces' gradients (zeros if missing) stacked
                from .join import stack
                ref = next(g for g in gs if g is not None)
                gx = stack([g if g is not None else ref.new_zeros(tuple(sz)) for g in gs], d)
                return (gx if gx.dtype is xdt else gx.to(xdt),)
            # float32/float64 in one C call (engine/python/fast_make.cpp: the same values, the one allocation)
            out = _fast_unbind_grad(gs, tuple(sizes), d, xdt._code, xdev) if type(gs) is list else None
            if out is not None:
                return (out,)
            # (in x's math dtype: the pieces' gradients hold its values, so a float64 buffer gave the same bits
            # after twice the memory traffic and a cast back - an LSTM's [T, B, 4H] input gates every backward)
            gx = C.host_zeros(tuple(sizes), C.compute_dtype(xdt) if xdt.is_floating_point else np.float64, *gs)
            for i, g in enumerate(gs):
                if g is not None:
                    gx[(slice(None),) * d + (i,)] = C.read(g)
            return (C.make(gx, xdt, xdev),)
        graph.attach("UnbindBackward0", outs, [x], fn, saved={"dim": dim})
    return tuple(outs)


def as_strided(x, size, stride, storage_offset=None):
    off = x._impl.offset if storage_offset is None else storage_offset
    return _view(x, list(size), list(stride), off, "AsStridedBackward0", _as_strided_grad,
                 {"size": tuple(size), "storage_offset": storage_offset, "stride": tuple(stride)})


def _as_strided_grad(g):
    raise NotImplementedError("DeviceScope: backward through as_strided is not supported")


def alias(x):
    return _view(x, x._impl.sizes, x._impl.strides, x._impl.offset, "AliasBackward0", lambda g: g)


def detach(x):
    return C.wrap(_E.detach(x._impl))


# Copying shape ops (imported last: join.py builds on the views above).
from .join import (cat, concat, concatenate, diag, flip, hstack, repeat, roll, stack, trace,  # noqa: E402,F401
                   tril, triu, vstack)
