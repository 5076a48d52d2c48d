# Bridge from torch.nn / optim / data to DeviceScope's engine hooks (names and roles of storages).
# The hooks live in torch._devicescope_hooks (written by the core); without them every call is a no-op.
import sys

import torch

_hooks = None


class _NoHooks:
    """Stand-in used when the core provides no hook module (e.g. unit tests over another torch)."""

    @staticmethod
    def set_owner_hint(name):
        pass

    @staticmethod
    def note_module_move(begin, module_name, target):
        pass

    @staticmethod
    def tag(tensor, role, owner):
        pass

    @staticmethod
    def set_new_storage_role(role):
        return "tensor"


def hooks():
    """The hook module, resolved once on first use (torch may still be importing when nn loads)."""
    global _hooks
    if _hooks is None:
        h = getattr(torch, "_devicescope_hooks", None)
        if h is None:
            try:
                from torch import _devicescope_hooks as h  # noqa: F811
            except Exception:
                h = _NoHooks()
        _hooks = h
    return _hooks


def tag(tensor, role, owner):
    """Tell the engine what a tensor's storage is for; never lets a hook failure reach user code."""
    if tensor is None or not isinstance(tensor, torch.Tensor):
        return
    try:
        hooks().tag(tensor, role, owner)
    except Exception:
        pass


def set_owner_hint(name):
    try:
        hooks().set_owner_hint(name)
    except Exception:
        pass


def set_new_storage_role(role):
    """Role of the storages made from now on; returns the previous one (to restore it)."""
    try:
        return hooks().set_new_storage_role(role)
    except Exception:
        return "tensor"


def note_module_move(begin, module_name, target):
    try:
        hooks().note_module_move(begin, module_name, target)
    except Exception:
        pass


def caller_name_of(obj, depth):
    """The variable name the user's code uses for `obj` in the frame `depth` levels up ("" if none).

    A module does not know its own variable name; the caller's locals, then globals, usually do
    (`model.to("cuda")` -> "model"). Only called once per top-level conversion, so the scan is cheap.
    """
    try:
        frame = sys._getframe(depth + 1)
    except ValueError:
        return ""
    # Skip frames inside torch itself (e.g. a subclass's to() calling super().to()).
    while frame is not None and _is_torch_frame(frame):
        frame = frame.f_back
    if frame is None:
        return ""
    scopes = (frame.f_locals, frame.f_globals)
    for scope in scopes:
        for k, v in scope.items():
            if v is obj and k != "self" and not k.startswith("__"):
                return k
    # One attribute deep: `self.model.to(device)` inside a method -> "self.model".
    for scope in scopes:
        for k, v in scope.items():
            d = getattr(v, "__dict__", None)
            if k.startswith("__") or not isinstance(d, dict) or isinstance(v, type):
                continue
            for a, x in d.items():
                if x is obj:
                    return k + "." + a
            children = d.get("_modules")  # a Module's registered children
            if isinstance(children, dict):
                for a, x in children.items():
                    if x is obj:
                        return k + "." + a
    return ""


_TORCH_DIR = None


def _is_torch_frame(frame):
    global _TORCH_DIR
    if _TORCH_DIR is None:
        import os
        _TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    return frame.f_code.co_filename.startswith(_TORCH_DIR)


def impl_converter(device, non_blocking):
    """For Module.to(device): a function impl -> new impl (or None when unchanged) that skips building
    a Python Tensor per parameter. It is the engine's own Tensor.to(device) path (`to_device_dtype`,
    which the core exposes for Module helpers), so the result is the same; None when unavailable."""
    if device is None:
        return None
    engine = sys.modules.get("_devicescope_C")
    f = getattr(engine, "to_device_dtype", None)
    if f is None:
        return None

    def convert_impl(impl):
        return f(impl, device, None, non_blocking, False)

    return convert_impl
