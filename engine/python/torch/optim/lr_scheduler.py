# torch.optim.lr_scheduler as PyTorch 2.x has it: the chainable schedulers (each step updates the groups'
# current lr; step(epoch) uses the closed form where there is one) and the composites SequentialLR and
# ChainedScheduler here; ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts and OneCycleLR in
# _lr_scheduler_cycles.py. The arithmetic follows PyTorch's expressions term for term, so the learning rates
# are PyTorch's to the last bit.
import math
import types
from bisect import bisect_right
from collections import Counter

from ._lr_scheduler_base import (EPOCH_DEPRECATION_WARNING, LRScheduler, _LRScheduler,  # noqa: F401
                                 warn_get_lr_outside_step as _warn_outside)
from ._lr_scheduler_cycles import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR, ReduceLROnPlateau
from .optimizer import Optimizer  # noqa: F401

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
           "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler"]


def _lambdas(optimizer, lr_lambda):
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class _LambdaState:
    """state_dict keeps a callable object's __dict__ in place of each lambda; plain functions are not saved."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas  # the caller's dict is left as it was
        for idx, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[idx].__dict__.update(fn)


def _current(sched, factor=None):
    groups = sched.optimizer.param_groups
    return [g["lr"] for g in groups] if factor is None else [g["lr"] * factor for g in groups]


class LambdaLR(_LambdaState, LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose="deprecated"):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose="deprecated"):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self._is_initial:
            return _current(self)
        return [g["lr"] * lmbda(self.last_epoch) for lmbda, g in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose="deprecated"):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _current(self)
        return _current(self, self.gamma)

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose="deprecated"):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self.last_epoch not in self.milestones:
            return _current(self)
        return _current(self, self.gamma ** self.milestones[self.last_epoch])

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1, verbose="deprecated"):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self.last_epoch == 0:
            return _current(self, self.factor)
        if self.last_epoch != self.total_iters:
            return _current(self)
        return _current(self, 1.0 / self.factor)

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1,
                 verbose="deprecated"):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self.last_epoch == 0:
            return _current(self, self.start_factor)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _current(self)
        delta = self.end_factor - self.start_factor
        return _current(self, 1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta))

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1, verbose="deprecated"):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self._is_initial:  # resuming from a checkpoint must not move one step ahead
            return _current(self)
        return _current(self, self.gamma)

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose="deprecated"):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _current(self)
        decay = ((1.0 - self.last_epoch / self.total_iters)
                 / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return _current(self, decay)

    def _get_closed_form_lr(self):
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1, verbose="deprecated"):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        _warn_outside(self)
        groups = self.optimizer.param_groups
        eta_min, t_max, epoch = self.eta_min, self.T_max, self.last_epoch
        if self._is_initial:
            return _current(self)
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos((epoch) * math.pi / t_max)) / 2
                    for base_lr in self.base_lrs]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [g["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, g in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (g["lr"] - eta_min) + eta_min for g in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


def _check_members(owner, schedulers, optimizer):
    name = type(owner).__name__
    for idx, sched in enumerate(schedulers):
        if not hasattr(sched, "optimizer"):
            raise TypeError(f"{name} at index {idx} should have `optimizer` as its attribute.")
        if isinstance(sched, ReduceLROnPlateau):
            raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             "kwargs to be specified when calling `step`, but got one at index "
                             f"{idx} in the given schedulers sequence.")
        if optimizer != sched.optimizer:
            raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(sched).__name__} at index {idx} has {sched.optimizer}, which is different "
                             f"from {type(optimizer).__name__}.")


class _Composite:
    """state_dict holds each member scheduler's own state_dict in place of the schedulers."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = schedulers
        for idx, s in enumerate(schedulers):
            self._schedulers[idx].load_state_dict(s)


class SequentialLR(_Composite, LRScheduler):
    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1, verbose="deprecated"):
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler, but got no scheduler.")
        _check_members(self, schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                f"milestone points, but got number of schedulers {len(schedulers)} and the number of milestones "
                f"to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo what the members' construction did
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        self._schedulers[0]._initial_step()
        self._last_lr = schedulers[0].get_last_lr()

    def recursive_undo(self, sched=None):
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)  # the closed form at 0: the member restarts from its base lr
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_Composite, LRScheduler):
    def __init__(self, schedulers, optimizer=None):
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be chained, "
                             "but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_members(self, schedulers, optimizer)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = [g["lr"] for g in self._schedulers[-1].optimizer.param_groups]

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [g["lr"] for g in self._schedulers[-1].optimizer.param_groups]
