# torch.autocast / torch.amp.autocast: regions where eligible ops run in lower precision (see _policy.py).
# The state is a stack of (device_type, enabled, dtype) per region; the cast cache (each weight's low-precision
# copy, made once per outermost region) is dropped when the outermost region exits, as PyTorch does.
import functools
import warnings

from .. import _dtype as D

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
    from ..autograd import grad_mode
    cacheable = _cache_enabled() and t.is_leaf and t.requires_grad and grad_mode.is_grad_enabled()
    if cacheable:
        hit = _cache.get((id(t), dtype))
        if hit is not None and hit[0] is t:
            return hit[1]
    out = t.to(dtype)
    if cacheable:
        _cache[(id(t), dtype)] = (t, out)
    return out


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None), a context manager and a
    decorator."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        import torch
        self.device = device_type
        self.fast_dtype = dtype if dtype is not None else get_dtype(device_type) if device_type in _DEFAULT_DTYPE \
            else D.float16
        self._cache_enabled = True if cache_enabled is None else bool(cache_enabled)
        enabled = bool(enabled)
        if device_type == "cuda":
            if enabled and not torch.cuda.is_available():
                warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
                enabled = False
            elif enabled and self.fast_dtype not in (D.float16, D.bfloat16):
                warnings.warn("In CUDA autocast, but the target dtype is not supported. Disabling autocast.\n"
                              "CUDA Autocast only supports dtype of torch.float16, torch.bfloat16 currently.")
                enabled = False
        elif device_type == "cpu":
            if enabled and self.fast_dtype not in (D.float16, D.bfloat16):
                warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                              "CPU Autocast only supports dtype of torch.bfloat16, torch.float16 currently.")
                enabled = False
        else:
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self._enabled = enabled

    def __enter__(self):
        from . import _policy
        _stack.append((self.device, self._enabled, self.fast_dtype, self._cache_enabled))
        _policy.install()
        return self

    def __exit__(self, *exc):
        from . import _policy
        _stack.pop()
        if not _stack:
            _cache.clear()
            _policy.uninstall()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


def _reset():
    """Fresh state for a new run in the same interpreter (the app's Reset / Step back)."""
    from . import _policy
    _stack.clear()
    _cache.clear()
    _dtype_override.clear()
    _policy.uninstall()
