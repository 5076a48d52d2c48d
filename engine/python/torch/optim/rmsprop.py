# torch.optim.RMSprop (PyTorch 2.x single-tensor rule): square_avg, optional momentum_buffer and grad_avg
# (centered), created at the first step on the parameter's device.
import torch
from . import _hyperparameters as H
from . import _lazy_state as S
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        H.check(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        H.set_group_defaults(self, momentum=0, centered=False, foreach=None, maximize=False, differentiable=False,
                             capturable=False)

    def step(self, closure=None):
        loss = S.run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
                momentum, centered, weight_decay = group["momentum"], group["centered"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if len(state) == 0:
                        entries = {"step": S.new_step(), "square_avg": torch.zeros_like(p)}
                        if momentum > 0:
                            entries["momentum_buffer"] = torch.zeros_like(p)
                        if centered:
                            entries["grad_avg"] = torch.zeros_like(p)
                        state = S.create(self, p, entries)
                    grad = S.grad_of(p, group["maximize"])
                    state["step"] += 1
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    square_avg = state["square_avg"]
                    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                    if centered:
                        grad_avg = state["grad_avg"]
                        grad_avg.lerp_(grad, 1 - alpha)
                        avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                    else:
                        avg = square_avg.sqrt()
                    avg = avg.add_(eps)
                    if momentum > 0:
                        buf = state["momentum_buffer"]
                        buf.mul_(momentum).addcdiv_(grad, avg)
                        p.add_(buf, alpha=-lr)
                    else:
                        p.addcdiv_(grad, avg, value=-lr)
        return loss
