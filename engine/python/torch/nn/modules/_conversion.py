# Module._apply's parameter conversion and the per-conversion state (qualified names for the engine,
# settings looked up once). Kept apart from module.py so the Module class reads like PyTorch's.
import threading

import _devicescope_C as _E

import torch
from ... import _devicescope_hooks as _hooks
from ..parameter import Parameter


class _ConversionState(threading.local):
    """Where a conversion (to/cuda/cpu/...) is: the qualified prefix of the module being applied, and
    settings looked up once per conversion instead of once per module.

    PyTorch's _apply recursion does not carry names; DeviceScope needs "model.encoder.0.weight"
    for each new storage, so the prefix travels here instead of through _apply's signature
    (subclasses that override _apply(fn) keep working). Per thread: another thread's conversion is its own.
    """

    def __init__(self):
        self.depth = 0
        self.prefix = ""
        self.hint = None
        self.compat = None
        self.overwrite = False
        self.no_grad = False   # a no_grad scope covering the whole conversion is active


_conv = _ConversionState()


def _compatible_types():
    # Read at each conversion, not bound at import: tests replace torch._has_compatible_shallow_copy_type.
    return torch._has_compatible_shallow_copy_type


def _overwrite_on_conversion():
    return bool(torch.__future__.get_overwrite_module_params_on_conversion())


def _apply_params(module, fn, params, prefix, hint, compat, overwrite):
    """The parameter half of Module._apply (fn under no_grad is the caller's job)."""
    todo = params
    impl_fn = getattr(fn, "_ds_impl", None)
    if impl_fn is not None and not overwrite:
        # Module.to(device) fast path: `param.data = param.to(device)` for every parameter and .grad of
        # this module, done in C++ on the engine's tensor impls (same storages, same records, each copy's
        # owner passed with it), without a Python Tensor or a context variable change per parameter.
        # What it returns (parameters that are not DeviceScope tensors) takes the general path below.
        todo = _E.move_module_params(params, prefix, impl_fn.device, impl_fn.non_blocking)
        if not todo:
            return
    for key, param in todo.items():
        if param is None:
            continue
        hint(prefix + key)
        param_applied = fn(param)
        if not overwrite and (compat is None or compat(param, param_applied)):
            # Identity kept: the same Parameter object now points at the new storage
            # (`param.data = param_applied`, which is impl.set_data in DeviceScope's Tensor).
            if param_applied is not param:
                try:
                    param._impl.set_data(param_applied._impl)
                except AttributeError:
                    param.data = param_applied
            out_param = param
        else:
            assert isinstance(param, Parameter)
            assert param.is_leaf
            out_param = Parameter(param_applied, param.requires_grad)
            params[key] = out_param
            _hooks.tag(out_param, "parameter", prefix + key)
        grad = param._grad  # the leaf's .grad without the non-leaf access warning check
        if grad is not None:
            hint(prefix + key + ".grad")
            grad_applied = fn(grad)
            if not overwrite and (compat is None or compat(grad, grad_applied)):
                if grad_applied is not grad:
                    out_param.grad.data = grad_applied
            else:
                assert grad.is_leaf
                out_param.grad = grad_applied.requires_grad_(grad.requires_grad)

