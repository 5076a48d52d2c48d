# cuDNN's single weight buffer for RNN/LSTM/GRU on CUDA. PyTorch's flatten_parameters() (run by every
# .cuda()/.to() of the module) allocates one buffer for all weights, copies them in and makes each weight a
# view into it; the per-weight copies the move just made are freed. DeviceScope does the same, so a moved
# LSTM shows as one parameter block, and its copies as device-to-device transfers.
import torch
from ... import _devicescope_hooks as _hooks

_CUDNN_DTYPES = (torch.float16, torch.float32, torch.float64)
_CUDNN_CODES = frozenset(d._code for d in _CUDNN_DTYPES)
_ITEMSIZE = {d._code: d.itemsize for d in _CUDNN_DTYPES}

NOT_FLAT_WARNING = ("RNN module weights are not part of single contiguous chunk of memory. This means they need to "
                    "be compacted at every call, possibly greatly increasing memory usage. To compact weights "
                    "again call flatten_parameters().")


# Both checks run on every forward of an RNN on CUDA (a decoder calls it once per token), so they read the engine
# tensors (_impl) directly instead of going through a Tensor property per weight and attribute: a device key
# >= 0 is a CUDA device (equal keys, equal devices), a dtype code names one dtype.
def cudnn_applies(weights):
    """The weights cuDNN would take: all tensors, one CUDA device, one floating dtype, no aliases."""
    if not weights:
        return False
    for w in weights:
        if not isinstance(w, torch.Tensor):
            return False
    if not torch.backends.cudnn.enabled:
        return False
    first = weights[0]._impl
    code, key = first.dtype_code, first.device_key
    if code not in _CUDNN_CODES:
        return False
    ptrs = set()
    for w in weights:
        impl = w._impl
        if impl.device_key < 0 or impl.device_key != key or impl.dtype_code != code:
            return False
        ptrs.add(impl.data_ptr)
    return len(ptrs) == len(weights)


def is_flat(weights):
    """Each weight contiguous and right after the previous one in memory (one buffer, in order)."""
    first = weights[0]._impl
    expected = first.data_ptr
    for w in weights:
        impl = w._impl
        if not impl.is_contiguous or impl.data_ptr != expected:
            return False
        expected += impl.numel * (_ITEMSIZE.get(impl.dtype_code) or w.element_size())
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
