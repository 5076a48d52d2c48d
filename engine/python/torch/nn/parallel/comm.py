# torch.nn.parallel.comm (torch.cuda.comm): broadcast, scatter, gather and reduce_add between devices, each
# copy a recorded transfer (see _naming.py). No autograd here: _functions.py builds the differentiable forms.
import torch
from . import _naming as N

__all__ = ["broadcast", "broadcast_coalesced", "reduce_add", "reduce_add_coalesced", "scatter", "gather"]


def _devices(devices):
    return [N.device_index(d) for d in devices]


def broadcast(tensor, devices=None, *, out=None, names=None):
    """Copies of `tensor` on each device (the copy on the tensor's own device is the tensor itself)."""
    if (devices is None) == (out is None):
        raise RuntimeError("Exactly one of 'devices' and 'out' must be specified, but got devices={} and out={}"
                           .format(devices, out))
    if out is not None:
        for o in out:
            with N.copies(f"{names or 'broadcast'} -> {o.device}"):
                o.copy_(tensor)
        return tuple(out)
    return tuple(N.copy_to(tensor, d, names or "broadcast") for d in _devices(devices))


def broadcast_coalesced(tensors, devices, buffer_size=10485760, names=None):
    """[[copies of tensors on device d] for d in devices]; the first device's list is the tensors themselves
    when they already live there (PyTorch returns the inputs unchanged for it). `names` label the copies."""
    names = names or [f"tensor[{i}]" for i in range(len(tensors))]
    with torch.no_grad():
        return [[N.copy_to(t, d, n) for t, n in zip(tensors, names)] for d in _devices(devices)]


def reduce_add(inputs, destination=None, names="reduce_add"):
    """Sum of same-shaped tensors from several devices, on `destination` (default: the current device)."""
    destination = torch.cuda.current_device() if destination is None else N.device_index(destination, allow_cpu=True)
    shape = inputs[0].shape
    for i, t in enumerate(inputs):
        if t.shape != shape:
            raise ValueError("input {} has invalid size: got {}, but expected {}".format(
                i, list(t.shape), list(shape)))
    result = None
    for t in inputs:
        moved = N.copy_to(t, destination, names)
        result = moved.clone() if result is None else result.add_(moved)
    return result


def reduce_add_coalesced(inputs, destination=None, buffer_size=10485760, names=None):
    """inputs: per device, a list of tensors; returns their per-position sums on destination."""
    per_tensor = list(zip(*inputs))
    names = names or [f"tensor[{i}]" for i in range(len(per_tensor))]
    return [reduce_add(list(ts), destination, n) for ts, n in zip(per_tensor, names)]


def scatter(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None, name="tensor"):
    """Splits `tensor` along dim (evenly, or by chunk_sizes) and puts chunk i on devices[i]."""
    if out is not None:
        raise NotImplementedError("DeviceScope: comm.scatter(out=...) is not supported")
    devices = _devices(devices)
    if chunk_sizes is None:
        chunks = tensor.chunk(len(devices), dim)
    else:
        if sum(chunk_sizes) != tensor.size(dim):
            raise RuntimeError("Expected chunks sizes to sum to {}, but got {}".format(
                tensor.size(dim), sum(chunk_sizes)))
        chunks = tensor.split(list(chunk_sizes), dim)
    return tuple(N.copy_to(c, d, f"{name}[{i}]", role=None) for i, (c, d) in enumerate(zip(chunks, devices)))


def gather(tensors, dim=0, destination=None, *, out=None, name="output"):
    """Concatenation along dim of tensors from several devices, on destination (-1 or 'cpu': the CPU)."""
    if out is not None:
        raise NotImplementedError("DeviceScope: comm.gather(out=...) is not supported")
    if destination is None:
        destination = torch.cuda.current_device()
    destination = N.device_index(destination, allow_cpu=True)
    dims = tensors[0].dim()
    for i, t in enumerate(tensors):
        if t.dim() != dims:
            raise RuntimeError("Expected all tensors to have the same number of dimensions")
    moved = [N.copy_to(t, destination, f"{name}[{i}]") for i, t in enumerate(tensors)]
    return torch.cat(moved, dim)
