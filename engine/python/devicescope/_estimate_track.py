# Who allocated what, and when, during a training step (devicescope estimate, issue 25).
#
# The runtime's event log already holds every device allocation and free in order, with the allocator's figure
# after each (bindings_estimate.cpp). What it does not know is *who* was running: this tracker adds that. It
# drains the log at every boundary it can see - a module's forward starting or ending (global forward hooks), an
# autograd node about to run (torch.autograd.graph._observer), an optimizer step starting or ending - and stamps
# the allocations made since the last boundary with the module path and phase that were current in between.
#
# Backward has no module hooks here, so a node is attributed to the module whose forward created it: forward
# records the autograd sequence number at each module boundary (nodes are numbered as they are made), and a
# node's number falls in the span of the innermost module that was running. AccumulateGrad goes to the module
# that owns the parameter. A module forward seen during backward is activation-checkpoint recomputation.
#
# Nothing here changes what the program does or allocates (the tracker's own bookkeeping is plain Python).
import sys

import _devicescope_C as _E

FORWARD = "forward"
BACKWARD = "backward"
OPTIMIZER = "optimizer step"
SETUP = "setup"
AFTER_BACKWARD = "after backward"
AFTER_STEP = "after optimizer step"


def _next_sequence_nr(graph):
    # itertools.count cannot be peeked without consuming; its repr is "count(N)" with N the next number.
    text = repr(graph._SEQUENCE)
    return int(text[text.index("(") + 1:-1])


def _common_prefix(a, b):
    """The innermost module path holding both: "M.layers.0.a", "M.layers.0.b" -> "M.layers.0"."""
    pa, pb = a.split("."), b.split(".")
    n = 0
    while n < len(pa) and n < len(pb) and pa[n] == pb[n]:
        n += 1
    return ".".join(pa[:n])


class Tracker:
    """Collects the device allocations of a run, each stamped with (module path, phase, iteration)."""

    def __init__(self):
        import bisect

        import torch
        from torch.autograd import graph
        self._bisect = bisect
        self._torch = torch
        self._graph = graph
        self.records = []        # alloc: (seq, True, dev, sid, after, module, phase, it, recompute); free: (seq, False, dev, sid, after, role, label)
        self.baseline = {}       # device -> memory_allocated when tracking started
        self.phase = SETUP
        self.iteration = 0       # counts forwards that start a new step (after a backward or a step)
        self._next_seq = _E.next_event_seq() or _E.estimate_first_kept_seq()
        self._stack = []         # module paths of the forwards running now (innermost last)
        self._names = {}         # id(module) -> path, for the modules of every root seen
        self._param_module = {}  # id(parameter) -> path of the module that registers it
        self._roots = {}         # id(root) -> number of its modules when named (renamed when it changes)
        self._cp_seq = []        # autograd sequence numbers where the innermost running module changed ...
        self._cp_mod = []        # ... and the module from there on
        self._backward_depth = 0
        self._stack_base = []    # len(self._stack) when each running backward began
        self._backward_module = ""
        self._step_depth = 0
        self._step_name = ""
        self.lost_events = False  # the bounded log dropped events before they were drained
        self.transitions = []     # (first event seq of the phase, phase, iteration), in order
        self.storage_module = {}  # storage id -> module path of parameters, their gradients, optimizer state
        self._root_modules = []
        self.failed_at = None     # context() when an exception first left backward or a step (an OOM's place)
        self._handles = []
        self._patched_steps = []
        for d in range(torch.cuda.device_count()):
            self.baseline[d] = torch.cuda.memory_allocated(d)

    # ---------------------------------------------------------------- install / remove
    def install(self):
        from torch.nn.modules import module as M
        self._handles.append(M.register_module_forward_pre_hook(self._pre_forward))
        self._handles.append(M.register_module_forward_hook(self._post_forward))
        if self._graph._observer is not None:
            raise RuntimeError("devicescope estimate: another estimate is already tracking this interpreter")
        self._graph._observer = self
        self._patch_optimizers()
        return self

    def remove(self):
        self.drain()
        for h in self._handles:
            h.remove()
        self._handles = []
        if self._graph._observer is self:
            self._graph._observer = None
        for cls, original in self._patched_steps:
            cls.step = original
        self._patched_steps = []
        from torch.optim import optimizer
        if "__init_subclass__" in optimizer.Optimizer.__dict__ and getattr(
                optimizer.Optimizer.__init_subclass__, "_ds_estimate", False):
            del optimizer.Optimizer.__init_subclass__

    def _patch_optimizers(self):
        from torch.optim.optimizer import Optimizer
        tracker = self

        def wrap(cls):
            original = cls.__dict__.get("step")
            if original is None or getattr(original, "_ds_estimate", False):
                return

            def step(opt, *args, **kwargs):
                tracker._step_enter(opt)
                try:
                    return original(opt, *args, **kwargs)
                finally:
                    tracker._step_exit(opt)
            step._ds_estimate = True
            step.__wrapped__ = original
            step.__name__ = getattr(original, "__name__", "step")
            step.__doc__ = getattr(original, "__doc__", None)
            cls.step = step
            self._patched_steps.append((cls, original))

        def walk(cls):
            wrap(cls)
            for sub in cls.__subclasses__():
                walk(sub)
        walk(Optimizer)

        # Optimizers the script defines itself are wrapped when their class is made.
        def init_subclass(cls, **kwargs):
            wrap(cls)
        init_subclass._ds_estimate = True
        Optimizer.__init_subclass__ = classmethod(init_subclass)

    # ---------------------------------------------------------------- draining the log
    def drain(self, module=None):
        """Stamps the events since the last drain with the context that was current while they happened."""
        events = _E.estimate_events_since(self._next_seq)
        if not events:
            return
        if _E.estimate_first_kept_seq() > self._next_seq:
            self.lost_events = True
        mod = self.current_module() if module is None else module
        phase, it = self.phase, self.iteration
        recompute = self._backward_depth > 0 and bool(self._stack)
        out = self.records
        for seq, is_alloc, dev, sid, after, role, label in events:
            if is_alloc:
                out.append((seq, True, dev, sid, after, mod, phase, it, recompute))
            else:
                out.append((seq, False, dev, sid, after, role, label))
        self._next_seq = events[-1][0] + 1

    def current_module(self):
        if self._stack:
            return self._stack[-1]
        if self._backward_depth > 0:
            return self._backward_module
        if self._step_depth > 0:
            return self._step_name  # "AdamW.step": the optimizer's own allocations (state, foreach temporaries)
        return ""

    # ---------------------------------------------------------------- module names
    def _name_root(self, root):
        names = {}
        prefix = type(root).__name__
        for name, m in root.named_modules():
            names[id(m)] = prefix + ("." + name if name else "")
        self._names.update(names)
        for name, m in root.named_modules():
            for p in m._parameters.values():
                if p is not None:
                    self._param_module.setdefault(id(p), names[id(m)])
        self._roots[id(root)] = len(names)

    def _path(self, module):
        path = self._names.get(id(module))
        if path is None:
            self._name_root(module)
            path = self._names[id(module)]
        return path

    # ---------------------------------------------------------------- forward
    def _pre_forward(self, module, args):
        self.drain()
        if not self._stack and self._backward_depth == 0:
            if self.phase != FORWARD:
                self.iteration += 1
            self._set_phase(FORWARD)
            if id(module) not in self._roots:
                self._name_root(module)
                self._root_modules.append(module)
                self._note_owners()
        path = self._path(module)
        self._stack.append(path)
        self._cp_seq.append(_next_sequence_nr(self._graph))
        self._cp_mod.append(path)

    def _post_forward(self, module, args, result):
        self.drain()
        if self._stack:
            self._stack.pop()
        self._cp_seq.append(_next_sequence_nr(self._graph))
        self._cp_mod.append(self._stack[-1] if self._stack else "")
        return None

    def module_of_node(self, node):
        variable = getattr(node, "variable", None)
        if variable is not None and type(node).__name__ == "AccumulateGrad":
            return self._param_module.get(id(variable), "")
        seq = getattr(node, "_seq", None)
        if seq is None or not self._cp_seq:
            return ""
        i = self._bisect.bisect_right(self._cp_seq, seq) - 1
        return self._cp_mod[i] if i >= 0 else ""

    # ---------------------------------------------------------------- backward (torch.autograd.graph._observer)
    def backward_begin(self):
        self.drain()
        if self._backward_depth == 0:
            self._set_phase(BACKWARD)
        self._backward_depth += 1
        self._stack_base.append(len(self._stack))

    def node(self, node):
        self.drain()
        # A node runs outside any recomputed forward: a checkpoint recomputation that stopped early (it raises
        # to stop once it has what backward needs) never ran its modules' post hooks.
        del self._stack[self._stack_base[-1]:]
        self._backward_module = self.module_of_node(node)

    def backward_end(self):
        self.drain()
        self._note_failure()
        self._backward_depth -= 1
        del self._stack[self._stack_base.pop():]
        if self._backward_depth == 0:
            self._set_phase(AFTER_BACKWARD)
            self._backward_module = ""
            self._note_owners()

    # ---------------------------------------------------------------- optimizer step
    def _step_enter(self, optimizer):
        self.drain()
        if self._step_depth == 0:
            self._set_phase(OPTIMIZER)
            self._step_name = type(optimizer).__name__ + ".step"
        self._step_depth += 1

    def _step_exit(self, optimizer):
        self.drain()
        self._note_failure()
        self._step_depth -= 1
        if self._step_depth == 0:
            self._set_phase(AFTER_STEP)
            self._note_owners(optimizer)

    def _set_phase(self, phase):
        if phase != self.phase:
            self.phase = phase
            self.transitions.append((self._next_seq, phase, self.iteration))

    def _note_owners(self, optimizer=None):
        """Parameters, their gradients and an optimizer's state belong to the module that registers the
        parameter, whenever they were allocated (a model is built before any forward names its modules)."""
        owners = self.storage_module
        seen = {}  # storage id -> path, this pass: one storage behind several parameters' gradients (a fully_shard
        #            unit's reduce-scatter output) belongs to the innermost module holding them all
        for root in self._root_modules:
            for path, m in self._module_paths(root):
                for p in m._parameters.values():
                    if p is None:
                        continue
                    owners[p._impl.storage_id] = path
                    g = p.grad
                    if g is not None:
                        sid = g._impl.storage_id
                        path_g = _common_prefix(seen[sid], path) if sid in seen else path
                        seen[sid] = owners[sid] = path_g
        if optimizer is not None:
            for p, state in optimizer.state.items():
                path = self._param_module.get(id(p))
                if path is None:
                    continue
                for v in state.values():
                    impl = getattr(v, "_impl", None)
                    if impl is not None:
                        owners[impl.storage_id] = path

    def _module_paths(self, root):
        prefix = type(root).__name__
        for name, m in root.named_modules():
            yield prefix + ("." + name if name else ""), m

    def _note_failure(self):
        # Called from `finally` blocks: an exception on its way out (sys.exc_info sees it there) happened here,
        # before this boundary resets the phase.
        if self.failed_at is None and sys.exc_info()[0] is not None:
            self.failed_at = self.context()

    def context(self):
        """(phase, module, iteration) now."""
        return self.phase, self.current_module(), self.iteration

    def failure_context(self):
        """Where an exception that ended the run happened: inside backward or a step if it left one, else now
        (a forward that raised never ran its post hooks, so its module is still the current one)."""
        return self.failed_at or self.context()
