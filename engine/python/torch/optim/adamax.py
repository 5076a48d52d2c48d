# torch.optim.Adamax (PyTorch 2.x single-tensor rule): exp_avg and the infinity norm exp_inf.
import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        H.check(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, foreach=None, maximize=False, differentiable=False, capturable=False)

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
                                                   "exp_inf": torch.zeros_like(p)})
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    step = state["step"].item()
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_inf.copy_(torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
                    clr = lr / (1 - beta1 ** step)
                    p.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss
