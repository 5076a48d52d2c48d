# torch.nn.parallel.scatter / scatter_kwargs / gather: tensors inside tuples, lists, dicts and namedtuples are
# split across (or collected from) devices; any other object is repeated for each device.
import torch
from . import _functions

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _is_namedtuple(obj):
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def scatter(inputs, target_gpus, dim=0, _name="input"):
    """Slices tensors into approximately equal chunks and distributes them across the given GPUs."""
    def scatter_map(obj, name):
        if isinstance(obj, torch.Tensor):
            return _functions.scatter(target_gpus, None, dim, obj, name)
        if _is_namedtuple(obj):
            return [type(obj)(*args) for args in zip(*(scatter_map(v, f"{name}.{f}") for f, v in zip(obj._fields, obj)))]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*(scatter_map(v, f"{name}[{i}]") for i, v in enumerate(obj))))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(i) for i in zip(*(scatter_map(v, f"{name}[{k}]") for k, v in enumerate(obj)))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(i) for i in zip(*(scatter_map(kv, f"{name}[{kv[0]!r}]") for kv in obj.items()))]
        return [obj for _ in target_gpus]

    return scatter_map(inputs, _name)


def scatter_kwargs(inputs, kwargs, target_gpus, dim=0):
    """Scatters positional and keyword arguments; pads the shorter list with () / {}."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim, _name="kwargs") if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(scattered_inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs, target_device, dim=0):
    """Gathers tensors from different GPUs on a specified device (-1 or 'cpu': the CPU)."""
    def gather_map(outputs, name):
        out = outputs[0]
        if isinstance(out, torch.Tensor):
            return _functions.gather(target_device, dim, outputs, name)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(d) for d in outputs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([d[k] for d in outputs], f"{name}[{k!r}]")) for k in out)
        if _is_namedtuple(out):
            return type(out)._make(gather_map(list(v), f"{name}.{f}") for f, v in zip(out._fields, zip(*outputs)))
        return type(out)(gather_map(list(v), f"{name}[{i}]") for i, v in enumerate(zip(*outputs)))

    return gather_map(outputs, "output")
