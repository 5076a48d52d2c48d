# Shared machinery of the numpy-backed ops: reading and writing tensor values, making result tensors on
# the inputs' device, PyTorch's device checks and type promotion, broadcasting with PyTorch's messages.
import os

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .._fp_quiet import fp_quiet
from .._device import BY_KEY as _BY_KEY, from_key
from .._scratch import scratch
from .._virtual_values import VirtualValues, VIRTUAL_READ
from ..autograd import grad_mode

_BF16 = 3
_BOOL = D.bool._code
_BY_CODE = D.BY_CODE
_new = object.__new__
# DEVICESCOPE_NO_FAST_OPS=1: the Python path only (torch/_fast_ops.py), also for the C++ kernels that check this
# (relu's and nll_loss's), so tests/fastpath compares the two paths in one build
FAST_KERNELS = os.environ.get("DEVICESCOPE_NO_FAST_OPS") != "1"
_ndarray = np.ndarray
# make's and new_empty's plain case in one C call (engine/python/fast_make.cpp); DEVICESCOPE_NO_FAST_OPS=1 keeps the
# Python path for tests/fastpath to compare with (as does a binary without them)
_fast_make = getattr(_E, "fast_make", None) if FAST_KERNELS else None
_fast_make = _fast_make or (lambda values, code, device: None)
_fast_empty = getattr(_E, "fast_empty", None) if FAST_KERNELS else None
_fast_empty = _fast_empty or (lambda shape, code, device: None)

Tensor = None  # set by torch._tensor (import cycle)


def wrap(impl, cls=None):
    t = _new(cls or Tensor)
    t._impl = impl
    return t


def is_tensor(x):
    return isinstance(x, Tensor)


def dtype_of(t):
    return _BY_CODE[t._impl.dtype_code]


def device_of(t):
    k = t._impl.device_key
    d = _BY_KEY.get(k)
    return d if d is not None else from_key(k)


# ----------------------------------------------------------------------------- values
def _bf16_to_f32(raw):
    # (through a 1-d array: numpy cannot change a 0-dim array's dtype to another itemsize)
    return (raw.astype(np.uint32).reshape(-1) << 16).view(np.float32).reshape(raw.shape)


