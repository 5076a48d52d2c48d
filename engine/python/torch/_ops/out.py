# PyTorch's `out=` contract, in one place: the op is computed from its inputs, then written into `out` after
# the device check, the op family's dtype rule, the overlap checks and a resize (with ATen's deprecation
# warning when a non-empty `out` had another shape); the caller gets `out` itself back.
import os
import sys
import warnings

import _devicescope_C as _E

from .. import _dtype as D
from ..autograd import grad_mode
from . import _core as C
from . import layout
from . import overlap

# ScalarType names (c10::toString) and TypeMeta names (what "Expected out tensor to have dtype ..." prints).
SCALAR_NAMES = {0: "Float", 1: "Double", 2: "Half", 3: "BFloat16", 4: "Long", 5: "Int", 6: "Short", 7: "Char",
                8: "Byte", 9: "Bool"}
TYPEMETA_NAMES = {0: "float", 1: "double", 2: "c10::Half", 3: "c10::BFloat16", 4: "long int", 5: "int",
                  6: "short int", 7: "signed char", 8: "unsigned char", 9: "bool"}


def scalar_name(d):
    return SCALAR_NAMES[d._code]


def type_string(t):
    """Tensor::toString() as ATen's messages print it: the legacy type name (torch.FloatTensor,
    torch.cuda.LongTensor) where one exists, else the dispatch key and scalar type (CPUBoolType)."""
    dt = C.dtype_of(t)
    cuda = t._impl.device_key >= 0
    if dt in (D.bool, D.bfloat16):
        return ("CUDA" if cuda else "CPU") + scalar_name(dt) + "Type"
    return ("torch.cuda." if cuda else "torch.") + dt._legacy


