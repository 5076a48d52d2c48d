# Argument parsing for Module.to(...), the equivalent of torch._C._nn._parse_to.
# Returns (device, dtype, non_blocking, memory_format) with PyTorch's TypeError text on bad calls.
import torch

_SIGNATURES = (
    " * (torch.device device, torch.dtype dtype, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n"
    " * (torch.dtype dtype, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n"
    " * (Tensor tensor, bool non_blocking, bool copy, *, torch.memory_format memory_format)\n"
)


def _type_label(v):
    if isinstance(v, torch.Tensor):
        return "Tensor"
    if isinstance(v, torch.dtype):
        return "torch.dtype"
    if isinstance(v, torch.device):
        return "torch.device"
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else t.__module__ + "." + t.__qualname__


def _invalid(args, kwargs):
    parts = [_type_label(a) for a in args] + [f"{k}={_type_label(v)}" for k, v in kwargs.items()]
    return TypeError("to() received an invalid combination of arguments - got ("
                     + ", ".join(parts) + "), but expected one of:\n" + _SIGNATURES)


def _as_device(d):
    if d is None or isinstance(d, torch.device):
        return d
    if isinstance(d, str):
        return torch.device(d)
    if isinstance(d, int) and not isinstance(d, bool):
        return torch.device("cuda", d)
    return None


def _is_device_like(v):
    return v is None or isinstance(v, (str, torch.device)) or (isinstance(v, int) and not isinstance(v, bool))


def parse_to(*args, **kwargs):
    known = {"device", "dtype", "non_blocking", "copy", "memory_format", "tensor"}
    if any(k not in known for k in kwargs):
        raise _invalid(args, kwargs)
    memory_format = kwargs.get("memory_format")
    device = dtype = None
    rest = list(args)
    kw = dict(kwargs)
    kw.pop("memory_format", None)
    first = rest[0] if rest else None
    if rest and isinstance(first, torch.Tensor) or (not rest and "tensor" in kw):
        t = rest.pop(0) if rest else kw.pop("tensor")
        if "device" in kw or "dtype" in kw:
            raise _invalid(args, kwargs)
        device, dtype = t.device, t.dtype
        tail = ["non_blocking", "copy"]
    elif rest and isinstance(first, torch.dtype):
        dtype = rest.pop(0)
        if "device" in kw or "dtype" in kw:
            raise _invalid(args, kwargs)
        tail = ["non_blocking", "copy"]
    else:
        if rest:
            if not _is_device_like(first):
                raise _invalid(args, kwargs)
            if "device" in kw:
                raise _invalid(args, kwargs)
            device = rest.pop(0)
        else:
            device = kw.pop("device", None)
            if not _is_device_like(device):
                raise _invalid(args, kwargs)
        if rest:
            if not (rest[0] is None or isinstance(rest[0], torch.dtype)) or "dtype" in kw:
                raise _invalid(args, kwargs)
            dtype = rest.pop(0)
        else:
            dtype = kw.pop("dtype", None)
            if dtype is not None and not isinstance(dtype, torch.dtype):
                raise _invalid(args, kwargs)
        kw.pop("device", None)
        kw.pop("dtype", None)
        device = _as_device(device)
        tail = ["non_blocking", "copy"]
    values = {"non_blocking": False, "copy": False}
    for name in tail:
        if rest:
            v = rest.pop(0)
            if name in kw or not isinstance(v, bool):
                raise _invalid(args, kwargs)
            values[name] = v
        elif name in kw:
            v = kw.pop(name)
            if not isinstance(v, bool):
                raise _invalid(args, kwargs)
            values[name] = v
    if rest or kw:
        raise _invalid(args, kwargs)
    if values["copy"]:
        raise RuntimeError(".to() does not accept copy argument")
    return device, dtype, values["non_blocking"], memory_format