def _f32_to_bf16(values):
    f = np.ascontiguousarray(values, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    if nan.any():
        rounded[nan] = 0x7FC0
    return rounded


def read(t):
    """The tensor's values as a numpy array (a view for host/simulated memory; bfloat16 as float32 copy).
    A virtual tensor reads as shape-only values (torch/_virtual_values.py): the op runs as on real values
    and allocates the same, but computes nothing."""
    impl = t._impl
    if impl.is_virtual:
        return VirtualValues(impl.sizes, np.float32 if impl.dtype_code == _BF16 else D.BY_CODE[impl.dtype_code]._np)
    arr, _ = _E.numpy_view(impl)
    if t._impl.dtype_code == _BF16:
        return _bf16_to_f32(arr)
    return arr


def write(t, values, bump=True):
    """Writes values (broadcast to t's shape, cast like PyTorch's copy) into t's memory. A virtual t stores
    nothing; shape-only values cannot be written into a real t (its values would be unknown)."""
    if t._impl.is_virtual or isinstance(values, VirtualValues):
        if not t._impl.is_virtual:
            raise RuntimeError(VIRTUAL_READ + " (its values cannot be written into a real tensor)")
        np.broadcast_shapes(np.shape(values), tuple(t._impl.sizes))
        if bump:
            t._impl.bump_version()
        return
    view, is_copy = _E.numpy_view(t._impl)
    code = t._impl.dtype_code
    if code != _BF16 and code != _BOOL:
        values = np.asarray(values)
        if values.dtype == view.dtype:
            view[...] = values  # a plain copy: no floating-point error to silence
        else:
            # float -> integer casts truncate toward zero (numpy's astype does the same); NaN/inf become
            # garbage in PyTorch too, so no special care
            with fp_quiet():
                view[...] = values.astype(view.dtype)
    else:
        with fp_quiet():
            if code == _BF16:
                view[...] = _f32_to_bf16(np.broadcast_to(np.asarray(values, dtype=np.float32), view.shape))
            else:
                view[...] = np.asarray(values) != 0
    if is_copy:
        _E.upload(t._impl, view)
    if bump:
        t._impl.bump_version()


_INT64_MAX = 2 ** 63 - 1


def check_storage_size(shape, dtype):
    """c10's computeStorageNbytes: a byte size that overflows int64 is refused, never allocated short."""
    nbytes = dtype.itemsize
    for s in shape:
        if s < 0:
            return  # the engine reports negative dimensions with PyTorch's message
        nbytes *= s
    if nbytes > _INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")


def new_empty(shape, dtype, device, pin_memory=False, virtual=False):
    if not pin_memory and not virtual and type(shape) is tuple:
        t = _fast_empty(shape, dtype._code, device)  # the plain case in one call (engine/python/fast_make.cpp)
        if t is not None:
            return t
    check_storage_size(shape, dtype)
    if dtype._code >= len(D.BY_CODE):
        raise NotImplementedError("DeviceScope does not model complex tensors")
    if pin_memory and _E.device_count() == 0:
        raise RuntimeError("No CUDA GPUs are available")
    return wrap(_E.empty(tuple(shape), dtype._code, device, pin_memory, virtual))


def make(values, dtype, device):
    """A new tensor on `device` (a torch.device, or None for cpu) holding `values` converted to dtype.
    Shape-only values (a virtual operand's) give a virtual tensor: the same allocation, no bytes."""
    if type(values) is _ndarray:
        code = dtype._code
        t = _fast_make(values, code, device)  # the plain case in one call (engine/python/fast_make.cpp)
        if t is not None:
            return t
        if values.size and code != _BF16 and code != _BOOL and values.dtype != dtype._np:
            # values computed in another dtype (float64 math for a float32 result): the cast write() would
            # make, the same bits, then the one-call path
            with fp_quiet():
                cast = values.astype(dtype._np, order="C")
            t = _fast_make(cast, code, device)
            if t is not None:
                return t
    elif isinstance(values, VirtualValues):
        return wrap(_E.empty(values.shape, dtype._code, device, False, True))
    values = np.asarray(values)
    impl = _E.empty(values.shape, dtype._code, device, False, False)
    # (inside devicescope.virtual_mode() the engine makes every device allocation virtual: nothing to write)
    if values.size == 0 or impl.is_virtual:
        return wrap(impl)  # nothing to write (an empty tensor's strides need not look contiguous to numpy)
    if dtype._code != _BF16 and values.dtype == dtype._np and values.flags.c_contiguous:
        _E.write_contiguous(impl, values)
        return wrap(impl)
    t = wrap(impl)
    write(t, values, bump=False)
    return t


def make_pointwise(values, dtype, device, operands):
    """The result of a pointwise op over `operands`, laid out as TensorIterator lays it out (a transposed
    input gives a transposed result); plain contiguous when every tensor operand is contiguous."""
    from . import layout
    tensors = [t._impl for t in operands if isinstance(t, Tensor)]
    # Operands with row-major strides (size-1 dims included) always give a row-major result; a contiguous
    # tensor with other strides on a size-1 dim can order the result's dims otherwise in ATen.
    if all(i.is_contiguous and (1 not in i.sizes or tuple(i.strides) == layout.contiguous_strides(i.sizes))
           for i in tensors):
        return make(values, dtype, device)
    if not isinstance(values, VirtualValues):
        values = np.asarray(values)
    # numbers take part as TensorIterator's wrapped 0-dim operands (they make the shapes differ)
    strides = layout.pointwise_strides(values.shape, [(t._impl.sizes, t._impl.strides, dtype_of(t).itemsize)
                                                      if isinstance(t, Tensor) else ((), (), 0)
                                                      for t in operands if t is not None])
    if strides == layout.contiguous_strides(values.shape):
        return make(values, dtype, device)
    return make_strided(values, dtype, device, strides)


def make_strided(values, dtype, device, strides):
    """A new tensor holding `values` with the given (dense) strides."""
    numel = int(np.prod(values.shape, dtype=np.int64))
    flat = _E.empty((numel,), dtype._code, device, False, isinstance(values, VirtualValues))
    t = wrap(_E.as_strided(flat, tuple(values.shape), tuple(strides), 0))
    if numel and not flat.is_virtual:
        write(t, values, bump=False)
    return t


def compute_dtype(dtype):
    """numpy dtype the math runs in: half and bfloat16 compute in float32, like PyTorch's kernels."""
    if dtype._code in (2, 3):
        return np.float32
    return dtype._np


# ----------------------------------------------------------------------------- devices
def elementwise_device(tensors, outputs=()):
    """TensorIterator's rule: the first non-CPU device is common; 0-dim CPU tensors may join it.

    Returns the device of the result (a torch.device) and raises PyTorch's error on a mismatch.
    """
    common = None
    for t in tensors:
        k = t._impl.device_key
        if k != -1:
            common = k
            break
    if common is None:
        return from_key(-1)
    for t in outputs:
        k = t._impl.device_key
        if k != common:
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{from_key(common)} and {from_key(k)}!")
    for t in tensors:
        k = t._impl.device_key
        if k == common or (k == -1 and t._impl.dim == 0):
            continue
        raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                           f"{from_key(common)} and {from_key(k)}!")
    return from_key(common)


