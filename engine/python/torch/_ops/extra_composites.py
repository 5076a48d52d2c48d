# Ops that ATen implements as compositions of other ops (CompositeImplicitAutograd), written as the same
# compositions so that their values, views, grad_fn chains and allocations are PyTorch's by construction:
# meshgrid (view + expand), diff (narrow - narrow), trapezoid / trapz / cumulative_trapezoid, tile (repeat),
# column_stack / dstack / row_stack, hsplit / vsplit / dsplit (tensor_split), cartesian_prod (meshgrid +
# stack), fliplr / flipud (flip), repeat_interleave (expand + clone / index_select), take_along_dim (gather).
import sys
import warnings

from . import _core as C


def _torch():
    return sys.modules["torch"]  # (torch imports this module: no import cycle at module level)


def _tensors_arg(tensors):
    """The old interface: the tensors as one list or tuple argument."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(tensors[0])
    return tuple(tensors)


# ----------------------------------------------------------------------------- meshgrid / cartesian_prod
_MESHGRID_WARNED = [False]


def meshgrid(*tensors, indexing=None):
    tensors = _tensors_arg(tensors)
    if indexing is None:
        if not _MESHGRID_WARNED[0]:  # TORCH_WARN_ONCE: once per process
            _MESHGRID_WARNED[0] = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                          "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    size = len(tensors)
    if size == 0:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for a, b in zip(tensors, tensors[1:]):
        if a.dtype is not b.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if a.device != b.device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    refs = list(tensors)
    swap = False
    if indexing == "xy":
        swap = size >= 2  # "xy" is "ij" with the first two inputs (and outputs) swapped
        if swap:
            refs[0], refs[1] = refs[1], refs[0]
    elif indexing != "ij":
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in refs:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    shape = [t.numel() for t in refs]
    grids = []
    for i, t in enumerate(refs):
        view_shape = [1] * size
        view_shape[i] = -1
        grids.append(t.view(view_shape).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors):
    torch = _torch()
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return torch.stack([g.flatten() for g in meshgrid(*tensors, indexing="ij")], 1)


# ----------------------------------------------------------------------------- diff
def _check_diff_other(x, other, dim):
    if other is None:
        return
    wrapped = C.wrap_dim(dim, x.dim())
    if other.dim() != x.dim():
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i in range(other.dim()):
        if i != wrapped and other.shape[i] != x.shape[i]:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input "
                               f"except along the differencing dimension; input.size({i}) = {x.shape[i]}, but "
                               f"got tensor.size({i}) = {other.shape[i]}")


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    torch = _torch()
    if input.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    _check_diff_other(input, prepend, dim)
    _check_diff_other(input, append, dim)
    x = input
    if n != 0 and (prepend is not None or append is not None):
        x = torch.cat([t for t in (prepend, input, append) if t is not None], dim)
    if n == 0:
        result = torch.zeros_like(x)
        result.copy_(x)
        return result
    d = C.wrap_dim(dim, x.dim())
    out_len = x.shape[d] - 1
    result = x
    for _ in range(min(n, x.shape[d])):
        hi, lo = result.narrow(d, 1, out_len), result.narrow(d, 0, out_len)
        result = torch.logical_xor(hi, lo) if x.dtype is torch.bool else hi - lo
        out_len -= 1
    return result


# ----------------------------------------------------------------------------- trapezoid
def _times(t, value, divide=False):
    """t * value or t / value with ATen's Scalar overload (MulBackward1 / DivBackward1, saving `other`): a C++
    composite multiplies by a double through mul.Scalar, where Python's `t * 0.5` reaches mul.Tensor."""
    torch = _torch()
    with torch.no_grad():
        out = t / value if divide else t * value
    if C.needs_grad(t):
        from ..autograd import graph
        graph.attach("DivBackward1" if divide else "MulBackward1", [out], [t],
                     lambda gs: (gs[0] / value if divide else gs[0] * value,), saved={"other": value})
    return out


def _x_viewed(y, x, d, what):
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError(f"{what}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[d] = x.shape[0]
        return x.view(shape)
    if x.dim() < y.dim():
        return x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    return x


def _zeros_except(y, d):
    torch = _torch()
    shape = list(y.shape)
    del shape[d]
    return torch.zeros(shape, dtype=y.dtype, device=y.device)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    torch = _torch()
    d = C.wrap_dim(dim, y.dim())
    if x is not None:
        if y.shape[d] == 0:  # numpy's answer for no samples
            return _zeros_except(y, d)
        if y.dtype is torch.bool or x.dtype is torch.bool:
            raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is not supported")
        xv = _x_viewed(y, x, d, "trapezoid")
        step = xv.narrow(d, 1, xv.shape[d] - 1) - xv.narrow(d, 0, xv.shape[d] - 1)
        left, right = y.narrow(d, 0, y.shape[d] - 1), y.narrow(d, 1, y.shape[d] - 1)
        return _times(((left + right) * step).sum(d), 2.0, divide=True)
    dx = 1 if dx is None else dx
    if y.shape[d] == 0:
        return _zeros_except(y, d)
    if y.dtype is torch.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
    # constant spacing: dx * (sum(y) - (y_first + y_last) / 2)
    return _times(y.sum(d) - _times(y.select(d, 0) + y.select(d, -1), 0.5), float(dx))


def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    torch = _torch()
    d = C.wrap_dim(dim, y.dim())
    if x is not None:
        if y.dtype is torch.bool or x.dtype is torch.bool:
            raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not "
                               "supported")
        xv = _x_viewed(y, x, d, "cumulative_trapezoid")
        step = xv.narrow(d, 1, xv.shape[d] - 1) - xv.narrow(d, 0, xv.shape[d] - 1)
        left, right = y.narrow(d, 0, y.shape[d] - 1), y.narrow(d, 1, y.shape[d] - 1)
        return _times(((left + right) * step).cumsum(d), 2.0, divide=True)
    dx = 1 if dx is None else dx
    if y.dtype is torch.bool:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError("cumulative_trapezoid: Currently, we only support dx as a real number.")
    left, right = y.narrow(d, 0, y.shape[d] - 1), y.narrow(d, 1, y.shape[d] - 1)
    return _times(left + right, float(dx) / 2.0).cumsum(d)


# ----------------------------------------------------------------------------- tile / stacks / splits / flips
def tile(input, dims):  # noqa: A002
    dims = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    if input.dim() > len(dims):  # numpy.tile: missing leading repetitions are 1
        dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(dims)


def column_stack(tensors):
    torch = _torch()
    if len(tensors) == 0:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    return torch.hstack([t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in tensors])


def dstack(tensors):
    torch = _torch()
    if len(tensors) == 0:
        raise RuntimeError("dstack expects a non-empty TensorList")
    return torch.cat([torch.atleast_3d(t) for t in tensors], 2)


def row_stack(tensors):
    return _torch().vstack(tensors)


def _split(name, input, sections, dim, need):  # noqa: A002
    torch = _torch()
    if input.dim() < need:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor with "
                           f"{input.dim()} dimensions!")
    if isinstance(sections, int):
        if sections == 0 or input.shape[dim] % sections != 0:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                               f"dimension {input.shape[dim]} is not divisible by the split_size {sections}!")
    return torch.tensor_split(input, sections, dim)


def hsplit(input, indices_or_sections):  # noqa: A002
    return _split("hsplit", input, indices_or_sections, 0 if input.dim() == 1 else 1, 1)


def vsplit(input, indices_or_sections):  # noqa: A002
    return _split("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):  # noqa: A002
    return _split("dsplit", input, indices_or_sections, 2, 3)


def fliplr(input):  # noqa: A002
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def flipud(input):  # noqa: A002
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip(0)


# ----------------------------------------------------------------------------- repeat_interleave / take_along_dim
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):  # noqa: A002
    torch = _torch()
    if repeats is None:  # repeat_interleave(repeats): each index i repeated repeats[i] times
        reps = input
        if reps.dim() != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if reps.dtype not in (torch.int64, torch.int32):
            raise RuntimeError("repeats has to be Long or Int tensor")
        if reps.numel() and bool((reps < 0).any()):
            raise RuntimeError("repeats can not be negative")
        counts = [int(v) for v in reps.tolist()]
        if output_size is not None and output_size != sum(counts):
            raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {sum(counts)} but got "
                               f"{output_size}")
        index = [i for i, c in enumerate(counts) for _ in range(c)]
        return torch.tensor(index, dtype=reps.dtype, device=reps.device)
    if not isinstance(repeats, C.Tensor):
        # 2.x: unsqueeze + expand + one contiguous copy, flattened back (a view of the copy)
        x = input if dim is not None else input.flatten()
        d = C.wrap_dim(dim if dim is not None else 0, input.dim())
        if repeats < 0:
            raise RuntimeError("Repeats can not be negative")
        x = x.unsqueeze(d + 1)
        shape = list(x.shape)
        shape[d + 1] = repeats
        x = x.expand(shape)
        if output_size is not None and output_size != repeats * shape[d]:
            raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {repeats * shape[d]} but got "
                               f"{output_size}")
        return x.clone(memory_format=torch.contiguous_format).flatten(d, d + 1)
    x = input
    if dim is None:
        x, d = x.flatten(), 0
    else:
        d = C.wrap_dim(dim, input.dim())
    reps = repeats
    if reps.dim() == 0 or (reps.dim() == 1 and reps.shape[0] == 1):
        reps = reps.reshape(1).expand(x.shape[d])
    elif reps.dim() == 1:
        if reps.shape[0] != x.shape[d]:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{reps.shape[0]} and input.size({d}) = {x.shape[d]}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return x.index_select(d, repeat_interleave(reps, output_size=output_size))


