# torch.optim.Adam / AdamW as PyTorch 2.6 runs them (torch/optim/adam.py, adamw.py): state made for every
# parameter of a group first (_init_group), then one of three update paths, chosen as adam()/adamw() choose:
#  - foreach (the default when every parameter with a gradient is a plain Tensor/Parameter on CUDA,
#    optimizer.py _default_to_fused_or_foreach): _multi_tensor_adam(w), whose _foreach_* temporaries are the
#    allocations a CUDA step makes (see _multi_tensor below);
#  - fused=True: _fused_adam(w), one kernel per device and dtype that allocates nothing;
#  - single tensor (CPU, foreach=False, differentiable): _single_tensor_adam(w), per parameter.
# State made before a model move stays where it was made - the DeviceScope lesson.
import math

import torch
from . import _foreach as F
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


def _check_args(lr, betas, eps, weight_decay):
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None):
        _check_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)

    def _init_group(self, group, params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps):
        """adam.py _init_group: the parameters with a gradient, their state made at the first step in parameter
        order (`step` a float32 scalar, on the CPU unless capturable or fused; exp_avg, exp_avg_sq and amsgrad's
        max_exp_avg_sq as zeros_like(p, memory_format=torch.preserve_format))."""
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                if group["capturable"] or group["fused"]:
                    state["step"] = torch.zeros((), dtype=torch.float32, device=p.device)
                else:
                    state["step"] = torch.tensor(0.0, dtype=torch.float32)
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                for key, t in state.items():
                    self._tag_state(p, key, t)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            steps.append(state["step"])

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], [], [], []
                self._init_group(group, params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps)
                foreach, fused = group["foreach"], group["fused"]
                if foreach is None and fused is None:
                    foreach = F.default_to_foreach(params, group["differentiable"])
                if fused:
                    update = _fused
                elif foreach and not group["capturable"]:
                    update = _multi_tensor
                else:
                    update = _single_tensor
                update(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, group, self._decoupled)
        return loss


def _hyper(group):
    beta1, beta2 = group["betas"]
    return beta1, beta2, group["lr"], group["eps"], group["weight_decay"], group["amsgrad"], group["maximize"]


def _count(step_t):
    """A step counter's value. A virtual counter (fused / capturable state on a device, in a virtual step) has
    none; any count serves, as the bias corrections it gives only scale values a virtual step never computes."""
    return 1.0 if step_t._impl.is_virtual else step_t.item()


def _single_tensor(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, group, decoupled):
    """_single_tensor_adam(w) (non-capturable branch): per parameter, the temporaries of its expressions."""
    beta1, beta2, lr, eps, weight_decay, amsgrad, maximize = _hyper(group)
    for i, p in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        # lerp_ first, as 2.x: state left on another device (made before a model move) fails here with the
        # mixed-device error and is not modified.
        # lerp_, addcmul_, addcdiv_ and maximum(out=) are one ATen kernel each: whatever DeviceScope computes
        # them from is scratch (Note [Scratch allocations])
        with F._scratch():
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = _count(step_t)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = math.sqrt(bias_correction2)
        if amsgrad:
            with F._scratch():
                torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        with F._scratch():
            p.addcdiv_(exp_avg, denom, value=-step_size)


def _multi_tensor(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, group, decoupled):
    """_multi_tensor_adam / _multi_tensor_adamw (2.6, capturable=False), per (device, dtype) group:
      maximize:      device_grads = _foreach_neg(device_grads)                  one new tensor per gradient
      Adam's decay:  device_grads = _foreach_add(device_grads, params, alpha)   one per gradient (in place after
                                                                                maximize's copies)
      AdamW's decay: _foreach_mul_(device_params, 1 - lr * weight_decay)        in place
      _foreach_lerp_(exp_avgs, ...); _foreach_mul_(exp_avg_sqs, beta2); _foreach_addcmul_(exp_avg_sqs, ...)
      del device_grads                                                         the decay/maximize copies go
      bias corrections as Python floats (1 - beta ** step.item())
      exp_avg_sq_sqrt = _foreach_sqrt(exp_avg_sqs or max_exp_avg_sqs)          one per state tensor
      _foreach_div_(exp_avg_sq_sqrt, bias_correction2_sqrt); _foreach_add_(exp_avg_sq_sqrt, eps)
      _foreach_addcdiv_(params, exp_avgs, exp_avg_sq_sqrt, step_size)
    A list dies last reference first; CPython's list_dealloc releases its items from the end, so each
    temporary list is freed last tensor first: the decay copies at `del`, the square roots when the next
    group's replace them or when this function returns."""
    beta1, beta2, lr, eps, weight_decay, amsgrad, maximize = _hyper(group)
    grouped = F.group_by_device_and_dtype([params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps],
                                          steps_index=5)
    for (device_params, device_grads, device_exp_avgs, device_exp_avg_sqs, device_max_exp_avg_sqs,
         device_steps), _ in grouped.values():
        if maximize:
            device_grads = F.neg(device_grads)
        F.add_scalar_(device_steps, 1)  # CPU step counters (on the device when capturable): no device memory
        if weight_decay != 0:
            if decoupled:
                F.mul_scalar_(device_params, 1 - lr * weight_decay)
            elif maximize:
                F.add_list_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = F.add_list(device_grads, device_params, alpha=weight_decay)
        F.lerp_scalar_(device_exp_avgs, device_grads, 1 - beta1)
        F.mul_scalar_(device_exp_avg_sqs, beta2)
        F.addcmul_scalar_(device_exp_avg_sqs, device_grads, device_grads, 1 - beta2)
        del device_grads  # "Delete the local intermediate since it won't be used anymore to save on peak memory"
        counts = F.items(device_steps, _count)
        bias_correction1 = [1 - beta1 ** c for c in counts]
        bias_correction2 = [1 - beta2 ** c for c in counts]
        step_size = [(lr / bc) * -1 for bc in bias_correction1]
        bias_correction2_sqrt = [bc ** 0.5 for bc in bias_correction2]
        if amsgrad:
            F.maximum_(device_max_exp_avg_sqs, device_exp_avg_sqs)
            exp_avg_sq_sqrt = F.sqrt(device_max_exp_avg_sqs)
        else:
            exp_avg_sq_sqrt = F.sqrt(device_exp_avg_sqs)
        F.div_scalarlist_(exp_avg_sq_sqrt, bias_correction2_sqrt)
        F.add_scalar_(exp_avg_sq_sqrt, eps)
        F.addcdiv_scalarlist_(device_params, device_exp_avgs, exp_avg_sq_sqrt, step_size)


def _fused(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, group, decoupled):
    """_fused_adam(w): _foreach_add_(device_state_steps, 1) and one torch._fused_adam(w)_ kernel per device and
    dtype, which updates params and state in place and allocates nothing. Its values: the single-tensor rule,
    its intermediates scratch."""
    with F._scratch():
        _single_tensor(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, group, decoupled)


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                         foreach=foreach, maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused)
