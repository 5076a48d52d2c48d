# cuDNN's single weight buffer for RNN/LSTM/GRU on CUDA. PyTorch's flatten_parameters() (run by every
# .cuda()/.to() of the module) allocates one buffer for all weights, copies them in and makes each weight a
# view into it; the per-weight copies the move just made are freed. DeviceScope does the same, so a moved
# LSTM shows as one parameter block, and its copies as device-to-device transfers.
import torch
from ... import _devicescope_hooks as _hooks

_CUDNN_DTYPES = (torch.float16, torch.float32, torch.float64)

NOT_FLAT_WARNING = ("RNN module weights are not part of single contiguous chunk of memory. This means they need to "
                    "be compacted at every call, possibly greatly increasing memory usage. To compact weights "
                    "again call flatten_parameters().")


def cudnn_applies(weights):
    """The weights cuDNN would take: all tensors, one CUDA device, one floating dtype, no aliases."""
    if not weights or not all(isinstance(w, torch.Tensor) for w in weights):
        return False
    if not torch.backends.cudnn.enabled:
        return False
    first = weights[0]
    if first.dtype not in _CUDNN_DTYPES:
        return False
    if any(not w.is_cuda or w.device != first.device or w.dtype != first.dtype for w in weights):
        return False
    return len({w.data_ptr() for w in weights}) == len(weights)


def is_flat(weights):
    """Each weight contiguous and right after the previous one in memory (one buffer, in order)."""
    expected = weights[0].data_ptr()
    for w in weights:
        if not w.is_contiguous() or w.data_ptr() != expected:
            return False
        expected += w.numel() * w.element_size()
    return True


def flatten(weights, names, prefix):
    """Moves `weights` (same device and dtype) into one new buffer, each becoming a view of it."""
    first = weights[0]
    total = sum(w.numel() for w in weights)
    owner = (prefix[:-1] if prefix.endswith(".") else prefix) or "rnn"
    previous = _hooks.set_new_storage_role("parameter")
    try:
        with torch.no_grad():
            buf = torch.empty(total, dtype=first.dtype, device=first.device)
            _hooks.tag(buf, "parameter", owner + " (cuDNN flat weights)")
            offset = 0
            for w, name in zip(weights, names):
                n = w.numel()
                view = buf[offset:offset + n].view_as(w)
                _hooks.set_owner_hint(prefix + name + " -> flat weights")
                view.copy_(w)
                w.data = view
                offset += n
    finally:
        _hooks.set_owner_hint("")
        _hooks.set_new_storage_role(previous)
