# c10::checked_convert: a Python number that becomes an element of a tensor's dtype through a Scalar (fill_,
# full, masked_fill, index_fill, x[i] = v, clamp's bounds, add's alpha) is refused when it does not fit, in ATen's
# words: "value cannot be converted to type float without overflow". A number that meets a tensor through
# arithmetic (x + 1e39) is not checked: it is wrapped in a 0-dim double tensor and cast, and gives inf.
# The rules are c10's overflows<To, From>: a Python float (a double) overflows a floating dtype when finite and
# beyond its range (inf and NaN pass), an integer dtype when NaN, infinite or outside [lowest, max] compared as
# doubles; a Python int (an int64) overflows when outside the dtype's range, except that an unsigned dtype takes
# negatives down to -max (two's complement wrap: -255 fills a uint8 with 1); a bool never overflows, nor does
# anything become a bool. torch.tensor(300, dtype=torch.int8) checks the same way under other names ("int8").
import math

import numpy as np

from .. import _dtype as D

# The C++ type each dtype's Scalar accessor is declared with (AT_FORALL_SCALAR_TYPES_WITH_COMPLEX's #type).
_ATEN_NAMES = {D.float32: "float", D.float64: "double", D.float16: "at::Half", D.bfloat16: "at::BFloat16",
               D.int64: "int64_t", D.int32: "int", D.int16: "int16_t", D.int8: "int8_t", D.uint8: "uint8_t"}
# torch.tensor's store_scalar (python_scalars.h) names the integer types itself.
_TENSOR_NAMES = {D.int64: "int64", D.int32: "int32", D.int16: "int16", D.int8: "int8", D.uint8: "uint8"}

_FLOAT_MAX = {D.float32: float(np.finfo(np.float32).max), D.float64: float(np.finfo(np.float64).max),
              D.float16: 65504.0, D.bfloat16: 3.3895313892515355e38}
_INT_RANGE = {D.int64: (-2 ** 63, 2 ** 63 - 1), D.int32: (-2 ** 31, 2 ** 31 - 1), D.int16: (-2 ** 15, 2 ** 15 - 1),
              D.int8: (-128, 127), D.uint8: (0, 255)}


def _overflows(value, dtype):
    if isinstance(value, (bool, np.bool_)) or dtype is D.bool:
        return False
    if isinstance(value, (int, np.integer)):
        v = int(value)
        if dtype.is_floating_point:
            return dtype in (D.float16, D.bfloat16) and abs(v) > _FLOAT_MAX[dtype]
        lo, hi = _INT_RANGE[dtype]
        if lo == 0 and v < 0:  # an unsigned dtype: a negative wraps, down to -max
            return -v > hi
        return v < lo or v > hi
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if dtype.is_floating_point:
            return not math.isinf(f) and not math.isnan(f) and abs(f) > _FLOAT_MAX[dtype]
        if math.isnan(f):
            return True
        lo, hi = _INT_RANGE[dtype]
        return f < float(lo) or f > float(hi)  # as doubles: 2.0 ** 63 itself passes for int64, as in C++
    return False  # complex and anything else: not modelled here


def check(value, dtype):
    """Raises ATen's overflow error when the number `value` cannot become an element of `dtype` (and the
    argument parser's when a Python int does not fit the int64 a Scalar holds)."""
    if type(value) is int and not -2 ** 63 <= value < 2 ** 63:
        raise RuntimeError("Overflow when unpacking long")
    if _overflows(value, dtype):
        raise RuntimeError(f"value cannot be converted to type {_ATEN_NAMES[dtype]} without overflow")
    return value


def check_tensor_data(values, dtype):
    """torch.tensor's per-element check of Python data (`values`: the array made of it) for an integer dtype;
    floating ones are stored unchecked there, and so is a bool."""
    if dtype not in _TENSOR_NAMES or values.size == 0:
        return
    if values.dtype.kind in "uO":  # numpy's array of a Python int beyond int64 (uint64 or object)
        raise RuntimeError("Overflow when unpacking long")
    if values.dtype.kind not in "if" or (dtype is D.int64 and values.dtype.kind == "i"):
        return  # (numpy made an int64 array of the ints: they fit)
    lo, hi = _INT_RANGE[dtype]
    if values.dtype.kind == "f":
        bad = bool(np.isnan(values).any()) or values.min() < float(lo) or values.max() > float(hi)
    else:
        low = values.min()
        bad = values.max() > hi or (-int(low) > hi if lo == 0 else low < lo)
    if bad:
        raise RuntimeError(f"value cannot be converted to type {_TENSOR_NAMES[dtype]} without overflow")
