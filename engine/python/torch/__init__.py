# DeviceScope's torch: PyTorch's API over DeviceScope's engine (simulated or real CUDA devices), so
# `import torch` code runs unchanged and every allocation, copy and move is visible. Values are computed
# with numpy; the CPU generator is PyTorch's (seeded values are PyTorch's bit for bit: _random.py).
import builtins as _builtins
import sys as _sys
import math as _math
import warnings as _warnings

import _devicescope_C as _C_engine

from . import _dtype
from ._dtype import (bfloat16, bool, double, dtype, float, float16, float32, float64, half, int, int8,  # noqa: F401,A004
                     int16, int32, int64, long, short, uint8, complex32, complex64, complex128, cfloat, cdouble,
                     chalf)
from ._device import device  # noqa: F401
from ._size import Size  # noqa: F401
from . import autograd  # noqa: F401
from .autograd import grad_mode as _grad_mode
from .autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,  # noqa: F401
                                 no_grad, set_grad_enabled)
from ._tensor import Tensor, typename_of as _typename_of
from . import _tensor_methods  # noqa: F401 - attaches the math methods to Tensor

# The engine recognises torch.dtype / torch.device / torch.Tensor objects from here on.
_C_engine._register_types(dtype, device, Tensor, list(_dtype.BY_CODE))
from . import _default  # noqa: E402
from ._default import get_default_dtype, set_default_device, set_default_dtype, get_default_device  # noqa: F401
from . import _random
from ._random import Generator, default_generator, initial_seed, manual_seed, seed  # noqa: F401
from ._random import get_rng_state, set_rng_state  # noqa: F401
from . import random  # noqa: F401,E402  (torch.random: fork_rng)
from ._factories import (arange, as_tensor, asarray, empty, empty_like, eye, from_numpy, full, full_like,  # noqa: F401
                         linspace, logspace, normal, ones, ones_like, rand, rand_like, randint, randint_like,
                         randn, randn_like, randperm, tensor, zeros, zeros_like, bernoulli, multinomial)
from ._factories import range  # noqa: F401,A004
from . import _factories  # noqa: E402  (the legacy types' constructor)
from ._tensor_str import set_printoptions, get_printoptions  # noqa: F401
from . import return_types  # noqa: F401
from ._ops import _core as _core
from ._ops.elementwise import (abs, add, allclose, atan2, bitwise_and, bitwise_not,  # noqa: F401,A004
                               bitwise_or, bitwise_xor, ceil, clamp, clamp_max, clamp_min, cos, div, eq, equal,
                               erf, erfinv, exp, expm1, floor, floor_divide, fmod, frac, ge, gt, isclose, isfinite,
                               isinf, isnan, le, log, log10, log1p, log2, logical_and, logical_not,
                               logical_or, logical_xor, lt, maximum, minimum, mul, nan_to_num, ne, neg, pow,
                               reciprocal, relu, remainder, round, rsqrt, rsub, sigmoid, sign, sin, sqrt, square, sub,
                               tan, tanh, trunc, where)
from ._ops.reduction import (all, amax, amin, aminmax, any, argmax, argmin, count_nonzero, cumprod, cumsum,  # noqa: F401,A004
                             log_softmax, logsumexp, max, mean, min, nanmean, nansum, prod, softmax, std,
                             std_mean, sum, var, var_mean)
from .linalg import _torch_norm as norm  # noqa: E402  (torch.norm: 2.x's routing to linalg.vector_norm)
from ._ops.linalg import addmm, baddbmm, bmm, dot, einsum, inner, matmul, mm, mv, outer, ger  # noqa: F401
from ._ops.shape import (as_strided, broadcast_to, cat, chunk, concat, concatenate, diag, diagonal, flatten,  # noqa: F401
                         flip, hstack, movedim, moveaxis, narrow, permute, repeat, reshape, roll, select, split,
                         squeeze, stack, swapaxes, swapdims, t, tensor_split, trace, transpose, tril, triu, unbind,
                         unflatten, unsqueeze, vstack)
from ._ops.join import atleast_1d, atleast_2d, atleast_3d  # noqa: F401
from ._ops.indexing import (argsort, argwhere, bincount, gather, index_add, index_select,  # noqa: F401
                            masked_select, nonzero, scatter, scatter_add, searchsorted, sort, take, topk, unique)
