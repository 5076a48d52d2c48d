# torch.amp: mixed precision. autocast regions (per-op dtype policy, _policy.py) and GradScaler.
import functools

from .autocast_mode import autocast  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401


def is_autocast_available(device_type):
    return device_type in ("cuda", "cpu")


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorator for a custom autograd Function's forward: inside an enabled autocast region with cast_inputs,
    floating inputs are cast to cast_inputs and the forward runs with autocast disabled."""
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        from . import autocast_mode
        from .._tensor import Tensor
        if cast_inputs is None or not autocast_mode.is_enabled(device_type):
            return fwd(*args, **kwargs)

        def cast(v):
            return v.to(cast_inputs) if isinstance(v, Tensor) and v.is_floating_point() else v
        with autocast(device_type=device_type, enabled=False):
            return fwd(*[cast(a) for a in args], **{k: cast(v) for k, v in kwargs.items()})
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    return bwd
