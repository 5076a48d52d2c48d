# A small stand-in for PyTorch's C extension module: the few private hooks library code reaches for.
_disabled_torch_function_impl = None


def _get_default_device():
    return "cpu"


def _log_api_usage_once(*args, **kwargs):
    pass


def _get_tracing_state():
    return None


class _DisableFuncTorch:
    pass
