# Names and roles for the copies nn.parallel makes, so DeviceScope's Transfers and memory panes say what
# each one is: "module.fc.weight -> cuda:1" for a replica's parameter, "input[0] -> cuda:1" for a scattered
# chunk, "output -> cuda:0" for a gathered one, ".grad -> cuda:0" for the reductions of backward.
import contextlib

import torch
from ... import _devicescope_hooks as _hooks


def device_index(device, optional=True, allow_cpu=False):
    """PyTorch's torch._utils._get_device_index: int, 'cuda:1', torch.device -> 1 (-1 for the CPU)."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type == "cpu":
            if not allow_cpu:
                raise ValueError(f"Expected a cuda device, but got: {device}")
            return -1
        if device.index is not None:
            return device.index
        if optional:
            return torch.cuda.current_device()
        raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")
    if isinstance(device, int):
        return device
    if device is None and optional:
        return torch.cuda.current_device()
    raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")


def cuda(index):
    return torch.device("cpu") if index == -1 else torch.device("cuda", index)


@contextlib.contextmanager
def copies(owner, role=None):
    """Copies issued inside are recorded with `owner`; their new storages get `role` (when given)."""
    _hooks.set_owner_hint(owner)
    previous = _hooks.set_new_storage_role(role) if role else None
    try:
        yield
    finally:
        if role:
            _hooks.set_new_storage_role(previous)
        _hooks.set_owner_hint("")


def copy_to(tensor, index, owner, role=None):
    """tensor on device `index` (no copy when it is already there), recorded with its owner."""
    target = cuda(index)
    if tensor.device == target:
        return tensor
    with copies(f"{owner} -> {target}", role):
        return tensor.to(target)


def tag(tensor, role, owner):
    _hooks.tag(tensor, role, owner)