def take_along_dim(input, indices, dim=None, *, out=None):  # noqa: A002
    torch = _torch()
    if input.device != indices.device:
        raise RuntimeError("torch.take_along_dim(): Expected all tensors to be on the same device, but found "
                           f"at least two devices, {input.device} and {indices.device}!")
    if dim is None:
        r = input.view(-1).gather(0, indices.view(-1))
    else:
        if input.dim() != indices.dim():
            raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of "
                               f"dimensions, but got {input.dim()} dimensions for input, and {indices.dim()} "
                               "dimensions for indices")
        if indices.dtype is not torch.int64:
            raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                               f"{_scalar(indices.dtype)}")
        d = C.wrap_dim(dim, input.dim())
        sizes = list(input.shape)
        sizes[d] = indices.shape[d]
        idx = indices.broadcast_to(torch.broadcast_shapes(sizes, indices.shape))
        sizes = list(indices.shape)
        sizes[d] = input.shape[d]
        src = input.broadcast_to(torch.broadcast_shapes(sizes, input.shape))
        r = src.gather(d, idx)
    return r if out is None else out.resize_(r.shape).copy_(r)


def _scalar(dt):
    from .._factories import _scalar_name
    return _scalar_name(dt)


# ----------------------------------------------------------------------------- tensordot
def tensordot(a, b, dims=2, out=None):
    """torch.functional.tensordot's argument forms, then ATen's: size-1 contracted dims summed away, both
    operands permuted and reshaped to matrices, one mm, the result reshaped (a view when it can be)."""
    torch = _torch()
    if isinstance(dims, C.Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a list of two lists or an int")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[da], b.shape[db]
        if s2 == 1:  # a broadcast dimension is summed right away
            t1 = t1.sum(da, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(db, True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and "
                                   f"second has size {s2} in dim {db}")
            csize *= s1
    ca = {C.wrap_dim(d, a.dim()) for d in dims_a}
    cb = {C.wrap_dim(d, b.dim()) for d in dims_b}
    p1 = [i for i in range(a.dim()) if i not in ca] + [C.wrap_dim(d, a.dim()) for d in dims_a]
    p2 = [C.wrap_dim(d, b.dim()) for d in dims_b] + [i for i in range(b.dim()) if i not in cb]
    rsizes = [t1.shape[i] for i in range(a.dim()) if i not in ca] + [t2.shape[i] for i in range(b.dim())
                                                                    if i not in cb]
    size1 = 1
    for i in range(a.dim()):
        if i not in ca:
            size1 *= t1.shape[i]
    size2 = 1
    for i in range(b.dim()):
        if i not in cb:
            size2 *= t2.shape[i]
    m1 = t1.permute(p1).reshape(size1, csize)
    m2 = t2.permute(p2).reshape(csize, size2)
    r = torch.mm(m1, m2).reshape(rsizes)
    return r if out is None else out.resize_(r.shape).copy_(r)


# ----------------------------------------------------------------------------- cov / corrcoef
def cov(input, *, correction=1, fweights=None, aweights=None):  # noqa: A002
    """ATen's cov: observations along dim 1, a weighted mean, the centred product by mm, divided by the
    degrees of freedom (a warning and 0 when they are not positive), squeezed."""
    torch = _torch()
    if input.dim() > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if input.dtype is torch.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w.dim() > 1:
            raise RuntimeError("cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{w.dim()} dimensions")
        if w.dtype.is_floating_point or w.dtype is torch.bool:
            raise RuntimeError("cov(): expected fweights to have integral dtype but got fweights with "
                               f"{_scalar(w.dtype)} dtype")
        if w.numel() != n:
            raise RuntimeError("cov(): expected fweights to have the same numel as there are observations in the "
                               f"input but got {w.numel()} != {n}")
        if n and not bool(w.min() >= 0):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw.dim() > 1:
            raise RuntimeError("cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aw.dim()} dimensions")
        if not aw.dtype.is_floating_point:
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{_scalar(aw.dtype)} dtype")
        if aw.numel() != n:
            raise RuntimeError("cov(): expected aweights to have the same numel as there are observations in the "
                               f"input but got {aw.numel()} != {n}")
        if n and not bool(aw.min() >= 0):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = aw if w is None else w * aw
    w_sum = w.sum() if w is not None else torch.tensor(n, dtype=torch.int64, device=x.device)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm_factor = torch.tensor(n - correction, dtype=torch.int64, device=x.device)
    elif correction == 0:
        norm_factor = w_sum
    elif aweights is None:
        norm_factor = w_sum - correction
    elif fweights is None and n == 1 and correction == 1:
        norm_factor = torch.tensor(0, dtype=torch.int64, device=x.device)  # numpy's answer, without rounding
    else:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    if bool(norm_factor <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm_factor.zero_()
    if n == 1 and (fweights is None) != (aweights is None):
        # one observation and one kind of weight: the centred value is exactly 0, as numpy gives (newer ATen
        # zeroes its input view in place here; the caller's tensor is left alone)
        x = torch.zeros_like(x)
        if not x.dtype.is_floating_point:
            x = x.to(torch.float32)
    else:
        x = x - avg.unsqueeze(1)
    c = torch.mm(x, (x * w if w is not None else x).t())
    return torch.true_divide(c, norm_factor).squeeze()


def corrcoef(input):  # noqa: A002
    if input.dim() > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:  # a single variable: nan for a covariance of nan, inf or 0, else 1
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


# ----------------------------------------------------------------------------- rot90
def rot90(input, k=1, dims=(0, 1)):  # noqa: A002
    """ATen's rot90 forward (a flip, a copy, transposed in place; k mod 4), one differentiable op under autograd:
    Rot90Backward0 (saves k and dims), whose backward is grad.rot90(-k, dims)."""
    torch = _torch()
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = input.dim()
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = dims
    if d0 == d1 or abs(d0 - d1) == n:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    if not -n <= d0 < n:
        raise RuntimeError(f"Rotation dim0 out of range, dim0 = {d0}")
    if not -n <= d1 < n:
        raise RuntimeError(f"Rotation dim1 out of range, dim1 = {d1}")
    m = (4 + (k % 4)) % 4
    with torch.no_grad():
        if m == 2:
            out = input.flip([d0, d1])
        elif m == 0:
            out = input.clone(memory_format=torch.contiguous_format)
        else:
            out = input.flip([d1] if m == 1 else [d0]).transpose(d0, d1)
    if C.needs_grad(input):
        from ..autograd import graph
        graph.attach("Rot90Backward0", [out], [input], lambda gs: (rot90(gs[0], -k, dims),),
                     saved={"dims": (d0, d1), "k": k})
    return out


# ----------------------------------------------------------------------------- kron
def _unsafe_view(t, shape):
    """at::_unsafe_view: t's storage seen with `shape` (only size-1 dims added or merged here), recorded as
    UnsafeViewBackward0 rather than as a view."""
    torch = _torch()
    sizes = tuple(t.shape)
    with torch.no_grad():
        out = t.detach().view(shape)
    if C.needs_grad(t):
        from ..autograd import graph
        graph.attach("UnsafeViewBackward0", [out], [t], lambda gs: (gs[0].reshape(sizes),),
                     saved={"self_sym_sizes": sizes})
    return out


def kron(input, other, *, out=None):  # noqa: A002
    """ATen's KronImpl: both operands padded to one rank and interleaved with size-1 dims, one broadcasting mul
    (the only allocation), viewed back as the Kronecker product."""
    torch = _torch()
    nd = max(input.dim(), other.dim())
    pa, pb = nd - input.dim(), nd - other.dim()
    a_shape, b_shape, r_shape = [], [], []
    for i in range(nd):
        sa = input.shape[i - pa] if i >= pa else 1
        sb = other.shape[i - pb] if i >= pb else 1
        a_shape += [sa, 1]
        b_shape += [1, sb]
        r_shape.append(sa * sb)
    r = _unsafe_view(torch.mul(_unsafe_view(input, a_shape), _unsafe_view(other, b_shape)), r_shape)
    return r if out is None else out.resize_(r.shape).copy_(r)
