# pin_memory(data): copy every tensor of a batch (recursing into dicts, lists, tuples) into pinned
# host memory. The batch stays on the CPU; nothing is sent to a GPU (see SEMANTICS section 7).
import collections
import copy

import torch
from .... import _devicescope_hooks as _hooks


def _pin_tensor(t, device):
    pinned = t.pin_memory() if device is None else t.pin_memory(device)
    if pinned is not t:
        _hooks.tag(pinned, "pinned_staging", "DataLoader batch")
    return pinned


def pin_memory(data, device=None):
    if isinstance(data, torch.Tensor):
        return _pin_tensor(data, device)
    elif isinstance(data, (str, bytes)):
        return data
    elif isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update({k: pin_memory(sample, device) for k, sample in data.items()})
                return clone
            return type(data)({k: pin_memory(sample, device) for k, sample in data.items()})
        except TypeError:
            return {k: pin_memory(sample, device) for k, sample in data.items()}
    elif isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(pin_memory(sample, device) for sample in data))
    elif isinstance(data, tuple):
        return [pin_memory(sample, device) for sample in data]  # a list, as in PyTorch
    elif isinstance(data, collections.abc.Sequence):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, item in enumerate(data):
                    clone[i] = pin_memory(item, device)
                return clone
            return type(data)([pin_memory(sample, device) for sample in data])
        except TypeError:
            return [pin_memory(sample, device) for sample in data]
    elif hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data
