# torch.accelerator (PyTorch 2.6): the device-generic API. DeviceScope's accelerator is CUDA (simulated or real
# devices); with no device, current_accelerator() is None and the rest behaves as PyTorch does without one.
import _devicescope_C as _E

__all__ = ["current_accelerator", "current_device_idx", "current_device_index", "current_stream", "device_count",
           "is_available", "set_device_idx", "set_device_index", "set_stream", "synchronize",
           "empty_cache", "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
           "memory_stats", "reset_peak_memory_stats", "reset_accumulated_memory_stats", "device_index"]


def device_count():
    return _E.device_count()


def is_available():
    return device_count() > 0


def current_accelerator(check_available=False):
    from ._device import device
    if check_available and not is_available():
        return None
    return device("cuda") if _E.device_count() > 0 else None


def _require():
    if _E.device_count() == 0:
        raise RuntimeError("Accelerator device not found")


def _index(device):
    from . import cuda
    if device is None:
        return _E.current_device()
    return cuda._index(device, optional=False)


def current_device_index():
    _require()
    return _E.current_device()


current_device_idx = current_device_index


def set_device_index(device):
    _require()
    from . import cuda
    cuda.set_device(device)


set_device_idx = set_device_index


def current_stream(device=None):
    _require()
    from . import cuda
    return cuda.current_stream(device)


def set_stream(stream):
    _require()
    from . import cuda
    cuda.set_stream(stream)


def synchronize(device=None):
    _require()
    from . import cuda
    cuda.synchronize(device)


class device_index:
    """`with torch.accelerator.device_index(i):` runs the block with device i current (None: no change)."""

    def __init__(self, device):
        self.idx = device
        self.prev = None

    def __enter__(self):
        if self.idx is not None:
            _require()
            self.prev = _E.current_device()
            _E.set_device(self.idx)

    def __exit__(self, *exc):
        if self.prev is not None:
            _E.set_device(self.prev)


def _cuda_memory(name):
    def fn(device_index=None):
        from . import cuda
        return getattr(cuda, name)(device_index)
    fn.__name__ = name
    return fn


empty_cache = lambda: __import__("torch").cuda.empty_cache()  # noqa: E731
memory_allocated = _cuda_memory("memory_allocated")
max_memory_allocated = _cuda_memory("max_memory_allocated")
memory_reserved = _cuda_memory("memory_reserved")
max_memory_reserved = _cuda_memory("max_memory_reserved")
memory_stats = _cuda_memory("memory_stats")
reset_peak_memory_stats = _cuda_memory("reset_peak_memory_stats")


def reset_accumulated_memory_stats(device_index=None):
    from . import cuda
    if hasattr(cuda, "reset_accumulated_memory_stats"):
        cuda.reset_accumulated_memory_stats(device_index)


def _generic_event_class():
    from .cuda.streams import Event as _CudaEvent

    class Event(_CudaEvent):
        """torch.Event(device=None, *, enable_timing=False, blocking=False, interprocess=False)."""
        __module__ = "torch"

        def __init__(self, device=None, *, enable_timing=False, blocking=False, interprocess=False):
            super().__init__(enable_timing=enable_timing, blocking=blocking, interprocess=interprocess)
            self.device = device
    return Event
