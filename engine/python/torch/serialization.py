# torch.save / torch.load in PyTorch's own file format (a zip archive: <name>/data.pkl, one record per storage
# under <name>/data/, <name>/version, <name>/byteorder), so checkpoints move between DeviceScope and real
# PyTorch both ways. weights_only=True (the default) loads through an allow-list unpickler: no such file runs
# code; weights_only=False is the user's trust in the file and loads what PyTorch loads (_weights_only_unpickler).
# Differences: each tensor is saved with its own storage (views of one storage do not stay views after a
# reload); the legacy non-zip format is read only for DeviceScope's own old files, and only with
# weights_only=False.
import io
import os
import pickle
import zipfile

import numpy as np

from . import _dtype as D
from . import _utils
from ._weights_only_unpickler import (FullUnpickler, WeightsOnlyUnpickler, add_safe_globals,  # noqa: F401
                                      clear_safe_globals, get_safe_globals, safe_globals)

DEFAULT_PROTOCOL = 2
_FORMAT_VERSION = b"3\n"

_WO_MESSAGE = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only "
    "if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of the "
    "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` "
    "set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the "
    "recommended steps in the following error message.\n\tWeightsUnpickler error: {}\n\nCheck the documentation "
    "of torch.load to learn more about types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html.")


# ----------------------------------------------------------------------------- save
def _storage_bytes(t):
    """The tensor's elements, contiguous, as stored on disk (bfloat16 as its raw 16-bit patterns)."""
    from ._ops import _core as C
    values = np.ascontiguousarray(t.detach()._host_values())
    if t.dtype is D.bfloat16:
        values = C._f32_to_bf16(values)
    return values.tobytes()


def _contiguous_strides(size):
    strides, acc = [], 1
    for s in reversed(size):
        strides.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(strides))


class _SavedStorage:
    def __init__(self, key, tensor):
        self.key = key
        self.tensor = tensor


class _Pickler(pickle.Pickler):
    """Writes tensors as PyTorch does: _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks),
    the storage a persistent id ('storage', torch.FloatStorage, key, location, numel)."""

    def __init__(self, f, protocol):
        super().__init__(f, protocol=protocol)
        self.storages = []

    def reducer_override(self, obj):
        from ._tensor import Tensor
        from .nn.parameter import Parameter
        if isinstance(obj, Parameter) or (isinstance(obj, Tensor) and getattr(obj, "_is_param", False)):
            return (_utils._rebuild_parameter, (obj.detach(), obj.requires_grad, _utils._backward_hooks()))
        if isinstance(obj, Tensor):
            if obj._impl.is_virtual:
                raise RuntimeError("DeviceScope cannot save a virtual tensor: it holds no values")
            if obj.dtype.is_complex:
                raise NotImplementedError("DeviceScope stores no complex values")
            storage = _SavedStorage(str(len(self.storages)), obj)
            self.storages.append(storage)
            size = tuple(obj.shape)
            return (_utils._rebuild_tensor_v2, (storage, 0, size, _contiguous_strides(size), obj.requires_grad,
                                                _utils._backward_hooks()))
        return NotImplemented

    def persistent_id(self, obj):
        if isinstance(obj, _SavedStorage):
            t = obj.tensor
            location = "cpu" if t.device.type == "cpu" else f"cuda:{t.device.index or 0}"
            return ("storage", _utils.STORAGE_TYPES[t.dtype], obj.key, location, t.numel())
        return None


