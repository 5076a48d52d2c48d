"""How every aten op reaches the recorder: a dispatch mode, entered for the whole run.

torch 2.x keeps its mode stack in C++ and calls a TorchDispatchMode's __torch_dispatch__ with the mode popped
for the op's own work: RecordingMode is the plain, documented way. torch 1.13's stack lives in Python: every op
goes through _TorchDispatchStackMode, whose generator context manager (_pop_mode_temporarily) costs as much as
the recorder's own bookkeeping. There SlotMode sits in the single dispatch-mode slot underneath
(torch._C._set_torch_dispatch_mode, what that stack itself is built on) and empties the slot while the op runs,
which is what the stack does when it holds one mode. A mode the program pushes itself (`with SomeMode():`)
takes the slot from it for as long as it is entered; ensure() puts SlotMode back once the stack is empty again
(at every outermost forward, backward and optimizer step).
"""
import torch
from torch.utils import _python_dispatch as python_dispatch
from torch.utils._python_dispatch import TorchDispatchMode

from .recorder import _PASS as PASS


class RecordingMode(TorchDispatchMode):
    """Hands every aten op to the recorder (the mode is off while it runs: the op's own ops are not seen)."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return self.recorder.on_op(func, args, kwargs or {})

    def ensure(self):
        pass

    def leave(self):
        self.__exit__(None, None, None)


class SlotMode:
    def __init__(self, recorder):
        self.recorder = recorder
        self.kinds = recorder.op_kinds
        self.set = torch._C._set_torch_dispatch_mode
        self.stack_len = torch._C._len_torch_dispatch_stack
        self.active = True
        self.set(self)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        # Views and in-place ops (most ops) are run from here, one Python call less than through on_op.
        entry = self.kinds.get(id(func))
        self.set(None)
        try:
            if entry is not None and entry[1] is PASS and entry[0] is func:
                return func(*args, **(kwargs or {}))
            return self.recorder.on_op(func, args, kwargs or {})
        finally:
            self.set(self)

    def ensure(self):
        if self.active and not self.stack_len():
            self.set(self)

    def leave(self):
        self.active = False
        if not self.stack_len():
            self.set(None)


def make_mode(recorder):
    """The mode, entered. The 1.13 shortcut only when nothing is on the Python stack yet."""
    if (hasattr(python_dispatch, "_TorchDispatchStackMode") and hasattr(torch._C, "_set_torch_dispatch_mode")
            and hasattr(torch._C, "_len_torch_dispatch_stack") and not torch._C._len_torch_dispatch_stack()):
        return SlotMode(recorder)
    mode = RecordingMode(recorder)
    mode.__enter__()
    return mode
