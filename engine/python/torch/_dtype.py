# torch.dtype: one object per scalar type (so `t.dtype is torch.float32` holds), printed as torch.float32.
# Codes match ds::DType (engine/core/dtype.h); numpy types are what the ops compute with.
import numpy as np


class dtype:
    __module__ = "torch"
    __slots__ = ("_code", "_name", "is_floating_point", "is_complex", "is_signed", "itemsize", "_legacy",
                 "_np")

    def __init__(self, code, name, is_float, is_signed, itemsize, legacy, np_type):
        self._code = code
        self._name = name
        self.is_floating_point = is_float
        self.is_complex = False
        self.is_signed = is_signed
        self.itemsize = itemsize
        self._legacy = legacy
        self._np = np_type

    def __repr__(self):
        return "torch." + self._name

    __str__ = __repr__

    def __reduce__(self):
        return self._name

    def to_real(self):
        return self

    def to_complex(self):
        raise RuntimeError(f"Unsupported dtype {self}")

    def __hash__(self):
        return hash(("torch.dtype", self._code))

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other


float32 = dtype(0, "float32", True, True, 4, "FloatTensor", np.float32)
float64 = dtype(1, "float64", True, True, 8, "DoubleTensor", np.float64)
float16 = dtype(2, "float16", True, True, 2, "HalfTensor", np.float16)
bfloat16 = dtype(3, "bfloat16", True, True, 2, "BFloat16Tensor", np.float32)  # computed in float32
int64 = dtype(4, "int64", False, True, 8, "LongTensor", np.int64)
int32 = dtype(5, "int32", False, True, 4, "IntTensor", np.int32)
int16 = dtype(6, "int16", False, True, 2, "ShortTensor", np.int16)
int8 = dtype(7, "int8", False, True, 1, "CharTensor", np.int8)
uint8 = dtype(8, "uint8", False, False, 1, "ByteTensor", np.uint8)
bool = dtype(9, "bool", False, False, 1, "BoolTensor", np.bool_)  # noqa: A001 - torch.bool

float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

ALL = (float32, float64, float16, bfloat16, int64, int32, int16, int8, uint8, bool)

# Complex dtypes exist as objects (code that inspects them keeps working); DeviceScope stores no complex
# values, so creating a complex tensor raises NotImplementedError.
complex64 = dtype(10, "complex64", False, True, 8, "ComplexFloatTensor", np.complex64)
complex128 = dtype(11, "complex128", False, True, 16, "ComplexDoubleTensor", np.complex128)
complex32 = dtype(12, "complex32", False, True, 4, "ComplexHalfTensor", np.complex64)
for _c in (complex64, complex128, complex32):
    _c.is_complex = True
cfloat = complex64
cdouble = complex128
chalf = complex32
BY_CODE = ALL  # ALL[code] is the dtype with that code

_FROM_NUMPY = {
    np.dtype(np.float32): float32, np.dtype(np.float64): float64, np.dtype(np.float16): float16,
    np.dtype(np.int64): int64, np.dtype(np.int32): int32, np.dtype(np.int16): int16,
    np.dtype(np.int8): int8, np.dtype(np.uint8): uint8, np.dtype(np.bool_): bool,
}


def from_numpy_dtype(np_dtype):
    d = _FROM_NUMPY.get(np.dtype(np_dtype))
    if d is None:
        raise TypeError(f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported "
                        "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool.")
    return d


# Type promotion (c10/core/ScalarType.h promoteTypes), over the categories bool < integer < floating.
def _category(d):
    if d is bool:
        return 0
    if not d.is_floating_point:
        return 1
    return 2


_INT_ORDER = {uint8: 0, int8: 1, int16: 2, int32: 3, int64: 4}


def promote_types(a, b):
    if a is b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {float16, bfloat16}:
            return float32
        order = {float16: 0, bfloat16: 0, float32: 1, float64: 2}
        return a if order[a] >= order[b] else b
    # integers: uint8 with a signed type needs the next wider signed type
    if a is uint8 or b is uint8:
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if _INT_ORDER[a] >= _INT_ORDER[b] else b