from ._ops.masked_fill import masked_fill  # noqa: F401
from ._ops import registry as _registry
_registry.install(_sys.modules[__name__], Tensor)  # torch.add & co. with out=, Tensor.add / add_ (op_table.py)
from ._ops import ternary_pointwise as _ternary  # noqa: E402
_ternary.install(_sys.modules[__name__], Tensor)  # addcmul, addcdiv, lerp and their methods
from ._ops.fill_ops import index_fill  # noqa: E402,F401
from ._numpy_names import accepting_numpy_names as _accepting_numpy_names
for _name in ("all", "any", "argmax", "argmin", "aminmax", "count_nonzero", "cumprod", "cumsum", "log_softmax",
              "logsumexp", "max", "min", "nanmean", "nansum", "norm", "softmax", "std", "std_mean", "var", "var_mean"):
    if _name not in _registry.REGISTRY:  # declared ops parse NumPy's names themselves
        globals()[_name] = _accepting_numpy_names(globals()[_name])  # torch.max(x, axis=0) as in PyTorch
from . import _devicescope_hooks  # noqa: F401
from . import linalg  # noqa: F401
from . import testing  # noqa: F401,E402
from . import onnx  # noqa: F401,E402
from . import cuda  # noqa: F401

# numpy's floating-point warnings from inside the ops (PyTorch produces inf/nan silently).
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"torch\.(_ops|_tensor|_factories)")

from . import version  # noqa: E402
from .version import __version__  # noqa: E402,F401 - the API level implemented (see version.py)
from . import accelerator  # noqa: E402
from .cuda.streams import Stream  # noqa: E402,F401 - torch.Stream: the accelerator's streams are CUDA's
Event = accelerator._generic_event_class()
from . import amp  # noqa: E402
from .amp.autocast_mode import autocast  # noqa: E402,F401


def is_autocast_enabled(device_type=None):
    return amp.autocast_mode.is_enabled(device_type or "cuda")


def get_autocast_dtype(device_type):
    return amp.autocast_mode.get_dtype(device_type)


def get_autocast_gpu_dtype():
    return amp.autocast_mode.get_dtype("cuda")


def get_autocast_cpu_dtype():
    return amp.autocast_mode.get_dtype("cpu")


def is_autocast_cpu_enabled():
    return amp.autocast_mode.is_enabled("cpu")


def clear_autocast_cache():
    amp.autocast_mode._cache.clear()
inf = _math.inf
nan = _math.nan
e = _math.e
pi = _math.pi
newaxis = None
OutOfMemoryError = _C_engine.OutOfMemoryError

multiply = mul
subtract = sub
divide = div
true_divide = div
negative = neg
absolute = abs
clip = clamp
greater = gt
greater_equal = ge
less = lt
less_equal = le
not_equal = ne
arctan2 = atan2
fix = trunc


def relu_(x):
    return x.relu_()


def sigmoid_(x):
    return x.sigmoid_()


def detach(x):
    return x.detach()


def clone(x, *, memory_format=None):
    return x.clone()


def numel(x):
    return x.numel()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_storage(obj):
    return False


def is_floating_point(x):
    return x.is_floating_point()


def is_complex(x):
    return False


def is_nonzero(x):
    if x.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return _builtins.bool(x.item())


def typename(obj):
    """'torch.FloatTensor' / 'torch.cuda.FloatTensor' for tensors, the qualified class name otherwise."""
    if isinstance(obj, Tensor):
        return _typename_of(obj)
    module = ""
    class_name = ""
    if hasattr(obj, "__module__") and obj.__module__ not in ("builtins", "__builtin__", None):
        module = obj.__module__ + "."
    if hasattr(obj, "__qualname__"):
        class_name = obj.__qualname__
    elif hasattr(obj, "__name__"):
        class_name = obj.__name__
    else:
        class_name = obj.__class__.__name__
    return module + class_name


def result_type(tensor1, tensor2):
    return _core.result_type(tensor1, tensor2)


promote_types = _dtype.promote_types


def can_cast(from_, to):
    from ._ops.elementwise import can_cast as _cc
    return _cc(from_, to)


def broadcast_shapes(*shapes):
    return Size(_core.broadcast_shapes(*[tuple(s) if not isinstance(s, _builtins.int) else (s,) for s in shapes]))


def broadcast_tensors(*tensors):
    """ATen's expand_outplace: a tensor already of the broadcast shape is returned itself (no view, no node)."""
    shape = _core.broadcast_shapes(*[tuple(t.shape) for t in tensors])
    return tuple(t if tuple(t.shape) == tuple(shape) else t.expand(shape) for t in tensors)


def _has_compatible_shallow_copy_type(a, b):
    """CPU and CUDA tensors are shallow-copy compatible (so Module._apply keeps Parameter identity)."""
    return True


# ----------------------------------------------------------------------------- layouts / memory formats
class _CTypeMeta(type):
    """Classes that PyTorch implements in C: their errors name them 'torch.<name>'."""

    def __getattr__(cls, name):
        raise AttributeError(f"type object 'torch.{cls.__name__}' has no attribute '{name}'")


class layout(metaclass=_CTypeMeta):
    __module__ = "torch"

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


