# torch.optim.Adadelta (PyTorch 2.x single-tensor rule): square_avg and acc_delta made at the first step.
import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        H.check(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, foreach=None, maximize=False, differentiable=False, capturable=False)

    def step(self, closure=None):
        loss = S.run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if len(state) == 0:
                        state = S.create(self, p, {"step": S.new_step(), "square_avg": torch.zeros_like(p),
                                                   "acc_delta": torch.zeros_like(p)})
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                    std = square_avg.add(eps).sqrt_()
                    delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                    p.add_(delta, alpha=-lr)
        return loss