def check_same_device(method, named):
    """c10's argument check for ops like addmm: the first tensor fixes the common device; the first one
    elsewhere is named. The kernel is CUDA's when any argument is on CUDA."""
    common = None
    for _, t in named:
        if t is not None:
            common = t._impl.device_key
            break
    if common is None:
        return from_key(-1)
    for name, t in named:
        if t is not None and t._impl.device_key != common:
            any_cuda = any(x is not None and x._impl.device_key >= 0 for _, x in named)
            wrapper = ("wrapper_CUDA_" if any_cuda else "wrapper_CPU_") + method
            raise RuntimeError("Expected all tensors to be on the same device, but got "
                               f"{name} is on {from_key(t._impl.device_key)}, different from other tensors on "
                               f"{from_key(common)} (when checking argument in method {wrapper})")
    return from_key(common)


# ----------------------------------------------------------------------------- dtypes
def _scalar_dtype(v):
    if isinstance(v, bool) or isinstance(v, np.bool_):
        return D.bool
    if isinstance(v, (int, np.integer)):
        return D.int64
    if isinstance(v, (float, np.floating)):
        return None  # the default float dtype, at the lowest priority
    raise TypeError(f"unsupported operand type: {type(v).__name__}")


def result_type(*operands):
    """torch.result_type: dimensioned tensors > zero-dim tensors > Python scalars, by category."""
    dim_t = zero_t = scalar_t = None
    for o in operands:
        if isinstance(o, Tensor):
            d = dtype_of(o)
            if o._impl.dim > 0:
                dim_t = d if dim_t is None else D.promote_types(dim_t, d)
            else:
                zero_t = d if zero_t is None else D.promote_types(zero_t, d)
        elif o is not None:
            d = _scalar_dtype(o)
            if d is None:
                from .._default import get_default_dtype
                d = get_default_dtype()
            scalar_t = d if scalar_t is None else D.promote_types(scalar_t, d)
    return _combine(dim_t, _combine(zero_t, scalar_t))


def _combine(higher, lower):
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_floating_point:
        return higher
    if higher is D.bool or lower.is_floating_point:
        return D.promote_types(higher, lower)
    return higher


def values_of(x, np_dtype):
    """Operand values for numpy in the compute dtype (tensors are read, scalars wrapped)."""
    if isinstance(x, Tensor):
        v = read(x)
        return v if v.dtype == np_dtype else v.astype(np_dtype)
    # through a wide array, so a number outside the dtype wraps as in PyTorch's cast (uint8 - 1)
    return np.asarray(x).astype(np_dtype)


