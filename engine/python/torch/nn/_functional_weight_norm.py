# torch._weight_norm and torch.norm_except_dim as ATen's WeightNorm.cpp computes them. norm_except_dim is a
# composite of views and a norm (its graph is theirs). _weight_norm takes 2.x's fused kernel
# (_weight_norm_interface: one WeightNormInterfaceBackward0 node saving v, g, dim and the norms it returns as
# a second output, allocated after the weight) when the norm runs over every dim but the first or the last and
# no operand is half; otherwise the double-differentiable composite v * (g / norm_except_dim(v, 2, dim)).
# (1.13's CPU build always took the composite: conformance compares values and gradients only.)
import torch
from .._ops._core import materialize
from .._scratch import scratch
from ._composite import named


def norm_except_dim(v, pow=2, dim=0):
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        output_size = [1] * v.dim()
        output_size[0] = v.size(0)
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(output_size)
    if dim == v.dim() - 1:
        output_size = [1] * v.dim()
        output_size[v.dim() - 1] = v.size(v.dim() - 1)
        return v.contiguous().view(-1, v.size(v.dim() - 1)).norm(pow, 0).view(output_size)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v_in, g_in, dim=0):
    if v_in.device != g_in.device:
        raise RuntimeError("weight_norm: expected v_in and g_in to be on the same device, but v_in is on {} and "
                           "g_in is on {}".format(v_in.device, g_in.device))
    v = v_in.contiguous()
    g = g_in.contiguous()
    has_half_dtype = v.dtype == torch.float16 or g.dtype == torch.float16
    can_use_fused = not has_half_dtype and (dim == 0 or dim == v.dim() - 1)
    if not can_use_fused:
        return v * (g / norm_except_dim(v, 2, dim))
    return _weight_norm_interface(v, g, dim)[0]


def _weight_norm_interface(v, g, dim=0):
    """(w, norms): the fused kernel's two outputs (norms in float for bfloat16, as its accumulate type)."""
    def compute(v_, g_):
        return v_ * (g_ / norm_except_dim(v_, 2, dim))

    state = {}

    def buffers(result):
        with torch.no_grad(), scratch():
            n = norm_except_dim(v, 2, dim)
            if n.dtype == torch.bfloat16:
                n = n.float()
        state["norms"] = materialize(n)
        return state["norms"]

    def saved(result, norms_):
        return {"dim": dim, "g": g, "result1": norms_, "v": v}

    w = named("WeightNormInterfaceBackward0", compute, (v, g), saved=saved, buffers=buffers)
    return w, state["norms"]
