# The autocast state: a stack of (device_type, enabled, dtype, cache_enabled) per region and the cast cache
# (each weight's low-precision copy, made once per outermost region). Below both autocast_mode.py (the regions)
# and _policy.py (the per-op casts), which read and change it.
from .. import _dtype as D
from ..autograd import grad_mode

_stack = []           # (device_type, enabled, dtype, cache_enabled) innermost last
_cache = {}           # id(weight) -> (weight, its cast copy) within the outermost enabled region
_DEFAULT_DTYPE = {"cuda": D.float16, "cpu": D.bfloat16}
_dtype_override = {}  # torch.set_autocast_dtype / set_autocast_gpu_dtype


def is_enabled(device_type="cuda"):
    for dev, enabled, _, _ in reversed(_stack):
        if dev == device_type:
            return enabled
    return False


def get_dtype(device_type="cuda"):
    for dev, _, dtype, _ in reversed(_stack):
        if dev == device_type:
            return dtype
    return _dtype_override.get(device_type, _DEFAULT_DTYPE.get(device_type, D.float16))


def _cache_enabled():
    return _stack[-1][3] if _stack else False


def cached_cast(t, dtype):
    """t.to(dtype); leaf tensors that require grad (weights) are cast once per region and reused."""
    cacheable = _cache_enabled() and t.is_leaf and t.requires_grad and grad_mode.is_grad_enabled()
    if cacheable:
        hit = _cache.get((id(t), dtype))
        if hit is not None and hit[0] is t:
            return hit[1]
    out = t.to(dtype)
    if cacheable:
        _cache[(id(t), dtype)] = (t, out)
    return out
