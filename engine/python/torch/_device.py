# torch.device: a value (type + optional index) with PyTorch's parsing, printing, equality and its
# context-manager use (`with torch.device("cuda:1"):` sets where factories allocate, SEMANTICS §6).
import _devicescope_C as _C

# Encoded form read by the C++ argument parser: cpu -1, cuda:i i, index-less cuda -2, meta -3.
_TYPE_KEY = {"cpu": -1, "cuda": -2, "meta": -3}


class device:
    __module__ = "torch"
    __slots__ = ("_type", "_index", "_key")

    def __new__(cls, type=None, index=None):  # noqa: A002 - PyTorch's parameter names
        if isinstance(type, device) and index is None:
            return type
        if type is None:
            raise TypeError("device() received an invalid combination of arguments - got (NoneType), but "
                            "expected one of:\n * (torch.device device)\n * (str type, int index = -1)\n")
        if isinstance(type, builtins_int) and not isinstance(type, builtins_bool) and index is None:
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            t, i = "cuda", type
        elif isinstance(type, str):
            if index is None:
                t, i = _C.parse_device(type)
            else:
                if not isinstance(index, builtins_int) or isinstance(index, builtins_bool):
                    raise TypeError(f"device(): argument 'index' must be int, not {_tname(index)}")
                t, i = _C.device_from_type_and_index(type, index)
        else:
            raise TypeError(f"device(): argument 'type' must be str, not {_tname(type)}")
        return _make(t, i)

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __ne__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return not (self._type == other._type and self._index == other._index)

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return (device, (self._type,) if self._index is None else (self._type, self._index))

    # `with torch.device("cuda:1"):` - factories without device= allocate there (not the current device).
    def __enter__(self):
        entered.append(self)
        return self

    def __exit__(self, *exc):
        if entered:
            entered.pop()
        return False


# The `with torch.device(...)` blocks being run, innermost last: torch._default reads it (it sits above this
# module), so entering a device needs nothing from there.
entered = []


builtins_int = int
builtins_bool = bool


def _tname(v):
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _make(t, i):
    d = object.__new__(device)
    d._type = t
    d._index = i
    # The engine key (cpu:N is the CPU for the engine, as in PyTorch release builds).
    d._key = i if (t == "cuda" and i is not None) else _TYPE_KEY[t]
    return d


CPU = _make("cpu", None)
# engine key -> device, filled on first use: Tensor.device and _core.device_of read it directly (one dict
# lookup per call instead of a from_key call; they run for nearly every op)
BY_KEY = {-1: CPU}


def from_key(key):
    """The device for an engine device key (TensorImpl.device_key); cached, so cheap per call."""
    d = BY_KEY.get(key)
    if d is None:
        d = _make("cuda", key) if key >= 0 else (_make("cuda", None) if key == -2 else _make("meta", None))
        BY_KEY[key] = d
    return d


def as_device(v):
    """A torch.device from a device argument (device, str, int); None stays None."""
    if v is None or isinstance(v, device):
        return v
    return device(v)