# ----------------------------------------------------------------------------- shapes
def broadcast_shapes(*shapes):
    """TensorIterator's compute_shape: the operands' shapes folded pairwise, left to right (infer_size)."""
    out = None
    for s in shapes:
        out = tuple(s) if out is None else _infer_size(out, s)
    return () if out is None else out


def _infer_size(a, b):
    """ATen's infer_size: aligned at the last dim, compared from the last one, so the message names the
    first mismatch from the right with its index in the result."""
    ndim = max(len(a), len(b))
    res = [0] * ndim
    for i in range(ndim - 1, -1, -1):
        off = ndim - 1 - i
        da, db = len(a) - 1 - off, len(b) - 1 - off
        sa = a[da] if da >= 0 else 1
        sb = b[db] if db >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                               f"non-singleton dimension {i}")
        res[i] = sb if sa == 1 else sa
    return tuple(res)


def shape_of(x):
    return x._impl.sizes if isinstance(x, Tensor) else ()


def wrap_dim(dim, ndim):
    """PyTorch's dimension wrapping with its IndexError text."""
    if hasattr(dim, "__index__") and not isinstance(dim, bool):
        dim = dim.__index__()
    else:
        raise TypeError(f"dim must be int, not {type(dim).__name__}")
    n = max(ndim, 1)
    if dim < -n or dim >= n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def dims_arg(dim, ndim):
    """A dim argument that may be None, an int or a sequence -> a sorted tuple of wrapped dims (or None)."""
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        dims = tuple(wrap_dim(d, ndim) for d in dim)
        seen = set()
        for d in dims:
            if d in seen:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            seen.add(d)
        return tuple(sorted(dims))
    return (wrap_dim(dim, ndim),)


_fast_sum_keepdim = getattr(_E, "fast_sum_keepdim", None) if FAST_KERNELS else None
_fast_sum_keepdim = _fast_sum_keepdim or (lambda t, dims: None)


def sum_to_shape(t, shape):
    """Reduces a broadcast gradient back to `shape` (sum over the broadcast dims)."""
    tshape = t._impl.sizes
    if tuple(tshape) == tuple(shape):
        return t
    if not shape and len(tshape) == 1 and not grad_mode._enabled[0]:
        # a 1-D gradient of a 0-dim operand (w * x with a scalar parameter w): its sum, through the fast path's
        # x.sum() (np.sum's order, one 1-element allocation as sum(keepdim=True) + view makes). Under create_graph
        # the general path keeps PyTorch's SumBackward1 + view nodes.
        return t.sum()
    lead = len(tshape) - len(shape)
    dims = list(range(lead))
    for i, n in enumerate(shape):
        if n == 1 and tshape[lead + i] != 1:
            dims.append(lead + i)
    out = t
    if dims:
        # outside autograd, a contiguous float32/float64 gradient whose last dim is kept: one C call
        # (engine/python/fast_make.cpp fast_sum_keepdim: np.sum's values and order, the same one allocation)
        out = _fast_sum_keepdim(t, dims) if not grad_mode._enabled[0] else None
        if out is None:
            from . import reduction
            out = reduction.sum(t, dims, keepdim=True)
    if lead:
        from . import shape as S
        out = S.reshape(out, tuple(shape))
    elif tuple(out._impl.sizes) != tuple(shape):
        from . import shape as S
        out = S.reshape(out, tuple(shape))
    return out


def needs_grad(*tensors):
    if not grad_mode._enabled[0]:
        return False
    for t in tensors:
        if t is not None and isinstance(t, Tensor) and (t._grad_fn is not None or t._requires_grad):
            return True
    return False


def check_virtual(*tensors, what=None):
    """For ops whose result depends on values (nonzero, unique, item(), ...): virtual operands are refused
    (`what` names the reader in the message). Ops that only need shapes run on virtual tensors through
    shape-only values (read)."""
    for t in tensors:
        if isinstance(t, Tensor) and t._impl.is_virtual:
            raise RuntimeError(VIRTUAL_READ + (f" ({what} depends on its values)" if what else ""))


