# torch.autocast / torch.amp.autocast: regions where eligible ops run in lower precision (see _policy.py).
# The state is a stack of (device_type, enabled, dtype) per region; the cast cache (each weight's low-precision
# copy, made once per outermost region) is dropped when the outermost region exits, as PyTorch does.
import functools
import warnings

from .. import _dtype as D

from ._state import (_DEFAULT_DTYPE, _cache, _cache_enabled, _dtype_override, _stack,  # noqa: F401
                     cached_cast, get_dtype, is_enabled)
from . import _policy


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
        _stack.append((self.device, self._enabled, self.fast_dtype, self._cache_enabled))
        _policy.install()
        return self

    def __exit__(self, *exc):
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
    _stack.clear()
    _cache.clear()
    _dtype_override.clear()
    _policy.uninstall()