def can_cast(src, dst):
    """c10::canCast: no floating -> integral, nothing non-bool -> bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    if src is not D.bool and dst is D.bool:
        return False
    return True


def _contiguous_strides(shape):
    out = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        out[i] = out[i + 1] * max(shape[i + 1], 1)
    return tuple(out)


def resize_(t, shape):
    """Tensor.resize_: contiguous strides for `shape` at the same offset; a storage too small for them grows in
    place, keeping its bytes, so every view of it sees the new bytes (Note [Growing a storage])."""
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    impl = t._impl
    if tuple(impl.sizes) == shape:
        return t
    numel = 1
    for s in shape:
        numel *= s
    need = (impl.offset + numel) * C.dtype_of(t).itemsize
    if numel and need > impl.storage_nbytes:
        impl.grow_storage(need)
    impl.set_data(_E.as_strided(impl, shape, _contiguous_strides(shape), impl.offset))
    return t


_TORCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def warn_at_caller(message):
    """A UserWarning attributed to the first frame outside the torch package, as PyTorch's C++ warnings
    are attributed to the Python line that called the op (whatever the depth of DeviceScope's layers)."""
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(_TORCH_DIR):
        f = f.f_back
    if f is None:
        warnings.warn(message, UserWarning, stacklevel=2)
        return
    warnings.warn_explicit(message, UserWarning, f.f_code.co_filename, f.f_lineno,
                           module=f.f_globals.get("__name__", "__main__"),
                           registry=f.f_globals.setdefault("__warningregistry__", {}))


def resize_output(out, shape):
    """at::native::resize_output: warns when a non-empty out has another shape, then resizes it."""
    shape = tuple(shape)
    old = tuple(out._impl.sizes)
    if old == shape:
        return False
    if out._impl.numel != 0:
        warn_at_caller(f"An output with one or more elements was resized since it had shape {list(old)}, which "
                      f"does not match the required output shape {list(shape)}. This behavior is deprecated, and "
                      "in a future PyTorch release outputs will not be resized unless they have zero elements. You "
                      "can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                      "t.resize_(0).")
    resize_(out, shape)
    return True


def check_out_arg(name, out):
    if not isinstance(out, C.Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")


def check_no_grad(name, inputs, out):
    """Ops with out= are not differentiable: PyTorch refuses them when anything involved requires grad."""
    if not grad_mode._enabled[0]:
        return
    for x in list(inputs) + [out]:
        if isinstance(x, C.Tensor) and (x._requires_grad or x._grad_fn is not None):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")


def check_dtype(rule, result, out, input_dtype=None):
    """The op family's rule for out's dtype (`result` is the dtype the op computes)."""
    odt = C.dtype_of(out)
    if rule == "castable":
        if not can_cast(result, odt):
            raise RuntimeError(f"result type {scalar_name(result)} can't be cast to the desired output type "
                               f"{scalar_name(odt)}")
    elif rule == "exact":
        if result is not odt:
            raise RuntimeError(f"Expected out tensor to have dtype {TYPEMETA_NAMES[result._code]}, but got "
                               f"{TYPEMETA_NAMES[odt._code]} instead")
    elif rule == "same_as_input":
        if input_dtype is not odt:
            raise RuntimeError(f"Expected the dtype for input and out to match, but got {scalar_name(input_dtype)} "
                               f"for input's dtype and {scalar_name(odt)} for out's dtype.")
    elif rule == "index_select":
        if input_dtype is not odt:
            raise RuntimeError("index_select(): self and result must have the same scalar type")
    elif rule == "cat":
        if not can_cast(result, odt):
            raise RuntimeError(f"torch.cat(): input types can't be cast to the desired output type {scalar_name(odt)}")
    elif rule == "found":
        if result is not odt:
            raise RuntimeError(f"Found dtype {scalar_name(odt)} but expected {scalar_name(result)}")
    elif rule == "same_as_input_nan_to_num":
        if input_dtype is not odt:
            raise RuntimeError(f"nan_to_num: dtype of out: {scalar_name(odt)} should be same as input: "
                               f"{scalar_name(input_dtype)}")
    elif rule != "any":
        raise AssertionError(rule)


def check_device(result, out):
    rk, ok = result._impl.device_key, out._impl.device_key
    if rk != ok:
        from .._device import from_key
        raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                           f"{from_key(ok)} and {from_key(rk)}!")


def _restride_dense(out, strides):
    sizes = tuple(out._impl.sizes)
    if strides != _contiguous_strides(sizes) and layout.is_non_overlapping_and_dense(sizes, strides):
        out._impl.set_data(_E.as_strided(out._impl, sizes, tuple(strides), 0))


def resize_like(out, result):
    """Resizes out to the result's shape (warning as ATen does) and, when it was resized, gives it the
    result's layout, as TensorIterator lays out an output it allocates."""
    if resize_output(out, result._impl.sizes):
        _restride_dense(out, tuple(result._impl.strides))


def resize_like_pointwise(out, shape, operands):
    """resize_like for a pointwise op before it runs: the layout comes from the operands."""
    if resize_output(out, shape):
        descs = [(t._impl.sizes, t._impl.strides, C.dtype_of(t).itemsize) if isinstance(t, C.Tensor) else ((), (), 0)
                 for t in operands]
        _restride_dense(out, layout.pointwise_strides(shape, descs))


def store(result, out):
    """Writes a computed result into out (resized first when still needed), cast to out's dtype; returns out."""
    resize_like(out, result)
    C.write(out, C.read(result))
    return out


def write_out(name, compute, inputs, out, rule="castable", input_dtype=None, pointwise=True):
    """The whole out= path for an op whose out-of-place form is `compute()`."""
    check_out_arg(name, out)
    check_no_grad(name, inputs, out)
    if pointwise:
        overlap.check_write(out, inputs)
    else:
        overlap.assert_no_partial_overlap(out, inputs)
    result = compute()
    if isinstance(result, tuple):
        raise AssertionError("write_out takes single-tensor ops")
    check_device(result, out)
    check_dtype(rule, C.dtype_of(result), out, input_dtype)
    return store(result, out)
