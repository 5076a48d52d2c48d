# NumPy's argument names that PyTorch's argument parser accepts in place of its own, for every op it parses
# (torch/csrc/utils/python_arg_parser.cpp, numpy_compatibility_arg_names): `x.sum(axis=1, keepdims=True)`,
# `torch.mean(x, axis=0)`, `torch.add(x1=a, x2=b)`. A PyTorch name given as well wins, as there.
import functools

ALIASES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def renamed(kwargs, accepted):
    """kwargs with each NumPy alias of a parameter in `accepted` replaced by PyTorch's name."""
    if not kwargs or ALIASES.keys().isdisjoint(kwargs):
        return kwargs
    out = {}
    for k, v in kwargs.items():
        target = ALIASES.get(k)
        out[target if target in accepted and target not in kwargs else k] = v
    return out


def accepting_numpy_names(fn, accepted=("dim", "keepdim")):
    """fn, also called with NumPy's names for the parameters in `accepted`."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **renamed(kwargs, accepted))
    return wrapper
