# torch.optim.NAdam (PyTorch 2.x single-tensor rule): Nesterov momentum with the mu schedule
# (momentum_decay); state step, mu_product (a CPU scalar tensor), exp_avg, exp_avg_sq.
import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["NAdam"]


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        H.check(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay, momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, maximize=False, foreach=None, capturable=False, differentiable=False,
                             decoupled_weight_decay=False)

    def step(self, closure=None):
        loss = S.run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                (beta1, beta2), lr, eps = group["betas"], group["lr"], group["eps"]
                weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if len(state) == 0:
                        state = S.create(self, p, {"step": S.new_step(),
                                                   "mu_product": torch.tensor(1.0, dtype=torch.float32),
                                                   "exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)})
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    step = state["step"].item()
                    bias_correction2 = 1 - beta2 ** step
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            p.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(p, alpha=weight_decay)
                    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                    state["mu_product"] *= mu
                    mu_product = state["mu_product"].item()
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
                    p.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - mu_product)))
                    p.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product * mu_next))
        return loss
