# torch.optim.Adagrad (PyTorch 2.x single-tensor rule). As in PyTorch its state (step, sum) is made in the
# constructor, on each parameter's device at that moment, not at the first step.
import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        H.check(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                init_value = group["initial_accumulator_value"]
                S.create(self, p, {"step": S.new_step(),
                                   "sum": torch.full_like(p, init_value, memory_format=torch.preserve_format)})

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, foreach=None, maximize=False, differentiable=False, fused=None)

    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def step(self, closure=None):
        loss = S.run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, lr_decay, weight_decay, eps = group["lr"], group["lr_decay"], group["weight_decay"], group["eps"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    step = state["step"].item()
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    clr = lr / (1 + (step - 1) * lr_decay)
                    state["sum"].addcmul_(grad, grad, value=1)
                    std = state["sum"].sqrt().add_(eps)
                    p.addcdiv_(grad, std, value=-clr)
        return loss
