# Autocast's per-op dtype policy (PyTorch's lists in aten/src/ATen/autocast_mode.cpp), applied by wrapping the
# public entry points only while an autocast region is active: nothing is wrapped, and nothing costs anything,
# outside `with torch.autocast(...)`. The op layer stays untouched.
# - LOWER ops (matmul, linear, conv, ...) run in the autocast dtype: float32 inputs on the autocast device are
#   cast down (leaf tensors that require grad, i.e. weights, through a per-region cache, so each weight's half
#   copy is made once per region, as PyTorch does; they are real tensors, visible in the memory panes).
# - FP32 ops (softmax, losses, norms, exp/log/pow, sum, ...) run in float32: half inputs are cast up.
# - BANNED ops raise PyTorch's error (binary_cross_entropy on CUDA).
# Only calls from user code (or from an nn module's forward) follow the policy; the ops a torch function
# makes internally keep their own dtypes, as PyTorch's single kernels would.
import functools
import sys

from .. import _dtype as D
from . import _state

LOWER = {
    "torch": ["matmul", "mm", "bmm", "mv", "addmm", "addmv", "addbmm", "baddbmm", "einsum", "chain_matmul",
              "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu"],
    "torch.nn.functional": ["linear", "bilinear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                            "conv_transpose2d", "conv_transpose3d", "prelu", "scaled_dot_product_attention"],
    "torch.Tensor": ["__matmul__", "__rmatmul__", "matmul", "mm", "bmm", "mv", "addmm", "addmv", "baddbmm"],
}
FP32 = {
    "torch": ["acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p", "reciprocal",
              "rsqrt", "sinh", "tan", "pow", "softmax", "log_softmax", "cumsum", "cumprod", "sum", "prod", "norm",
              "logsumexp", "cdist", "dist", "cosine_similarity", "layer_norm", "group_norm"],
    "torch.nn.functional": ["softplus", "layer_norm", "group_norm", "normalize", "cosine_similarity", "softmax",
                            "log_softmax", "softmin", "nll_loss", "cross_entropy", "kl_div", "l1_loss",
                            "smooth_l1_loss", "huber_loss", "mse_loss", "margin_ranking_loss",
                            "multilabel_margin_loss", "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss",
                            "binary_cross_entropy_with_logits", "poisson_nll_loss", "cosine_embedding_loss",
                            "hinge_embedding_loss", "pdist", "interpolate", "upsample"],
    "torch.Tensor": ["exp", "expm1", "log", "log10", "log2", "log1p", "reciprocal", "rsqrt", "pow", "softmax",
                     "log_softmax", "cumsum", "cumprod", "sum", "prod", "norm", "logsumexp"],
}
BANNED = {"torch.nn.functional": ["binary_cross_entropy"]}

_installed = []  # (owner, name, original) while any autocast region is active


def _owner(path):
    import torch
    return {"torch": torch, "torch.nn.functional": torch.nn.functional, "torch.Tensor": torch.Tensor}[path]


def _from_user_code():
    """True when the wrapped op was called by the user's code or an nn module's forward, not by the
    implementation of another torch function."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_name == "profiled_op":  # torch.profiler's timing wrapper
        frame = frame.f_back
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    return not name.startswith("torch") or name.startswith("torch.nn.modules")


def _cast(value, device_type, to, eligible):
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        if value.device.type == device_type and value.dtype in eligible and value.dtype is not to:
            return _state.cached_cast(value, to)
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, to, eligible) for v in value)
    return value


def _active_policy():
    """(device_type, dtype) of the innermost enabled autocast region, or None."""
    for device_type in ("cuda", "cpu"):
        if _state.is_enabled(device_type):
            return device_type, _state.get_dtype(device_type)
    return None


def _wrap(fn, category, qualname):
    @functools.wraps(fn)
    def autocast_wrapper(*args, **kwargs):
        active = _active_policy()
        if active is None or not _from_user_code():
            return fn(*args, **kwargs)
        device_type, low = active
        if category == "banned":
            if device_type == "cuda":
                raise RuntimeError(
                    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
                    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
                    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
                    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
                    "safe to autocast.")
            return fn(*args, **kwargs)
        if category == "lower":
            to, eligible = low, (D.float32, D.float16, D.bfloat16)
        else:
            to, eligible = D.float32, (D.float16, D.bfloat16)
        args = tuple(_cast(a, device_type, to, eligible) for a in args)
        kwargs = {k: _cast(v, device_type, to, eligible) for k, v in kwargs.items()}
        return fn(*args, **kwargs)
    autocast_wrapper._autocast_original = fn
    return autocast_wrapper


def install():
    if _installed:
        return
    for table, category in ((LOWER, "lower"), (FP32, "fp32"), (BANNED, "banned")):
        for path, names in table.items():
            owner = _owner(path)
            for name in names:
                original = getattr(owner, name, None)
                if original is None:
                    continue
                # What goes back on exit: the raw class attribute (an instancemethod stays one), or nothing
                # when the class inherited it from a mixin.
                if isinstance(owner, type):
                    raw = owner.__dict__.get(name)
                else:
                    raw = original
                _installed.append((owner, name, raw))
                setattr(owner, name, _wrap(original, category, f"{path}.{name}"))


def uninstall():
    while _installed:
        owner, name, original = _installed.pop()
        if original is None:
            delattr(owner, name)
        else:
            setattr(owner, name, original)
