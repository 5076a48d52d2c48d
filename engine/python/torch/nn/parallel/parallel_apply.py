# torch.nn.parallel.parallel_apply: runs each replica on its inputs with its device current. PyTorch uses one
# thread per replica; DeviceScope runs them one after the other (each device's work still lands on its own
# stream and clock). An exception in a replica is re-raised as PyTorch's ExceptionWrapper does.
import traceback

import torch
from . import _naming as N

__all__ = ["get_a_var", "parallel_apply"]


def get_a_var(obj):
    if isinstance(obj, torch.Tensor):
        return obj
    if isinstance(obj, (list, tuple)):
        for result in map(get_a_var, obj):
            if isinstance(result, torch.Tensor):
                return result
    if isinstance(obj, dict):
        for result in map(get_a_var, obj.items()):
            if isinstance(result, torch.Tensor):
                return result
    return None


def _reraise(exc, where):
    msg = "Caught {} {}.\nOriginal {}".format(type(exc).__name__, where,
                                              "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    try:
        error = type(exc)(msg)
    except TypeError:
        raise RuntimeError(msg) from None
    raise error


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None):
    assert len(modules) == len(inputs), (
        f"The number of modules {len(modules)} is not equal to the number of inputs {len(inputs)}")
    if kwargs_tup is not None:
        assert len(modules) == len(kwargs_tup)
    else:
        kwargs_tup = ({},) * len(modules)
    if devices is not None:
        assert len(modules) == len(devices)
    else:
        devices = [None] * len(modules)
    devices = [None if d is None else N.device_index(d) for d in devices]
    grad_enabled = torch.is_grad_enabled()
    results = []
    for i, (module, input, kwargs, device) in enumerate(zip(modules, inputs, kwargs_tup, devices)):
        if device is None:
            t = get_a_var(input)
            if t is None:
                raise RuntimeError(f"Caught TypeError in replica {i}, no device was provided and no tensor input "
                                   "was found; device cannot be resolved")
            device = t.get_device()
        try:
            with torch.set_grad_enabled(grad_enabled), torch.cuda.device(device):
                if not isinstance(input, (list, tuple)):
                    input = (input,)
                results.append(module(*input, **kwargs))
        except Exception as exc:
            _reraise(exc, f"in replica {i} on device {device}")
    return results
