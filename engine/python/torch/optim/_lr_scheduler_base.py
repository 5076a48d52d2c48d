# The base of torch.optim.lr_scheduler (PyTorch 2.x's LRScheduler): initial_lr bookkeeping, the optimizer.step
# wrapper that lets the first scheduler.step() warn when it comes before optimizer.step(), the chainable /
# closed-form step, get_last_lr and state_dict. The schedulers themselves live in lr_scheduler.py and
# _lr_scheduler_cycles.py.
import warnings
from functools import wraps
from weakref import ref

import torch
from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

_OVERRIDDEN_STEP = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_STEP_BEFORE_OPTIMIZER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_VERBOSE_DEPRECATED = ("The verbose parameter is deprecated. Please use get_last_lr() "
                       "to access the learning rate.")


def check_verbose(verbose):
    """2.x deprecates `verbose` (a warning when it is passed at all); it still prints when true."""
    if verbose != "deprecated":
        warnings.warn(_VERBOSE_DEPRECATED, UserWarning)
        return verbose
    return False


def format_param(name, optimizer, param):
    """One value per param group: a list/tuple must have one per group, a single value is repeated."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(param)} values, param_groups has {len(optimizer.param_groups)}.")
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, torch.Tensor) else p for p in param]


def warn_get_lr_outside_step(scheduler):
    if not scheduler._get_lr_called_within_step:
        warnings.warn("To get the last learning rate computed by the scheduler, "
                      "please use `get_last_lr()`.", UserWarning, stacklevel=3)


def _mark_optimizer_steps(scheduler):
    """Wraps optimizer.step (once per optimizer) so that a call records `_opt_called` on the optimizer."""
    opt = scheduler.optimizer
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = ref(opt)
    func = opt.step.__func__

    @wraps(func)
    def wrapper(*args, **kwargs):
        o = opt_ref()
        o._opt_called = True
        return func.__get__(o, o.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    opt.step = wrapper


class _Flag:
    """Sets scheduler.<attr> True for the duration of a with block."""

    def __init__(self, scheduler, attr):
        self.scheduler, self.attr = scheduler, attr

    def __enter__(self):
        setattr(self.scheduler, self.attr, True)
        return self

    def __exit__(self, *exc):
        setattr(self.scheduler, self.attr, False)


class LRScheduler:
    _get_lr_called_within_step = False
    _is_initial = False
    verbose = False

    def __init__(self, optimizer, last_epoch=-1, verbose="deprecated"):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, torch.Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError("param 'initial_lr' is not specified "
                                   f"in param_groups[{i}] when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _mark_optimizer_steps(self)
        self.verbose = check_verbose(verbose)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        with _Flag(self, "_is_initial"):
            self.step()

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def print_lr(self, is_verbose, group, lr, epoch=None):
        if is_verbose:
            if epoch is None:
                print(f"Adjusting learning rate of group {group} to {lr:.4e}.")
            else:
                epoch_str = ("%.2f" if isinstance(epoch, float) else "%.5d") % epoch
                print(f"Epoch {epoch_str}: adjusting learning rate of group {group} to {lr:.4e}.")

    def step(self, epoch=None):
        # https://github.com/pytorch/pytorch/issues/20124: the first real step should follow optimizer.step()
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_OVERRIDDEN_STEP, UserWarning)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_STEP_BEFORE_OPTIMIZER, UserWarning)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        with _Flag(self, "_get_lr_called_within_step"):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        for i, (group, lr) in enumerate(zip(self.optimizer.param_groups, values)):
            if isinstance(group["lr"], torch.Tensor):
                group["lr"].fill_(lr.item() if isinstance(lr, torch.Tensor) else lr)
            else:
                group["lr"] = lr
            self.print_lr(self.verbose, i, lr, epoch)
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]


class _LRScheduler(LRScheduler):
    """The pre-2.0 name, a subclass so that its __name__ stays _LRScheduler."""
