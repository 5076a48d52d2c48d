# torch.cuda over DeviceScope's devices (simulated or real): availability, the current device, device
# contexts, synchronisation, caching-allocator statistics, streams and events, OutOfMemoryError.
# With CUDA turned off (--sim-devices 0) the calls fail like a CUDA build on a machine without a GPU.
import _devicescope_C as _E

from .._device import device as _device_cls
from .streams import Event, Stream, StreamContext, current_stream, default_stream, set_stream, stream  # noqa: F401
from . import amp  # noqa: F401
from . import _memory_stats  # noqa: E402

OutOfMemoryError = _E.OutOfMemoryError


class CudaError(RuntimeError):
    pass


def is_available():
    return _E.device_count() > 0


def device_count():
    return _E.device_count()


def is_initialized():
    return _E.device_count() > 0


def init():
    _lazy_init()


def _lazy_init():
    if _E.device_count() == 0:
        raise RuntimeError("No CUDA GPUs are available")


def current_device():
    return _E.current_device()


def _index(device, optional=True):
    """A device argument (int, str, torch.device, None) as a CUDA ordinal; None -> current device."""
    if device is None:
        return _E.current_device() if not optional else -1
    if isinstance(device, str):
        device = _device_cls(device)
    if isinstance(device, _device_cls):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        return device.index if device.index is not None else (_E.current_device() if not optional else -1)
    if isinstance(device, int):
        return device
    raise ValueError(f"Expected a cuda device, but got: {device}")


def set_device(device):
    idx = _index(device)
    if idx >= 0:
        _E.set_device(idx)


class device:
    """`with torch.cuda.device(1):` changes only the current CUDA device (SEMANTICS §6): index-less
    'cuda', .cuda() and device='cuda' go to it; factories without device= still allocate on the CPU."""

    def __init__(self, device):
        self.idx = _index(device)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev_idx = _E.current_device()
            if self.prev_idx != self.idx:
                _E.set_device(self.idx)
        return self

    def __exit__(self, *exc):
        if self.idx >= 0 and self.prev_idx >= 0 and self.prev_idx != self.idx:
            _E.set_device(self.prev_idx)
        return False


class device_of(device):
    def __init__(self, obj):
        idx = obj.get_device() if obj.is_cuda else -1
        super().__init__(idx)


def synchronize(device=None):
    _lazy_init()
    _E.synchronize(_index(device))


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


class _DeviceProperties:
    def __init__(self, info):
        self.name = info["name"]
        self.total_memory = info["total_memory"]
        self.major, self.minor = info["major"], info["minor"]  # sim: the link profile's architecture
        self.multi_processor_count = 132
        self.is_integrated = False
        self.is_multi_gpu_board = False
        self.simulated = info["simulated"]
        self.link = info["link"]

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, multi_processor_count="
                f"{self.multi_processor_count})")


def get_device_properties(device=None):
    _lazy_init()
    idx = _index(device, optional=False)
    return _DeviceProperties(_E.device_properties(idx))


def _dev_or_current(device):
    if _E.device_count() == 0:
        return None
    return _index(device)


# Caching-allocator statistics (SEMANTICS §8). Uninitialised CUDA (no devices) reports zeros, as PyTorch does.
def memory_allocated(device=None):
    d = _dev_or_current(device)
    return 0 if d is None else _E.memory_allocated(d)


def memory_reserved(device=None):
    d = _dev_or_current(device)
    return 0 if d is None else _E.memory_reserved(d)


def max_memory_allocated(device=None):
    d = _dev_or_current(device)
    return 0 if d is None else _E.max_memory_allocated(d)


def max_memory_reserved(device=None):
    d = _dev_or_current(device)
    return 0 if d is None else _E.max_memory_reserved(d)


memory_cached = memory_reserved
max_memory_cached = max_memory_reserved


def reset_peak_memory_stats(device=None):
    d = _dev_or_current(device)
    if d is not None:
        _E.reset_peak_memory_stats(d)
        _memory_stats.reset_peak_memory_stats(d)


reset_max_memory_allocated = reset_peak_memory_stats
reset_max_memory_cached = reset_peak_memory_stats
reset_accumulated_memory_stats = reset_peak_memory_stats


def empty_cache():
    if _E.device_count() > 0:
        _E.empty_cache()


def memory_stats(device=None):
    """PyTorch's keys (allocation/segment/active/inactive_split and their _bytes, requested_bytes, per pool, with
    current/peak/allocated/freed; num_alloc_retries, num_ooms, ...): see _memory_stats.py."""
    d = _dev_or_current(device)
    return {} if d is None else _memory_stats.memory_stats(d)


def mem_get_info(device=None):
    _lazy_init()
    return tuple(_E.mem_get_info(_index(device)))


def memory_summary(device=None, abbreviated=False):
    d = _dev_or_current(device)
    if d is None:
        return ""
    return _memory_stats.memory_summary(d, abbreviated)


def set_per_process_memory_fraction(fraction, device=None):
    if not 0 <= fraction <= 1:
        raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")


def ipc_collect():
    pass


# Random numbers: each device has its own generator (torch/_random.py cuda_generator); seeding them leaves the
# CPU generator alone, as in PyTorch
def _device_generator(device=None):
    from .. import _random
    from .._device import device as _dev
    if device is None or device == "cuda":
        return _random.cuda_generator()
    d = _dev(f"cuda:{device}" if isinstance(device, int) else device)
    return _random.cuda_generator(d.index)


def manual_seed(seed):
    _device_generator().manual_seed(seed)


def manual_seed_all(seed):
    from .. import _random
    _random.seed_cuda_all(_random._check_seed(seed))


def seed():
    _device_generator().seed()


def seed_all():
    from .. import _random
    _random.seed_cuda_all(_device_generator().seed())


def initial_seed():
    return _device_generator().initial_seed()


def get_rng_state(device="cuda"):
    return _device_generator(device).get_state()


def get_rng_state_all():
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state(new_state, device="cuda"):
    _device_generator(device).set_state(new_state)


def set_rng_state_all(new_states):
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def get_arch_list():
    return ["sm_90"] if is_available() else []


def is_bf16_supported(including_emulation=True):
    return is_available()


class _LegacyTensorType:
    """torch.cuda.FloatTensor & co.: isinstance checks and construction on the current device."""

    def __init__(self, dtype_name):
        self.dtype_name = dtype_name

    def __call__(self, *args):
        import torch
        return torch.Tensor(*args).to(device="cuda", dtype=getattr(torch, self.dtype_name))

    def __instancecheck__(self, obj):
        import torch
        return isinstance(obj, torch.Tensor) and obj.is_cuda and obj.dtype is getattr(torch, self.dtype_name)


FloatTensor = _LegacyTensorType("float32")
DoubleTensor = _LegacyTensorType("float64")
HalfTensor = _LegacyTensorType("float16")
BFloat16Tensor = _LegacyTensorType("bfloat16")
LongTensor = _LegacyTensorType("int64")
IntTensor = _LegacyTensorType("int32")
ShortTensor = _LegacyTensorType("int16")
CharTensor = _LegacyTensorType("int8")
ByteTensor = _LegacyTensorType("uint8")
BoolTensor = _LegacyTensorType("bool")


from . import memory  # noqa: E402 - after the statistics above, which it re-exports
from .memory import memory_snapshot  # noqa: E402,F401
