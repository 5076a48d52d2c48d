# clip_grad_norm_ / clip_grad_value_ / get_total_norm / clip_grads_with_norm_ as torch/nn/utils/clip_grad.py
# (2.x): per-device-group norms (torch._foreach_norm where foreach applies, linalg.vector_norm otherwise), the
# total as vector_norm of their stack, then the gradients scaled in place by min(max_norm / (total + 1e-6), 1).
# Each step allocates what PyTorch's does: a 0-dim norm per gradient, never a gradient-sized temporary.
import types
import warnings

import torch
from ...optim import _foreach

_FOREACH_DEVICES = ("cuda", "cpu")  # _device_has_foreach_support: the foreach kernels' devices plus "cpu"


def _has_foreach_support(tensors, device):
    return device.type in _FOREACH_DEVICES and all(t is None or type(t) is torch.Tensor for t in tensors)


def _device_groups(tensors):
    """_group_tensors_by_device_and_dtype([tensors]): {(device, dtype): tensors}, in order of first appearance."""
    return {key: lists[0] for key, (lists, _) in _foreach.group_by_device_and_dtype([tensors]).items()}


def _no_foreach(device):
    return RuntimeError(f"foreach=True was passed, but can't use the foreach API on {device.type} tensors")


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    with torch.no_grad():
        tensors = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
        norm_type = float(norm_type)
        if len(tensors) == 0:
            return torch.tensor(0.0)
        first_device = tensors[0].device
        norms = []
        for (device, _), group in _device_groups(tensors).items():
            if (foreach is None and _has_foreach_support(group, device)) or (
                    foreach and device.type in _FOREACH_DEVICES):
                norms.extend(_foreach.norm(group, norm_type))
            elif foreach:
                raise _no_foreach(device)
            else:
                norms.extend([torch.linalg.vector_norm(g, norm_type) for g in group])
        total_norm = torch.linalg.vector_norm(torch.stack([n.to(first_device) for n in norms]), norm_type)
        if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot "
                "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, "
                "set `error_if_nonfinite=False`")
        return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    with torch.no_grad():
        if isinstance(parameters, torch.Tensor):
            parameters = [parameters]
        grads = [p.grad for p in parameters if p.grad is not None]
        max_norm = float(max_norm)
        if len(grads) == 0:
            return
        clip_coef = max_norm / (total_norm + 1e-6)
        # multiplying by a coefficient clamped to 1 avoids a device sync on `if clip_coef < 1` (PyTorch's reason)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for (device, _), group in _device_groups(grads).items():
            if (foreach is None and _has_foreach_support(group, device)) or (
                    foreach and device.type in _FOREACH_DEVICES):
                _foreach.mul_tensor_(group, clip_coef_clamped.to(device))
            elif foreach:
                raise _no_foreach(device)
            else:
                coef = clip_coef_clamped.to(device)
                for g in group:
                    g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    with torch.no_grad():
        if isinstance(parameters, torch.Tensor):
            parameters = [parameters]
        else:
            is_generator = isinstance(parameters, types.GeneratorType)
            parameters = list(parameters)  # a generator would be used up by the first pass
            if is_generator and len(parameters) == 0:
                warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
        grads = [p.grad for p in parameters if p.grad is not None]
        total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
        clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
        return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    with torch.no_grad():
        if isinstance(parameters, torch.Tensor):
            parameters = [parameters]
        clip_value = float(clip_value)
        grads = [p.grad for p in parameters if p.grad is not None]
        for (device, _), group in _device_groups(grads).items():
            if (foreach is None and _has_foreach_support(group, device)) or (
                    foreach and device.type in _FOREACH_DEVICES):
                _foreach.clamp_min_(group, -clip_value)
                _foreach.clamp_max_(group, clip_value)
            elif foreach:
                raise _no_foreach(device)
            else:
                for g in group:
                    g.clamp_(min=-clip_value, max=clip_value)
