# Where factories allocate and which float dtype they use when not told: torch.set_default_device,
# `with torch.device(...)` (a stack on top of it) and torch.set_default_dtype. SEMANTICS §6: these do not
# change torch.cuda.current_device(), `*_like` or `.cuda()`.
import _devicescope_C

from . import _device, _dtype
from ._device import CPU, as_device, from_key

_state = {"device": None, "dtype": _dtype.float32, "virtual": 0}


def reset():
    _state["device"] = None
    _device.entered.clear()
    _state["dtype"] = _dtype.float32
    _state["virtual"] = 0
    _engine_virtual(False)


def enter_virtual_mode(step):
    """devicescope.virtual_mode() entered (+1) or left (-1): inside, factories make virtual tensors and every
    device allocation is virtual (the engine's flag), so a training step runs shape-only."""
    _state["virtual"] += step
    _engine_virtual(_state["virtual"] > 0)


def _engine_virtual(on):
    _devicescope_C.set_virtual_device_allocations(on)


def virtual_mode():
    """Inside devicescope.virtual_mode(): factories make virtual tensors and value fills are skipped."""
    return _state["virtual"] > 0


def factory_device(device):
    """The device a factory allocates on: the explicit argument, else the innermost default."""
    if device is not None:
        return device
    if _device.entered:
        return _device.entered[-1]
    return _state["device"]  # None means cpu


def set_default_device(device):
    """torch.set_default_device: factories without device= allocate here (None restores cpu)."""
    _state["device"] = as_device(device)


def get_default_device():
    d = factory_device(None)
    if d is None:
        return CPU
    if d.type == "cuda" and d.index is None:
        return from_key(_devicescope_C.current_device())
    return d


def set_default_dtype(d):
    if not isinstance(d, _dtype.dtype):
        raise TypeError(f"set_default_dtype(): argument 'd' must be torch.dtype, not {type(d).__name__}")
    if not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type")
    _state["dtype"] = d


def get_default_dtype():
    return _state["dtype"]
