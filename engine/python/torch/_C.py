# A small stand-in for PyTorch's C extension module: the few private hooks library code reaches for.
import sys as _sys
import types as _types

import _devicescope_C as _E

_disabled_torch_function_impl = None


def _get_default_device():
    return "cpu"


def _log_api_usage_once(*args, **kwargs):
    pass


def _get_tracing_state():
    return None


class _DisableFuncTorch:
    pass


def _nn_parse_to(*args, **kwargs):
    """(device, dtype, non_blocking, convert_to_format) from to()'s arguments, as Module.to reads them.

    The one parser is the engine's (Tensor.to uses it too); like PyTorch's, it refuses `copy`."""
    device, dtype, non_blocking, copy, memory_format = _E.parse_to(args, kwargs)
    if copy is not None:
        raise RuntimeError(".to() does not accept copy argument")
    return device, dtype, non_blocking, memory_format


def _cuda_clearCublasWorkspaces():
    """Frees the cuBLAS workspaces every thread's handle holds (torch/_blas_workspace.py); empty_cache does not."""
    from . import _blas_workspace
    _blas_workspace.clear()


_nn = _types.ModuleType("torch._C._nn")
_nn._parse_to = _nn_parse_to
_sys.modules[_nn.__name__] = _nn
