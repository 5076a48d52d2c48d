# torch.backends: the flags scripts commonly set (cudnn.benchmark, cuda.matmul.allow_tf32, the SDPA kernel
# switches). They are kept and read back as PyTorch does, but change no value or allocation here.
# cuda.matmul.allow_tf32 is torch.get_float32_matmul_precision() seen as a bool, as in PyTorch: setting one
# changes the other.
import contextlib
import types as _types
import warnings

_PRECISIONS = ("highest", "high", "medium")
_state = {"float32_matmul_precision": "highest"}


def set_float32_matmul_precision(precision):
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision in _PRECISIONS:
        _state["float32_matmul_precision"] = precision
        return
    warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                  "setFloat32MatmulPrecision call has no effect.", UserWarning)


def get_float32_matmul_precision():
    return _state["float32_matmul_precision"]


class cuBLASModule:
    """torch.backends.cuda.matmul: unknown names are refused (an AssertionError, as PyTorch's)."""

    _flags = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction")

    def __init__(self):
        object.__setattr__(self, "_values", {name: True for name in self._flags})

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _state["float32_matmul_precision"] != "highest"
        if name in self._flags:
            return self._values[name]
        raise AssertionError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _state["float32_matmul_precision"] = "high" if value else "highest"
        elif name in self._flags:
            self._values[name] = value
        else:
            raise AssertionError(f"Unknown attribute {name}")


_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def _sdp_switches(kind):
    def enabled():
        return _sdp[kind]

    def enable(value):
        _sdp[kind] = bool(value)
    return enabled, enable


@contextlib.contextmanager
def _sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager will "
                  "be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with "
                  "updated signature.", FutureWarning)
    saved = dict(_sdp)
    _sdp.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient, cudnn=enable_cudnn)
    try:
        yield
    finally:
        _sdp.update(saved)


def _library(backend=None):
    return _types.SimpleNamespace(name="Default") if backend is None else backend


cuda = _types.ModuleType("torch.backends.cuda")
cuda.matmul = cuBLASModule()
cuda.cuBLASModule = cuBLASModule
cuda.is_built = lambda: True
cuda.sdp_kernel = _sdp_kernel
cuda.preferred_linalg_library = _library
cuda.flash_sdp_enabled, cuda.enable_flash_sdp = _sdp_switches("flash")
cuda.mem_efficient_sdp_enabled, cuda.enable_mem_efficient_sdp = _sdp_switches("mem_efficient")
cuda.math_sdp_enabled, cuda.enable_math_sdp = _sdp_switches("math")
cuda.cudnn_sdp_enabled, cuda.enable_cudnn_sdp = _sdp_switches("cudnn")

cudnn = _types.ModuleType("torch.backends.cudnn")
cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32 = True, False, False, True
cudnn.benchmark_limit = 10
cudnn.is_available = lambda: True
cudnn.version = lambda: 90100
cudnn.is_acceptable = lambda tensor: True


@contextlib.contextmanager
def _cudnn_flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    saved = {n: getattr(cudnn, n) for n in names}
    for n, v in zip(names, (enabled, benchmark, benchmark_limit, deterministic, allow_tf32)):
        setattr(cudnn, n, v)
    try:
        yield
    finally:
        for n, v in saved.items():
            setattr(cudnn, n, v)


cudnn.flags = _cudnn_flags


def _namespace(name, available, **extra):
    mod = _types.ModuleType("torch.backends." + name)
    mod.is_available = lambda: available
    for key, value in extra.items():
        setattr(mod, key, value)
    return mod


mps = _namespace("mps", False, is_built=lambda: False)
openmp = _namespace("openmp", True)
mkl = _namespace("mkl", True)
mkldnn = _namespace("mkldnn", True, enabled=True)
opt_einsum = _namespace("opt_einsum", False, enabled=False, strategy=None)

# `import torch.backends.cudnn as cudnn` (pytorch/examples' imagenet) imports these as modules.
import sys as _sys  # noqa: E402
for _name, _mod in (("cuda", cuda), ("cudnn", cudnn), ("mps", mps), ("openmp", openmp), ("mkl", mkl),
                    ("mkldnn", mkldnn), ("opt_einsum", opt_einsum)):
    _sys.modules["torch.backends." + _name] = _mod