class memory_format(metaclass=_CTypeMeta):
    __module__ = "torch"

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


strided = layout("strided")
sparse_coo = layout("sparse_coo")
preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
_C_engine._register_memory_format(memory_format)  # to() arguments are parsed in C++


# ----------------------------------------------------------------------------- legacy tensor types
class _LegacyType:
    def __init__(self, dtype_):
        self.dtype = dtype_

    def __call__(self, *args):
        return _factories.legacy_new(self.dtype, args)

    def __instancecheck__(self, obj):
        return isinstance(obj, Tensor) and not obj.is_cuda and obj.dtype is self.dtype

    def __repr__(self):
        return "<class 'torch." + self.dtype._legacy + "'>"


FloatTensor = _LegacyType(float32)
DoubleTensor = _LegacyType(float64)
HalfTensor = _LegacyType(float16)
BFloat16Tensor = _LegacyType(bfloat16)
LongTensor = _LegacyType(int64)
IntTensor = _LegacyType(int32)
ShortTensor = _LegacyType(int16)
CharTensor = _LegacyType(int8)
ByteTensor = _LegacyType(uint8)
BoolTensor = _LegacyType(bool)


def set_default_tensor_type(t):
    raise NotImplementedError("DeviceScope: use torch.set_default_dtype / torch.set_default_device")


def use_deterministic_algorithms(mode, *, warn_only=False):
    pass


def are_deterministic_algorithms_enabled():
    return False


def set_num_threads(n):
    pass


def get_num_threads():
    return 1


def compile(model=None, **kwargs):  # noqa: A001
    """torch.compile is the identity here (no graph capture); placement is unchanged by compiling."""
    if model is None:
        return lambda m: m
    return model


def _fmt_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.2f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024.0
    return f"{n:.2f} TiB"


# ----------------------------------------------------------------------------- save / load
from . import _utils  # noqa: E402
from . import serialization  # noqa: E402
from .serialization import save, load  # noqa: E402,F401
for _st in _utils.STORAGE_TYPES.values():  # torch.FloatStorage & co.: the names checkpoints use
    globals()[_st.__name__] = _st


# ----------------------------------------------------------------------------- DeviceScope reset
def _devicescope_reset():
    """Fresh library state for a new run in the same interpreter (the app's Reset / Step back)."""
    _grad_mode._enabled[0] = True
    _default.reset()
    _random.reset()
    amp.autocast_mode._reset()
    cuda._memory_stats._resets.clear()
    _blas_workspace.reset()
    from ._tensor_str import set_printoptions as _sp
    _sp(profile="default")


from . import _C  # noqa: E402,F401
from . import _blas_workspace  # noqa: E402
from . import __future__  # noqa: E402,F401
from . import backends  # noqa: E402,F401
from .backends import get_float32_matmul_precision, set_float32_matmul_precision  # noqa: E402,F401

# Subpackages written on top of the core (nn, optim, utils) import torch themselves, so they come last.
from . import nn  # noqa: E402,F401
# torch.<name> for the nn kernels that PyTorch also exposes on torch (distances, activations)
from .nn._functional_distance import cdist, cosine_similarity, dist, pairwise_distance, pdist  # noqa: E402,F401
from .nn._functional_activation import (  # noqa: E402,F401
    celu, celu_, hardshrink, prelu, rrelu, rrelu_, selu, selu_, threshold, threshold_)
from .linalg import matrix_power  # noqa: E402,F401
from .nn._functional_resample import channel_shuffle, pixel_shuffle, pixel_unshuffle  # noqa: E402,F401
Tensor.dist = lambda self, other, p=2: dist(self, other, p)
Tensor.hardshrink = lambda self, lambd=0.5: hardshrink(self, lambd)
Tensor.matrix_power = lambda self, n: matrix_power(self, n)
Tensor.prelu = lambda self, weight: prelu(self, weight)
from ._finfo import finfo, iinfo  # noqa: E402,F401
from ._ops import extra_install as _extra_install  # noqa: E402
_extra_install.install(_sys.modules[__name__], Tensor)  # sgn, meshgrid, diff, quantile, ... (extra_ops.py)
from . import optim  # noqa: E402,F401
from . import utils  # noqa: E402,F401
from . import distributions  # noqa: E402,F401
from . import jit  # noqa: E402,F401
from . import special  # noqa: E402,F401

# The C++ fast path of the elementwise ops goes in front of Tensor's operators/methods and torch.add,
# torch.relu, ... last, once every Python implementation it falls back to exists (see _fast_ops.py).
from . import _fast_ops  # noqa: E402
_fast_ops.install()
from . import profiler  # noqa: E402,F401 - torch.profiler / torch.autograd.profiler resolve after `import torch`
from .autograd import profiler as _autograd_profiler  # noqa: E402,F401
