# F.poisson_nll_loss and F.gaussian_nll_loss: PyTorch builds both from primitive ops (ATen's poisson_nll_loss
# is a composite in Loss.cpp; gaussian_nll_loss is functional.py's Python), so they are written out here the
# same way and their graph and allocations are the primitives'.
import math

import torch
from ._functional_loss import _Reduction


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    # at::poisson_nll_loss
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling_term = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss += stirling_term.masked_fill(target <= 1, 0)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    # var.size == input.size: heteroscedastic, nothing to check. Otherwise var may be one dim short of input
    # (homoscedastic: unsqueezed to broadcast) or end in a size-1 dim.
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:  # Heteroscedastic case
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    # Entries of var must be non-negative
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    # Clamp for stability
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    # Calculate the loss
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
