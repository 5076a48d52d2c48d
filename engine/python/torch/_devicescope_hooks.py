# Engine hooks for names and roles (called by torch.nn / optim / utils.data through torch/nn/_ds.py):
# they annotate storages and the event log for the views; they never change behaviour.
import _devicescope_C as _E

ROLES = ("tensor", "parameter", "buffer", "gradient", "plain_attribute", "optimizer_state", "activation",
         "pinned_staging")


def set_owner_hint(qualified_name):
    """Names the owner of the copies issued until the next call ("" clears it), e.g. "model.fc.weight"."""
    _E.set_owner_hint(qualified_name or "")


def note_module_move(begin, module_name, target):
    """Brackets a Module.to/cuda/cpu/half... conversion in the event log ("model -> cuda:0")."""
    _E.note_module_move(bool(begin), module_name or "", str(target))


def tag(tensor, role, owner):
    """Says what a tensor's storage is for (role, see ROLES) and who owns it ("model.fc.weight")."""
    impl = getattr(tensor, "_impl", None)
    if impl is None:
        return
    _E.tag(impl, role, owner or "")


def set_new_storage_role(role):
    """Role of storages made from now on (see ROLES); returns the previous one, to restore it."""
    return _E.set_new_storage_role(role)


def note(text):
    _E.note(str(text))
