# torch.finfo / torch.iinfo: the numeric limits of a dtype as PyTorch reports them (Python floats and ints;
# reprs with %g, as THPFInfo_str prints them). Scripts use them for masks (torch.finfo(dtype).min) and eps.
import math

from . import _dtype as D
from ._default import get_default_dtype

_FLOATS = {  # bits, eps, max, tiny
    "float32": (32, 2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126),
    "float64": (64, 2.0 ** -52, (2 - 2.0 ** -52) * 2.0 ** 1023, 2.0 ** -1022),
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14),
    "bfloat16": (16, 2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126),
}
_INTS = {"int64": 64, "int32": 32, "int16": 16, "int8": 8, "uint8": 8}


def _name(dtype):
    return str(dtype).replace("torch.", "")


def _check_dtype(fn, dtype):
    if not isinstance(dtype, D.dtype):
        raise TypeError(f"{fn}(): argument 'type' (position 1) must be torch.dtype, not {type(dtype).__name__}")


class finfo:
    __module__ = "torch"

    def __init__(self, type=None):  # noqa: A002
        dtype = get_default_dtype() if type is None else type
        _check_dtype("finfo", dtype)
        name = _name(dtype)
        if name not in _FLOATS:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        self.bits, self.eps, self.max, self.tiny = _FLOATS[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    __module__ = "torch"

    def __init__(self, type):  # noqa: A002
        _check_dtype("iinfo", type)
        name = _name(type)
        if name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if name not in _INTS:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        self.bits = _INTS[name]
        self.min, self.max = (0, 255) if name == "uint8" else (-2 ** (self.bits - 1), 2 ** (self.bits - 1) - 1)
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"
