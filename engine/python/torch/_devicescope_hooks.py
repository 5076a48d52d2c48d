# DeviceScope's hooks for torch.nn / optim / utils.data: names and roles of storages and module moves, for
# the views. They annotate storages and the event log; they never change behaviour.
import contextvars
import os
import sys

import _devicescope_C as _E

ROLES = _E.role_names()  # ("tensor", "parameter", ..., "optimizer_state", ...): spelled once, in core/role.h

# Who the copies issued now are for, and the role of the storages made now (int(ds::Role)). Context
# variables, so each thread (and asyncio task) has its own: a daemon thread's copies during the main thread's
# `model.to("cuda")` are not the model's. The engine reads them at each allocation and copy (copy_origin.h).
_owner = contextvars.ContextVar("devicescope_copy_owner", default="")
_role = contextvars.ContextVar("devicescope_new_storage_role", default=_E.role_code("tensor"))
_role_name = contextvars.ContextVar("devicescope_new_storage_role_name", default="tensor")
_E.register_copy_origin(_owner, _role)


def set_owner_hint(qualified_name):
    """Names the owner of this thread's copies until the next call ("" clears it), e.g. "model.fc.weight"."""
    _owner.set(qualified_name or "")


def note_module_move(begin, module_name, target):
    """Brackets a Module.to/cuda/cpu/half... conversion in the event log ("model -> cuda:0")."""
    _E.note_module_move(bool(begin), module_name or "", str(target))


def tag(tensor, role, owner):
    """Says what a tensor's storage is for (role, see ROLES) and who owns it ("model.fc.weight").
    None (an unset buffer, a missing grad) has no storage to tag."""
    if tensor is not None:
        _E.tag(tensor._impl, role, owner or "")


def set_new_storage_role(role):
    """Role of the storages this thread makes from now on (see ROLES); returns the previous one, to restore it."""
    code = _E.role_code(role)  # raises for an unknown role before anything changes
    previous = _role_name.get()
    _role.set(code)
    _role_name.set(role)
    return previous


def note(text):
    _E.note(str(text))


# For the names in `run --trace/--csv` exports (Note [Names in exports], engine/trace/export_names.h): the
# parameter storage each gradient storage was made for, so a gradient freed before the export
# (zero_grad(set_to_none=True) every step) is still named after its parameter ("model.fc.weight.grad").
# Bounded like the event log: the oldest entries go first.
_gradient_of = {}
_GRADIENT_OF_LIMIT = 1 << 20


def note_gradient(param, grad):
    """Remembers that `grad`'s storage is the gradient of `param`'s storage (export naming only)."""
    try:
        g, p = int(grad._impl.storage_id), int(param._impl.storage_id)
    except AttributeError:
        return
    if len(_gradient_of) >= _GRADIENT_OF_LIMIT:
        del _gradient_of[next(iter(_gradient_of))]
    _gradient_of[g] = p


def gradient_storages():
    """{gradient storage id: its parameter's storage id} for the export's names."""
    return dict(_gradient_of)


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
    while frame is not None and frame.f_code.co_filename.startswith(_TORCH_DIR):
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
            d = getattr(v, "__dict__", None)  # user objects: any value, with or without a __dict__
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


_TORCH_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def impl_converter(device, non_blocking):
    """For Module.to(device): a function impl -> new impl (or None when unchanged) that skips building
    a Python Tensor per parameter. It is the engine's own Tensor.to(device) path, so the result is the
    same; Module._apply hands its `device` and `non_blocking` to the engine's per-module loop
    (_E.move_module_params). None when there is no device to move to."""
    if device is None:
        return None
    to_device_dtype = _E.to_device_dtype

    def convert_impl(impl):
        return to_device_dtype(impl, device, None, non_blocking, False)

    convert_impl.device = device
    convert_impl.non_blocking = bool(non_blocking)
    return convert_impl