def shape_only(*values):
    """Whether any of these host values are a virtual tensor's shape-only values: value checks (index bounds,
    division by zero) are skipped for them, as a CUDA kernel defers them to the device."""
    for v in values:
        if isinstance(v, VirtualValues):
            return True
    return False


def as_array(values, dtype=None):
    """np.asarray(values, dtype) that keeps shape-only values shape-only (numpy's asarray would ask for the
    values)."""
    if isinstance(values, VirtualValues):
        return values if dtype is None else values.astype(dtype)
    return np.asarray(values, dtype=dtype)


def host_zeros(shape, np_dtype, *grads):
    """np.zeros(shape) for a backward that scatters its gradient into zeros; shape-only values when a gradient
    is virtual (the scatter then stores nothing)."""
    for g in grads:
        if g is not None and (isinstance(g, VirtualValues) or (isinstance(g, Tensor) and g._impl.is_virtual)):
            return VirtualValues(shape, np_dtype)
    return np.zeros(shape, dtype=np_dtype)


def elementwise_compute(compute, *values):
    """compute(*values) for an elementwise op; with shape-only operands the result is shape-only values of
    the broadcast shape (the compute, however it is written, is never run)."""
    if shape_only(*values):
        return VirtualValues(np.broadcast_shapes(*(np.shape(v) if not isinstance(v, VirtualValues) else v.shape
                                                   for v in values)), values[0].dtype)
    with fp_quiet():
        return compute(*values)


def check_inplace(t):
    """PyTorch refuses in-place ops on a leaf that requires grad, or on a view of one, while grad mode is on."""
    if grad_mode._enabled[0]:
        if t._grad_fn is None and t._requires_grad:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        base = t._base
        if base is not None:
            if base._grad_fn is None and base._requires_grad:
                raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                                   "operation.")
            node = type(t._grad_fn).__name__
            if node in _MULTI_VIEW_NODES:
                raise RuntimeError(f"Output {t._output_nr} of {node} is a view and is being modified inplace. This "
                                   "view is the output of a function that returns multiple views. Such functions do "
                                   "not allow the output views to be modified inplace. You should replace the inplace "
                                   "operation by an out-of-place one.")


# The views of split/chunk/unbind (CreationMeta::MULTI_OUTPUT_NODE): no in-place op under autograd
_MULTI_VIEW_NODES = frozenset(("SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0"))


# ----------------------------------------------------------------------------- kernel results
def materialize(t):
    """A real allocation holding t's values without history: empty_like(t) (a dense layout is kept, as
    empty_like's preserve_format does; anything else becomes contiguous) and a copy inside the device, which
    records no transfer. Inside a scratch scope the allocation is scratch too."""
    from .layout import is_non_overlapping_and_dense
    impl = t._impl
    if is_non_overlapping_and_dense(impl.sizes, impl.strides):
        base = new_empty((impl.numel,), dtype_of(t), device_of(t), False, impl.is_virtual)
        out = wrap(_E.as_strided(base._impl, impl.sizes, impl.strides, 0))
    else:
        out = new_empty(tuple(impl.sizes), dtype_of(t), device_of(t), False, impl.is_virtual)
    if impl.numel:
        _E.copy_(out._impl, impl, False)
    return out


def fill(dst, src):
    """Copies src's values into dst (same device; no transfer is recorded) and returns dst."""
    if dst._impl.numel:
        _E.copy_(dst._impl, src._impl, False)
    return dst


def one_kernel(fn, *args):
    """fn(*args) as the one ATen kernel PyTorch runs for it (threshold_backward, tanh_backward, ...): its
    intermediates are scratch and its result one real allocation. Under create_graph (grad mode on during
    backward) the ops themselves run, so that double backward has its graph."""
    if grad_mode._enabled[0]:
        return fn(*args)
    with scratch():
        r = fn(*args)
    return materialize(r)
