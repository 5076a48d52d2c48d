# torch._utils: the names PyTorch's checkpoint files call while loading (pickled as GLOBAL torch._utils.<name>),
# and the legacy typed storage classes (torch.FloatStorage, ...) a checkpoint names its storages by.
# A file written by DeviceScope names exactly these, so real PyTorch reads it, and DeviceScope reads PyTorch's.
from collections import OrderedDict

import numpy as np

from . import _dtype as D


class _LegacyStorageType:
    """torch.FloatStorage & co.: only a name and a dtype here (checkpoints name the storage type of each
    tensor's bytes); DeviceScope keeps no typed storages of its own."""

    def __init__(self, name, dtype):
        self.__name__ = self.__qualname__ = name
        self.__module__ = "torch"
        self.dtype = dtype

    def __repr__(self):
        return f"<class 'torch.{self.__name__}'>"

    def __reduce__(self):
        return self.__name__  # pickled as GLOBAL torch.<name>, as PyTorch does

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"DeviceScope does not model typed storages (torch.{self.__name__}); "
                                  "use tensors")


STORAGE_TYPES = {d: _LegacyStorageType(n, d) for d, n in (
    (D.float32, "FloatStorage"), (D.float64, "DoubleStorage"), (D.float16, "HalfStorage"),
    (D.bfloat16, "BFloat16Storage"), (D.int64, "LongStorage"), (D.int32, "IntStorage"),
    (D.int16, "ShortStorage"), (D.int8, "CharStorage"), (D.uint8, "ByteStorage"), (D.bool, "BoolStorage"),
    (D.complex64, "ComplexFloatStorage"), (D.complex128, "ComplexDoubleStorage"))}


class LoadedStorage:
    """One storage read from a checkpoint: its elements as a flat numpy array (bfloat16 as raw uint16) and
    the device the tensors built on it go to. map_location callables receive it as PyTorch's `storage`
    argument and return it, or a copy moved with .cpu() / .cuda(i) / .to(device)."""

    def __init__(self, values, dtype, device):
        self.values = values
        self.dtype = dtype
        self.device = device  # a string: "cpu", "cuda:1"
        self._tensor = None   # the whole storage as a 1-D tensor on `device`, made on first use

    def _moved(self, device):
        return LoadedStorage(self.values, self.dtype, str(device))

    def tensor(self):
        """The storage's elements as one 1-D tensor on its device, made once: the tensors of a checkpoint that
        share a storage share it after loading too. Like PyTorch's load (restore_location -> storage.cuda()),
        a storage bound for a GPU is read into host memory and copied to the device in one copy, which the
        engine records."""
        if self._tensor is None:
            from . import _factories
            from ._ops import _core as C
            values = self.values
            if self.dtype is D.bfloat16:
                values = C._bf16_to_f32(values.astype(np.uint16))
            host = _factories.tensor(np.array(values), dtype=self.dtype)
            self._tensor = host if self.device == "cpu" else host.to(self.device)
        return self._tensor

    def cpu(self):
        return self._moved("cpu")

    def cuda(self, device=None, non_blocking=False):
        from ._device import device as _dev
        if device is None:
            import torch
            device = torch.cuda.current_device()
        if isinstance(device, int):
            return self._moved(f"cuda:{device}")
        d = _dev(device)
        return self._moved(f"cuda:{d.index or 0}")

    def to(self, device=None, non_blocking=False):
        return self._moved(device)

    def size(self):
        return int(self.values.size)

    def nbytes(self):
        return int(self.values.nbytes)

    @property
    def is_cuda(self):
        return self.device.startswith("cuda")


def _tensor_from_storage(storage, storage_offset, size, stride):
    """A tensor on the storage (PyTorch's t.set_(storage, offset, size, stride): not a view of anything)."""
    import _devicescope_C as _E
    from ._ops import _core as C
    vals = storage.values
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"size {list(size)} and stride {list(stride)} have different lengths")
    if any(s < 0 for s in size) or any(s < 0 for s in stride) or storage_offset < 0:
        raise RuntimeError("negative size, stride or storage offset in a checkpoint")
    n = 1
    for s in size:
        n *= s
    last = storage_offset + sum((s - 1) * st for s, st in zip(size, stride)) if n else storage_offset - 1
    if last >= vals.size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                           f"{storage_offset} out of bounds for storage of size {vals.size} elements")
    return C.wrap(_E.as_strided(storage.tensor()._impl, size, stride, int(storage_offset)))


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _tensor_from_storage(storage, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    t = _tensor_from_storage(storage, storage_offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _rebuild_parameter(data, requires_grad, backward_hooks)


def _rebuild_from_type_v2(func, new_type, args, state):
    """torch._tensor._rebuild_from_type_v2: a plain tensor or Parameter built by func (state is ignored)."""
    from ._tensor import Tensor
    ret = func(*args)
    if new_type is not Tensor and type(ret) is not new_type:
        ret = Tensor._make_subclass(new_type, ret, ret.requires_grad)
    return ret


def rebuild_functions():
    return {f"torch._utils.{f.__name__}": f for f in (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_parameter,
                                                      _rebuild_parameter_with_state)} | {
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2}


def _backward_hooks():
    return OrderedDict()
