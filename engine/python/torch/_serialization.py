# torch.load's map_location: tensors rebuilt while loading are placed where the mapping says.
import contextlib

_state = {"map": None, "active": False}


@contextlib.contextmanager
def mapping(map_location):
    prev = dict(_state)
    _state["map"] = map_location
    _state["active"] = True
    try:
        yield
    finally:
        _state.update(prev)


def target_device(saved):
    """The device a tensor saved on `saved` (a string) is loaded to."""
    m = _state["map"]
    if m is None:
        dev = saved
    elif isinstance(m, dict):
        dev = m.get(saved, saved)
    elif callable(m):
        dev = saved  # storage-level callables are not modelled; keep the saved device
    else:
        dev = str(m)
    if str(dev).startswith("cuda"):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
                               "is False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        idx = str(dev).split(":")[1] if ":" in str(dev) else None
        if idx is not None and int(idx) >= torch.cuda.device_count():
            raise RuntimeError(f"Attempting to deserialize object on CUDA device {idx} but "
                               f"torch.cuda.device_count() is {torch.cuda.device_count()}. Please use torch.load "
                               "with map_location to map your storages to an existing device.")
    return dev
