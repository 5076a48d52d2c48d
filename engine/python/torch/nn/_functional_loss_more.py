# The margin and embedding losses of torch.nn.functional (re-exported there): triplet_margin_loss,
# margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss (ATen composites in Loss.cpp: their
# primitives make PyTorch's graph, reduced by apply_loss_reduction's mean() / sum()) and soft_margin_loss
# (an ATen kernel: SoftMarginLossBackward0).
import _devicescope_C as _E

import torch
from ._composite import named
from ._functional_distance import pairwise_distance
from ._functional_loss import _REDUCTION_ENUM, _Reduction, _check_reduction, _reduce

_EPSILON = 1e-12  # Loss.cpp's EPSILON for cosine_embedding_loss


def _reduction_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    return reduction


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    a, pd, n = anchor.dim(), positive.dim(), negative.dim()
    if not (a == pd == n):
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           "dimensions, but got: anchor {}D, positive {}D, and negative {}D inputs".format(a, pd, n))
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.min(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    return _reduce(output, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size()))
    output = (-target * (input1 - input2) + margin).clamp_min_(0)
    return _reduce(output, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min_(0)
    output_margin = torch.where(target != 1, margin_clamp, zeros)
    output_self = torch.where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_of(size_average, reduce, reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with sizes {} and {}.".format(
            list(input1.shape), list(input2.shape)))
    if targ_dim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with sizes {} and {}.".format(
            list(input1.shape), list(input2.shape)))
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = (input1 * input1).sum(targ_dim) + _EPSILON
    mag_square2 = (input2 * input2).sum(targ_dim) + _EPSILON
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    output_pos = torch.where(target == 1, pos, zeros)
    output_neg = torch.where(target == -1, neg, zeros)
    return _reduce(output_pos + output_neg, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """ATen's kernel: output = empty_like(input) filled with log1p(exp(-input * target)); a mean / sum is a
    0-dim temporary copied into output resized to 0-dim (its input-sized block stays). SoftMarginLossBackward0
    saves self and target."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if target.shape != input.shape:
        torch.broadcast_shapes(tuple(input.shape), tuple(target.shape))

    def compute(x, t):
        return _reduce(torch.log1p(torch.exp(-x * t)), reduction)

    def allocate(values):
        result = torch.empty(input.shape, dtype=values.dtype, device=values.device)
        if reduction == "none":
            return result, []
        temp = torch.empty((), dtype=values.dtype, device=values.device)  # the reduction's result
        result._impl.set_data(_E.as_strided(result._impl, (), (), 0))
        return result, [temp]
    return named("SoftMarginLossBackward0", compute, (input, target), allocate=allocate,
                 saved={"reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target})
