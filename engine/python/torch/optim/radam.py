# torch.optim.RAdam (PyTorch 2.x single-tensor rule): Adam whose adaptive step is switched on, rectified,
# once the variance estimate is tractable (rho_t > 5); plain momentum SGD before that.
import math

import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        H.check(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, foreach=None, maximize=False, differentiable=False, decoupled_weight_decay=False,
                             capturable=False)

    def step(self, closure=None):
        loss = S.run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                (beta1, beta2), lr, eps, weight_decay = group["betas"], group["lr"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if len(state) == 0:
                        state = S.create(self, p, {"step": S.new_step(), "exp_avg": torch.zeros_like(p),
                                                   "exp_avg_sq": torch.zeros_like(p)})
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    step = state["step"].item()
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            p.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(p, alpha=weight_decay)
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    bias_corrected_exp_avg = exp_avg / bias_correction1
                    rho_inf = 2 / (1 - beta2) - 1
                    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                    if rho_t > 5.0:
                        rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                        adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
                        p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                    else:
                        p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss
