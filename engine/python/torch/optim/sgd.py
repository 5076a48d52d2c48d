# torch.optim.SGD (momentum, dampening, weight decay, Nesterov, maximize) as PyTorch 2.6 runs it
# (torch/optim/sgd.py): _init_group collects the parameters with a gradient and their momentum buffers (None
# before the first step), sgd() picks foreach by default when every one of them is a plain Tensor/Parameter on
# CUDA (optimizer.py _default_to_fused_or_foreach), fused=True on request, else the single-tensor rule; the
# buffers it made are stored in the state afterwards. The momentum buffer is created at the first step, on the
# parameter's device at that moment.
import torch
from . import _foreach as F
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                params, grads, bufs = [], [], []
                for p in group["params"]:
                    if p.grad is not None:
                        params.append(p)
                        grads.append(p.grad)
                        if group["momentum"] != 0:
                            bufs.append(self.state[p].get("momentum_buffer"))
                foreach, fused = group["foreach"], group["fused"]
                if foreach is None and fused is None:
                    foreach = F.default_to_foreach(params, differentiable=False)  # sgd() passes False
                update = _fused if fused else _multi_tensor if foreach else _single_tensor
                update(params, grads, bufs, group)
                if group["momentum"] != 0:
                    for p, buf in zip(params, bufs):
                        state = self.state[p]
                        if state.get("momentum_buffer") is not buf:
                            self._tag_state(p, "momentum_buffer", buf)
                        state["momentum_buffer"] = buf
        return loss


def _hyper(group):
    return (group["lr"], group["momentum"], group["dampening"], group["weight_decay"], group["nesterov"],
            group["maximize"])


def _single_tensor(params, grads, bufs, group):
    """_single_tensor_sgd: per parameter, grad.add(param) for weight decay, torch.clone(grad).detach() as the
    first momentum buffer, grad.add(buf) for Nesterov."""
    lr, momentum, dampening, weight_decay, nesterov, maximize = _hyper(group)
    for i, p in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                buf = bufs[i] = torch.clone(grad).detach()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        p.add_(grad, alpha=-lr)


def _multi_tensor(params, grads, bufs, group):
    """_multi_tensor_sgd, per (device, dtype) group:
      maximize:     device_grads = _foreach_neg(device_grads)                 one new tensor per gradient
      weight decay: device_grads = _foreach_add(device_grads, params, alpha)  one per gradient (in place after
                                                                             maximize's copies)
      momentum, all buffers there: _foreach_mul_(bufs, momentum); _foreach_add_(bufs, grads, alpha=1-dampening)
      else per tensor: torch.clone(device_grads[i]).detach() for a missing buffer (buf.mul_().add_() otherwise)
      nesterov: _foreach_add_(device_grads, bufs, alpha=momentum) - IN PLACE: without decay or maximize these are
                the parameters' own .grad tensors, which PyTorch's foreach step leaves modified
      else device_grads = bufs                                                the decay copies die here
      _foreach_add_(device_params, device_grads, alpha=-lr)"""
    lr, momentum, dampening, weight_decay, nesterov, maximize = _hyper(group)
    grouped = F.group_by_device_and_dtype([params, grads, bufs])
    for (device_params, device_grads, device_bufs), indices in grouped.values():
        if maximize:
            device_grads = F.neg(device_grads)
        if weight_decay != 0:
            if maximize:
                F.add_list_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = F.add_list(device_grads, device_params, alpha=weight_decay)
        if momentum != 0:
            if all(b is not None for b in device_bufs):
                F.mul_scalar_(device_bufs, momentum)
                F.add_list_(device_bufs, device_grads, alpha=1 - dampening)
            else:
                for i, b in enumerate(device_bufs):
                    if b is None:
                        device_bufs[i] = bufs[indices[i]] = torch.clone(device_grads[i]).detach()
                    else:
                        b.mul_(momentum).add_(device_grads[i], alpha=1 - dampening)
            if nesterov:
                F.add_list_(device_grads, device_bufs, alpha=momentum)
            else:
                device_grads = device_bufs
        F.add_list_(device_params, device_grads, alpha=-lr)


def _fused(params, grads, bufs, group):
    """_fused_sgd: on the first step with momentum, torch.empty_like(g) per gradient for the buffers (when every
    buffer is missing), then one torch._fused_sgd_ kernel per device and dtype, which allocates nothing (the
    first step copies the gradient into the buffer). Its values: the single-tensor rule, intermediates scratch."""
    momentum = group["momentum"]
    first = momentum != 0 and all(b is None for b in bufs)
    if first:
        for i, g in enumerate(grads):
            bufs[i] = torch.empty_like(g)
    with F._scratch():
        if first:
            made = [None] * len(bufs)
            _single_tensor(params, grads, made, group)  # the first step's buffers, as clones (scratch)
            for b, m in zip(bufs, made):
                b.copy_(m)
        else:
            _single_tensor(params, grads, bufs, group)
