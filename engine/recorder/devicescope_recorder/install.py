"""Everything the recorder changes in torch while it runs, undone by Installed.uninstall().

- the dispatch mode that hands every aten op to the recorder (modes.py);
- global module forward hooks (the module stack that names activations);
- torch.autograd.backward / grad (gradients are named when a backward ends);
- Optimizer.__init__ (optimizers are known for naming their state), Optimizer.zero_grad (run unseen: it
  only zeroes or drops gradients) and the optimizer's class `step`, wrapped as torch itself wraps it for the
  profiler (functools.wraps keeps its `hooked` mark, so torch does not wrap it again). The step stays a
  method: LR schedulers wrap `opt.step` through `opt.step.__func__` / `__self__`, which a plain function set
  on the instance does not have (the AttributeError of issue 22). A wrapper with try/finally rather than
  torch 2.x's step pre/post hooks: a step that raises calls no post hook, and would leave the ops unseen;
- nn.Module._apply / to (storages replaced by model.to() are named before they go).
"""
import functools
import os
import weakref

import torch

from .modes import make_mode
from .recorder import _DisableDispatch, quiet

_MISSING = object()
_active = []      # recorders installed in this process
_fork_hook = []   # register_at_fork cannot be undone: registered once per process


def _forked():
    for installed in _active:
        for h in installed.module_hooks:
            h.remove()
        installed.module_hooks = []
        installed.recorder.passthrough()


class Installed:
    def __init__(self, recorder):
        r = self.recorder = recorder
        mm = torch.nn.modules.module
        self.module_hooks = [mm.register_module_forward_pre_hook(r.forward_pre_hook),
                             mm.register_module_forward_hook(r.forward_hook)]
        self.patched = []
        self.patch(torch.autograd, "backward", r.around_backward(torch.autograd.backward))
        self.patch(torch.autograd, "grad", r.around_backward(torch.autograd.grad))
        self.install_step_hook()
        Optimizer = torch.optim.Optimizer
        original_init = Optimizer.__init__

        def init(opt, *args, **kwargs):
            original_init(opt, *args, **kwargs)
            r.add_optimizer(opt)

        self.patch(Optimizer, "__init__", init)
        self.patch_module_moves()
        self.mode = make_mode(recorder)
        recorder.ensure_mode = self.mode.ensure
        # A forked child (DataLoader workers, multiprocessing) inherits the mode and the hooks, and its
        # recorder copy is never written: it hands ops straight through (no per-op bookkeeping in workers).
        if hasattr(os, "register_at_fork") and not _fork_hook:
            os.register_at_fork(after_in_child=_forked)
            _fork_hook.append(True)
        _active.append(self)

    # ---- optimizer steps ---------------------------------------------------------------------
    def install_step_hook(self):
        self.step_depth = 0
        self.stepped = weakref.WeakSet()  # optimizers whose first step was recorded
        self.recorder.on_optimizer = lambda opt: self.wrap_step(type(opt))
        original_zero = torch.optim.Optimizer.zero_grad

        @functools.wraps(original_zero)
        def zero_grad(*args, **kwargs):  # only zero_ or None on existing gradients: nothing to see
            guard = _DisableDispatch()
            try:
                return original_zero(*args, **kwargs)
            finally:
                del guard

        self.patch(torch.optim.Optimizer, "zero_grad", zero_grad)

    def wrap_step(self, cls):
        """cls.step wrapped once (a subclass's step calling super().step() is one step). An optimizer's first
        step is recorded op by op (its state made, its temporaries); the later ones run unseen, unless
        DEVICESCOPE_RECORD_STEPS=all: they only update storages in place, and their per-op dispatch would be
        most of the recording's cost. After every step the name pass sees the state."""
        if any(owner is cls and name == "step" for owner, name, _ in self.patched):
            return
        original = cls.step  # as the class sees it (inherited, or already hooked by torch's profiler wrap)
        every_step = os.environ.get("DEVICESCOPE_RECORD_STEPS", "") == "all"

        @functools.wraps(original)
        def step(*args, **kwargs):
            opt = args[0] if args else None
            guard = None
            if not self.step_depth and not every_step and opt in self.stepped:
                guard = _DisableDispatch()
            self.step_depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                del guard
                self.step_depth -= 1
                if not self.step_depth:
                    if opt is not None:
                        self.stepped.add(opt)
                    self.recorder.after_step()

        self.patched.append((cls, "step", cls.__dict__.get("step", _MISSING)))
        cls.step = step

    # ---- module moves --------------------------------------------------------------------------
    def patch_module_moves(self):
        r = self.recorder
        Module = torch.nn.Module
        original_apply, original_to = Module._apply, Module.to
        depth = [0]

        @quiet
        def before(module):
            r.module_parts(module)
            r.name_pass()  # the storages about to be replaced get their names before they go

        @quiet
        def after():
            r.members.clear()  # the module's tensors may be new objects
            r.name_pass()
            r.sweep()

        def apply(module, fn, *args, **kwargs):
            if depth[0] == 0:
                before(module)
            depth[0] += 1
            try:
                return original_apply(module, fn, *args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    after()

        def to(module, *args, **kwargs):
            if depth[0]:
                return original_to(module, *args, **kwargs)
            device, dtype, _, _ = torch._C._nn._parse_to(*args, **kwargs)
            label = r.module_parts(module) + [" -> %s" % ", ".join(str(x) for x in (device, dtype) if x is not None)]
            r.event("module-move-begin", "pageable", 0, 0, 0, label)
            try:
                return original_to(module, *args, **kwargs)
            finally:
                r.event("module-move-end", "pageable", 0, 0, 0, label)

        self.patch(Module, "_apply", apply)
        self.patch(Module, "to", to)

    def patch(self, owner, name, value):
        self.patched.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, value)

    def uninstall(self):
        if self in _active:
            _active.remove(self)
        self.mode.leave()
        for h in self.module_hooks:
            h.remove()
        for owner, name, value in reversed(self.patched):
            if value is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, value)
        self.patched = []