def _archive_name(f):
    if isinstance(f, (str, bytes, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fsdecode(f)))[0]
        return name or "archive"
    return "archive"


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    if pickle_module is not pickle:
        raise NotImplementedError("DeviceScope's torch.save writes with the standard pickle module only")
    data = io.BytesIO()
    pickler = _Pickler(data, pickle_protocol)
    pickler.dump(obj)
    name = _archive_name(f)
    opened = open(f, "wb") if isinstance(f, (str, bytes, os.PathLike)) else None
    try:
        with zipfile.ZipFile(opened or f, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr(f"{name}/data.pkl", data.getvalue())
            z.writestr(f"{name}/byteorder", "little")
            for s in pickler.storages:
                z.writestr(f"{name}/data/{s.key}", _storage_bytes(s.tensor))
            z.writestr(f"{name}/version", _FORMAT_VERSION)
    finally:
        if opened:
            opened.close()


# ----------------------------------------------------------------------------- load
def _restore_location(storage, location, map_location):
    """Where a storage saved at `location` goes: PyTorch's map_location rules (None, str, device, dict,
    callable(storage, location))."""
    from ._device import device as _device
    if map_location is None:
        target = location
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
        if isinstance(target, _device):
            target = str(target)
    elif isinstance(map_location, (str, bytes)):
        target = os.fsdecode(map_location) if isinstance(map_location, bytes) else map_location
    elif isinstance(map_location, _device):
        target = str(map_location)
    elif callable(map_location):
        result = map_location(storage, location)
        if result is None:
            return _restore_location(storage, location, None)
        if not isinstance(result, _utils.LoadedStorage):
            raise TypeError(f"map_location should return a storage, but returned {type(result).__name__}")
        target = result.device
    else:
        raise ValueError(f"Unsupported map_location: {map_location!r}")
    return str(_validated(str(target)))


def _validated(location):
    """PyTorch's checks that the target device exists (validate_cuda_device)."""
    import torch
    dev = torch.device(location)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
                               "is False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        index = dev.index if dev.index is not None else torch.cuda.current_device()
        if index >= torch.cuda.device_count():
            raise RuntimeError(f"Attempting to deserialize object on CUDA device {index} but "
                               f"torch.cuda.device_count() is {torch.cuda.device_count()}. Please use torch.load "
                               "with map_location to map your storages to an existing device.")
        return f"cuda:{index}"
    if dev.type != "cpu":
        raise RuntimeError(f"don't know how to restore data location of storage on {location}")
    return "cpu"


def _persistent_loader(zf, prefix, map_location):
    loaded = {}

    def persistent_load(pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"Unsupported persistent id: {pid!r}")
        _, storage_type, key, location, numel = pid
        if not isinstance(storage_type, _utils._LegacyStorageType) or not isinstance(key, str) \
                or not isinstance(location, str):
            raise pickle.UnpicklingError(f"Unsupported persistent id: {pid!r}")
        if key not in loaded:
            dtype = storage_type.dtype
            raw = zf.read(f"{prefix}data/{key}")
            np_type = np.uint16 if dtype is D.bfloat16 else dtype._np
            if len(raw) % np.dtype(np_type).itemsize:
                raise RuntimeError(f"storage {key} holds {len(raw)} bytes, not a whole number of {dtype} elements")
            values = np.frombuffer(raw, dtype=np_type)
            storage = _utils.LoadedStorage(values, dtype, location)
            storage.device = _restore_location(storage, location, map_location)
            loaded[key] = storage
        return loaded[key]
    return persistent_load


def _load_zip(zf, map_location, unpickler_class):
    names = zf.namelist()
    pkl = [n for n in names if n.endswith("data.pkl") and n.count("/") == 1]
    if len(pkl) != 1:
        raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
    prefix = pkl[0][:-len("data.pkl")]
    unpickler = unpickler_class(io.BytesIO(zf.read(pkl[0])),
                                persistent_load=_persistent_loader(zf, prefix, map_location), encoding="utf-8")
    return unpickler.load()


def _open(f):
    if isinstance(f, (str, bytes, os.PathLike)):
        return open(f, "rb"), True
    return f, False


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """PyTorch 2.6's torch.load: weights_only defaults to True (TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1 makes it
    False, as in PyTorch)."""
    if weights_only is None:
        weights_only = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") not in ("1", "true", "True") \
            and pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    fh, close = _open(f)
    try:
        head = fh.read(4)
        fh.seek(-len(head), 1)
        if head != b"PK\x03\x04":
            return _load_legacy(fh, map_location, weights_only)
        try:
            zf = zipfile.ZipFile(fh)
        except zipfile.BadZipFile as e:
            raise RuntimeError(f"PytorchStreamReader failed reading zip archive: {e}") from None
        with zf:
            if not weights_only:
                return _load_zip(zf, map_location, FullUnpickler)
            try:
                return _load_zip(zf, map_location, WeightsOnlyUnpickler)
            except pickle.UnpicklingError as e:
                raise pickle.UnpicklingError(_WO_MESSAGE.format(e)) from None
    finally:
        if close:
            fh.close()


def _load_legacy(fh, map_location, weights_only):
    """Files that are not zip archives: DeviceScope's earlier plain pickles (values as numpy arrays).
    Only with weights_only=False, through the same full unpickler as a zip checkpoint."""
    from . import _serialization
    if weights_only:
        raise pickle.UnpicklingError(_WO_MESSAGE.format(
            "DeviceScope reads only PyTorch's zip checkpoint format with weights_only=True (this file is not a "
            "zip archive)"))
    legacy = FullUnpickler(fh, persistent_load=None)
    legacy._allowed["torch._tensor_protocols._rebuild_tensor"] = _legacy_rebuild
    legacy._allowed["torch._tensor._rebuild_tensor"] = _legacy_rebuild
    legacy._allowed["torch.nn.parameter._rebuild_parameter"] = _utils._rebuild_parameter
    with _serialization.mapping(map_location if not callable(map_location) or isinstance(map_location, dict)
                                else None):
        return legacy.load()


def _legacy_rebuild(values, dtype_name, device, requires_grad, sizes, virtual, cls):
    from ._tensor_protocols import _rebuild_tensor
    if not isinstance(dtype_name, str) or not hasattr(D, dtype_name):
        raise pickle.UnpicklingError(f"unknown dtype {dtype_name!r}")
    from ._tensor import Tensor
    from .nn.parameter import Parameter
    if cls not in (Tensor, Parameter):
        raise pickle.UnpicklingError(f"unexpected tensor class {cls!r}")
    return _rebuild_tensor(values, dtype_name, device, requires_grad, sizes, virtual, cls)
