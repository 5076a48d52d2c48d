# Reverse-mode autograd: graph nodes (grad_fn objects named like PyTorch's, e.g. AddBackward0), the
# AccumulateGrad node of each leaf, and the engine that runs backward() / autograd.grad().
import gc
import heapq
import itertools
import os
import sys
import weakref

import _devicescope_C as _E

from . import grad_mode
from .. import _blas_workspace as _workspace
from .view_rebase import ViewGeometry

# DEVICESCOPE_PY_AUTOGRAD=1: graph construction and the backward loop in Python (the reference the C++ versions
# follow; tests/autograd_engine/*.py compare the two)
_PY_ENGINE = os.environ.get("DEVICESCOPE_PY_AUTOGRAD") == "1"

_SECOND_TIME = ("Trying to backward through the graph a second time (or directly access saved tensors after "
                "they have already been freed). Saved intermediate values of the graph are freed when you call "
                ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved tensors after calling backward.")


class Wrapped:
    """A Python number an op saved as PyTorch's "wrapped number" tensor (`x * 2.0` saves other=tensor(2.)):
    exposed as a 0-dim CPU tensor, which holds no device memory."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Slot:
    """A saved tensor exposed as `_saved_<name>`; `out` is the output index when the op saved its own output
    (held as a detached alias, so the node does not point back at itself)."""
    __slots__ = ("t", "out")

    def __init__(self, t, out):
        self.t = t
        self.out = out


class SavedOutput:
    """A backward closure's handle on its op's own output. It holds a detached alias (holding the output
    itself would be a reference cycle through its grad_fn, keeping activations alive until the garbage
    collector runs). unpack() gives that alias; under create_graph (grad mode on during backward) it gives a
    tensor whose grad_fn is the node, so higher-order gradients flow through the output, as they do through
    PyTorch's unpacked SavedVariable. bind() is called once the node exists."""
    __slots__ = ("alias", "node", "nr")

    def __init__(self, t):
        self.alias = t._detached_alias()
        self.node = None
        self.nr = 0

    def bind(self, node, nr=0):
        self.node, self.nr = weakref.ref(node), nr
        return node

    def unpack(self):
        node = self.node() if self.node is not None and grad_mode._enabled[0] else None
        if node is None:
            return self.alias
        t = self.alias._detached_alias()
        t._grad_fn, t._output_nr = node, self.nr
        return t


_SEQUENCE = itertools.count()

# The cyclic garbage collector runs a young-generation pass every 700 net allocations of tracked objects
# (CPython's default threshold) and, every 100 of those, a full pass over every live object. PyTorch's graph lives
# in C++, invisible to it: an op with autograd allocates ~1 tracked object there (the result), here ~10-15 (node,
# edges, closure, saved slots), an LSTM cell ~150 where PyTorch allocates 3. With the default the collector ran
# ~5x as often as under PyTorch (time_sequence_prediction: 890 passes against 195, full passes traversing the
# whole recorded graph) and took 10-25% of RNN training scripts' time. The young threshold is raised to 20000, which
# brings the passes per op back near PyTorch's; the older generations' thresholds stay. (At 7000 a forward that
# records more than 7000 live objects - time_sequence_prediction's 49 steps of two LSTMCells - still paid 74 young,
# 6 middle and 1 full pass, 126 ms of CPU; at 20000, 2 young passes, 6 ms.) Nothing DeviceScope makes
# relies on the collector (graph objects avoid reference cycles: see SavedOutput), so allocations are unchanged;
# a script's own cyclic garbage waits longer for collection, as on any interpreter with a higher threshold. Left
# alone when something already changed the default (the host, or a script that set it before importing torch).
if gc.get_threshold()[0] == 700:
    gc.set_threshold(20000, *gc.get_threshold()[1:])
_ACCUMULATE_FIRST = float("inf")


class Node:
    """A grad_fn. `_fn(grads)` maps the gradients of its outputs to those of its inputs (edges)."""
    __slots__ = ("_fn", "_next", "_noutputs", "_hooks", "_retain", "_saved", "_names", "metadata", "_seq",
                 "__weakref__")

    def __init__(self, fn, edges, noutputs=1):
        # [(tensor, version at save time, output index or None)]: in-place writes after that break backward
        self._saved = None
        self._names = None   # {name: _Slot | None | value}: PyTorch's `_saved_<name>` attributes of this node
        self._fn = fn
        self._next = edges
        self._noutputs = noutputs
        self._hooks = None   # {output_nr: [hook]} from Tensor.register_hook on non-leaf outputs
        self._retain = None  # {output_nr: weakref(tensor)} from Tensor.retain_grad()
        self.metadata = {}
        self._seq = next(_SEQUENCE)  # Node::sequence_nr: the engine runs later nodes first

    def name(self):
        return type(self).__name__

    @property
    def next_functions(self):
        return self._next

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __call__(self, *grads):
        if self._fn is None:
            raise RuntimeError(_SECOND_TIME)
        return tuple(self._fn(list(grads)))

    def __getattr__(self, attr):
        # Only reached when normal lookup fails: the `_saved_<name>` attributes PyTorch generates per node
        # class (read-only; tensors raise once backward has freed them, other values stay readable).
        names = self._names
        if attr.startswith("_saved_") and names is not None and attr[7:] in names:
            v = names[attr[7:]]
            if isinstance(v, _Slot):
                if v.t is None:
                    raise RuntimeError(_SECOND_TIME)
                if v.out is None or isinstance(v.t, tuple):
                    return v.t  # inputs (or a list of them): the very tensor objects, as PyTorch unpacks them
                t = v.t._detached_alias()  # an output: a new tensor object with this node as grad_fn
                t._grad_fn, t._output_nr = self, v.out
                return t
            if isinstance(v, Wrapped):
                from .. import _dtype, _factories
                # wrapped_scalar_tensor: a Python float is a double tensor, an int a long one
                return _factories.tensor(v.value, dtype=_dtype.float64 if isinstance(v.value, float) else None)
            return v
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def __dir__(self):
        extra = ["_saved_" + n for n in self._names] if self._names else []
        return sorted(set(object.__dir__(self)).union(extra))

    def register_hook(self, fn):
        raise NotImplementedError("DeviceScope: Node.register_hook is not supported; use Tensor.register_hook")

    def register_prehook(self, fn):
        raise NotImplementedError("DeviceScope: Node.register_prehook is not supported; use Tensor.register_hook")


class AccumulateGrad(Node):
    """The node that adds a leaf's incoming gradient into its .grad."""
    __slots__ = ("variable",)

    def __init__(self, variable):
        Node.__init__(self, None, (), 1)
        self._seq = _ACCUMULATE_FIRST  # AccumulateGrad's sequence_nr is UINT64_MAX: it runs as soon as it is ready
        self.variable = variable

    def __call__(self, *grads):
        raise RuntimeError("DeviceScope: AccumulateGrad cannot be called directly")


_classes = {}


def node_class(name):
    c = _classes.get(name)
    if c is None:
        c = type(name, (Node,), {"__slots__": (), "__module__": "torch.autograd.graph"})
        _classes[name] = c
    return c


def accumulate_grad(t):
    """The leaf's AccumulateGrad (cached weakly on the tensor, as PyTorch does)."""
    ref = t.__dict__.get("_acc")
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


def _edge_of_py(t):
    if t is None or not (t._grad_fn is not None or t._requires_grad):
        return (None, 0)
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    return (accumulate_grad(t), 0)


def on_edge(t, edge):
    """t's values with the history `edge` (taken with edge_of from the tensor t was detached from). A backward
    that recomputes its op under create_graph differentiates through this, so that the second backward
    reaches the inputs' own history (a detached copy would cut it: no gradient for a conv's weight from a
    gradient penalty)."""
    node, nr = edge
    if node is None:
        return t
    if isinstance(node, AccumulateGrad):
        return node.variable
    a = t._detached_alias()
    a._grad_fn, a._output_nr = node, nr
    return a


def linear_grad(out, g, name, forward):
    """`out`, a backward's result computed without a graph but linear in its incoming gradient g (the gradient
    of index_select, a diagonal, a repeat...). Under create_graph (grad mode on, g part of a graph) out gets a
    node `name` whose own gradient is `forward(grad)`: the op applied to the incoming gradient, which is the
    double backward PyTorch's formulas give for these ops."""
    if grad_mode._enabled[0] and (g._grad_fn is not None or g._requires_grad):
        attach(name, [out], [g], lambda gs: (forward(gs[0]),))
    return out


def _attach_py(name, outputs, inputs, fn, saved=None):
    """Gives `outputs` a new grad_fn named `name` whose backward `fn(grads)` returns input gradients.

    `saved`: what PyTorch's node saves. Either a list of tensors, or a dict {name: value} that is also
    exposed as the node's `_saved_<name>` attributes (tensors, None for a tensor the op did not need to
    save, or plain values such as dims and scalars; Wrapped(n) for a saved Python number). Saved tensors
    that are modified in place before backward make backward fail with PyTorch's version-counter error.
    `fn` must itself hold only these tensors (outputs as detached aliases): whatever it references stays
    allocated until backward runs, so anything more would keep memory alive that PyTorch frees."""
    return _attach_edges_py(name, outputs, [_edge_of_py(x) for x in inputs], fn, saved)


def _attach_edges_py(name, outputs, edges, fn, saved=None):
    """Like attach(), with explicit edges (in-place ops rebase a tensor's history onto its old edge)."""
    node = node_class(name)(fn, tuple(edges), len(outputs))
    if saved:
        named = saved if isinstance(saved, dict) else None
        entries = []
        slots = {} if named is not None else None
        for key, t in (named.items() if named is not None else enumerate(saved)):
            if isinstance(t, (tuple, list)) and any(hasattr(x, "_impl") for x in t):
                # a list of tensors (index's `indices`): each is version-checked, all freed by backward
                entries.extend((x, x._impl.version, None) for x in t if hasattr(x, "_impl"))
                if slots is not None:
                    slots[key] = _Slot(tuple(t), None)
                continue
            if t is None or not hasattr(t, "_impl"):
                if slots is not None:
                    slots[key] = t
                continue
            out = next((i for i, o in enumerate(outputs) if o is t), None)
            if out is not None:
                # A saved output must not point back at its node (that would be a reference cycle that keeps
                # activations alive until the garbage collector runs): keep a plain alias and its index.
                alias = t._detached_alias()
                entries.append((alias, t._impl.version, out))
            else:
                alias = t
                entries.append((t, t._impl.version, None))
            if slots is not None:
                slots[key] = _Slot(alias, out)
        node._saved = entries or None
        node._names = slots
    for i, o in enumerate(outputs):
        if o is not None:
            o._grad_fn = node
            o._output_nr = i
    if attach_hook is not None:
        attach_hook(node)
    return node


# torch.utils.checkpoint's frame (non-reentrant checkpointing): called with every node made while it is set,
# to let the forward drop what a node saved and the recomputation hand it back.
attach_hook = None

# attach, attach_edges and edge_of run in C++ (bindings_autograd_graph.cpp: the functions above statement for
# statement, which stay the reference and run with DEVICESCOPE_PY_AUTOGRAD=1; autograd_engine_agreement compares the
# two). Every differentiable op calls attach once, and in small-op training loops the Python version cost more than
# the ops' arithmetic.
if _PY_ENGINE:
    attach, attach_edges, edge_of = _attach_py, _attach_edges_py, _edge_of_py
else:
    _E.autograd_graph_init(Node, _classes, node_class, _SEQUENCE, _Slot, AccumulateGrad, globals())
    attach, attach_edges, edge_of = _E.autograd_attach, _E.autograd_attach_edges, _E.autograd_edge_of


def _release(node):
    """Backward ran without retain_graph: the saved tensors go (plain saved values stay readable). A node
    that saved no tensor keeps its function: PyTorch's release_variables has nothing to free there, so a
    second backward through it (x.expand(2, 3).sum() twice) runs; one through a freed tensor raises."""
    names = node._names
    if not node._saved and not (names and any(isinstance(v, Wrapped) for v in names.values())):
        return
    node._fn = None
    node._saved = None
    if names:
        for k, v in names.items():
            if isinstance(v, _Slot):
                v.t = None
            elif isinstance(v, Wrapped):  # a saved number is a SavedVariable in PyTorch: freed like a tensor
                names[k] = _Slot(None, None)


# ----------------------------------------------------------------------------- engine
def _accumulate_into(slot, grad, create_graph):
    """InputBuffer::accumulate (torch/csrc/autograd/input_buffer.cpp, 2.x): when the buffer holds the last
    reference to its gradient and to that gradient's storage, and it is dense, the next gradient is added in place
    (old.add_(new): no allocation); otherwise (or under create_graph) old + new."""
    if not create_graph and _can_accumulate_inplace(slot):
        return slot[0].add_(grad)
    return slot[0] + grad


def _can_accumulate_inplace(slot):
    from .._ops.layout import is_non_overlapping_and_dense
    t = slot[0]
    impl = t._impl
    # references to t: the slot, `t` here and getrefcount's argument; to its impl: t, `impl` and the argument
    return (sys.getrefcount(t) <= 3 and sys.getrefcount(impl) <= 3 and impl.storage_use_count == 1
            and is_non_overlapping_and_dense(impl.sizes, impl.strides))


# Who watches backward run (devicescope/_estimate_track.py: which module's backward allocates what): None, or an
# object with backward_begin(), node(n) before each node runs, and backward_end(). Observes, never changes.
_observer = None


def execute(roots, root_grads, retain_graph, create_graph, capture=None, accumulate=True):
    """Runs the graph from `roots` [(node, output_nr)] with `root_grads` [(Tensor, owned)].

    capture: {(node, output_nr): None} filled with the gradient arriving there (autograd.grad).
    The loop runs in C++ (bindings_autograd.cpp, the same steps as _execute_py below, which stays the reference
    and runs with DEVICESCOPE_PY_AUTOGRAD=1; autograd_engine_agreement compares the two).
    """
    if _PY_ENGINE:
        return _execute_py(roots, root_grads, retain_graph, create_graph, capture, accumulate)
    ctx = _context[0]
    if ctx is None:
        ctx = _context[0] = _engine_context()
    _E.autograd_execute(ctx, roots, root_grads, retain_graph, create_graph, capture, accumulate, _observer)


_context = [None]


def _engine_context():
    """What the C++ loop calls back into (the Python steps that are not bookkeeping)."""
    return (AccumulateGrad, _Slot, _SECOND_TIME, _apply_output_hooks, _accumulate, _check_saved,
            _workspace.enter_device_thread, _workspace.leave_device_thread, _workspace._tls, grad_mode._enabled,
            Wrapped)


def _execute_py(roots, root_grads, retain_graph, create_graph, capture=None, accumulate=True):
    """The engine in Python: the reference the C++ loop follows step by step (see execute)."""
    # Dependencies: how many edges point at each node from the part of the graph reachable from the roots.
    deps = {}
    seen = set()
    stack = [n for n, _ in roots if n is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        for m, _ in n._next:
            if m is not None:
                deps[m] = deps.get(m, 0) + 1
                stack.append(m)

    buffers = {}  # node -> list of [grad, owned] per output

    def deliver(node, nr, grad, owned):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [[None, False] for _ in range(node._noutputs)]
        slot = buf[nr]
        if grad is None:
            return
        if slot[0] is None:
            slot[0], slot[1] = grad, owned
        else:
            slot[0], slot[1] = _accumulate_into(slot, grad, create_graph), True

    for (node, nr), (g, owned) in zip(roots, root_grads):
        if node is not None:
            deliver(node, nr, g, owned)
    # The ready queue (engine.cpp ReadyQueue, CompareNodeTaskTime): the node with the highest sequence number runs
    # first (nodes made later in forward run earlier in backward; AccumulateGrad at once), which is also the
    # order in which backward allocates and frees.
    ready = []
    queued = set()
    tie = itertools.count()

    def push(n):
        heapq.heappush(ready, (-n._seq, next(tie), n))

    for node, _ in roots:
        if node is not None and deps.get(node, 0) == 0 and id(node) not in queued:
            queued.add(id(node))
            push(node)

    prev = grad_mode._enabled[0]
    grad_mode._enabled[0] = bool(create_graph)
    observer = _observer
    if observer is not None:
        observer.backward_begin()
    try:
        while ready:
            node = heapq.heappop(ready)[2]
            if observer is not None:
                observer.node(node)
            buf = buffers.pop(node, None) or [[None, False] for _ in range(node._noutputs)]
            _apply_output_hooks(node, buf)
            if capture is not None:
                for nr, slot in enumerate(buf):
                    if (node, nr) in capture:
                        capture[(node, nr)] = slot[0]
            if isinstance(node, AccumulateGrad):
                if accumulate:
                    post = node.variable.__dict__.get("_post_accumulate_grad_hooks")
                    if not post:
                        _accumulate(node.variable, buf[0][0], buf[0][1], create_graph)
                    elif buf[0][0] is not None:
                        # Tensor.register_post_accumulate_grad_hook: the incoming gradient is let go first, as
                        # AccumulateGrad moves it, so a hook that re-points .grad (DDP's bucket views) frees it.
                        grad, owned = buf[0]
                        buf[0][0] = None
                        _accumulate(node.variable, grad, owned, create_graph)
                        del grad
                        for hook in tuple(post.values()):
                            hook(node.variable)
                continue
            grads = [slot[0] for slot in buf]
            if all(g is None for g in grads):
                outs = [None] * len(node._next)
                if not retain_graph:
                    _release(node)
            else:
                if node._fn is None:
                    raise RuntimeError(_SECOND_TIME)
                if node._saved:
                    _check_saved(node)
                # PyTorch runs a node whose gradient is on a CUDA device on that device's autograd thread
                # (engine.cpp's device threads): its BLAS calls use that thread's handle and workspace.
                device_thread = _workspace.enter_device_thread(grads)
                try:
                    outs = list(node._fn(grads))
                finally:
                    _workspace.leave_device_thread(device_thread)
                if not retain_graph:
                    _release(node)  # frees the saved tensors
            incoming = {id(g) for g in grads if g is not None}
            out_ids = {}
            for g in outs:
                if g is not None:
                    out_ids[id(g)] = out_ids.get(id(g), 0) + 1
            for (m, nr), g in zip(node._next, outs):
                if m is None:
                    continue
                if g is not None:
                    owned = id(g) not in incoming and out_ids.get(id(g), 0) == 1
                    deliver(m, nr, g, owned)
                deps[m] -= 1
                if deps[m] == 0:
                    push(m)
            # engine.cpp moves a node's outputs into the next nodes' input buffers: nothing here keeps them
            # (a gradient stolen as .grad and released by a post-accumulate hook, FSDP's, goes right then,
            # not after the next node ran)
            outs = g = None
    finally:
        grad_mode._enabled[0] = prev
        if observer is not None:
            observer.backward_end()


def _check_saved(node):
    for t, version, out in node._saved:
        now = t._impl.version
        if now != version:
            from .._tensor import typename_of
            shape = "[" + ", ".join(str(s) for s in t._impl.sizes) + "]"
            # a saved output is named by the node that saved it; a saved input by its grad_fn now (PyTorch's
            # SavedVariable::unpack)
            if out is not None:
                which = f", which is output {out} of {type(node).__name__},"
            else:
                which = (f", which is output {t._output_nr} of {type(t._grad_fn).__name__},"
                         if t._grad_fn is not None else "")
            raise RuntimeError("one of the variables needed for gradient computation has been modified by an "
                               f"inplace operation: [{typename_of(t)} {shape}]{which} is at version {now}; "
                               f"expected version {version} instead. Hint: enable anomaly detection to find the "
                               "operation that failed to compute its gradient, with "
                               "torch.autograd.set_detect_anomaly(True).")


def _apply_output_hooks(node, buf):
    if node._hooks:
        for nr, hooks in node._hooks.items():
            for h in list(hooks.values()):
                if buf[nr][0] is not None:
                    r = h(buf[nr][0])
                    if r is not None:
                        buf[nr][0], buf[nr][1] = r, False
    if isinstance(node, AccumulateGrad):
        hooks = node.variable.__dict__.get("_hooks")
        if hooks and buf[0][0] is not None:
            for h in list(hooks.values()):
                r = h(buf[0][0])
                if r is not None:
                    buf[0][0], buf[0][1] = r, False
    if node._retain:
        for nr, ref in node._retain.items():
            t = ref()
            if t is not None and buf[nr][0] is not None:
                g = buf[nr][0]
                t._grad = g if t._grad is None else t._grad + g


def _obeys_layout_contract(grad, var):
    """torch/csrc/autograd/utils/grad_layout_contract.h: a dense leaf's .grad has the leaf's strides (dims of
    size 1 aside); any other leaf's .grad is contiguous."""
    from .._ops.layout import is_non_overlapping_and_dense
    g, v = grad._impl, var._impl
    if is_non_overlapping_and_dense(v.sizes, v.strides):
        for size, gs, vs in zip(g.sizes, g.strides, v.strides):
            if (size != 1 and gs != vs) or (size == 1 and gs == 0):
                return False
        return True
    return g.is_contiguous


def _clone_obey_contract(grad, var):
    """clone_obey_contract: a copy of grad laid out like a dense leaf (else contiguous), without history."""
    import _devicescope_C as _E
    from .._ops import _core as C
    from .._ops.layout import is_non_overlapping_and_dense
    v = var._impl
    if not is_non_overlapping_and_dense(v.sizes, v.strides):
        g = grad._impl
        return C.wrap(_E.clone(g) if g.is_contiguous else _E.contiguous(g))
    base = C.new_empty((grad._impl.numel,), C.dtype_of(grad), C.device_of(grad), False, grad._impl.is_virtual)
    out = C.wrap(_E.as_strided(base._impl, v.sizes, v.strides, 0))
    _E.copy_(out._impl, grad._impl, False)
    return out


def _accumulate(var, grad, owned, create_graph):
    if grad is None:
        return
    if var._grad is None:
        if not create_graph:
            # AccumulateGrad: the incoming gradient is stolen only when nothing else holds it and it obeys
            # the layout contract; otherwise .grad is a copy in the leaf's layout (nn.Linear's weight.grad
            # stays contiguous whatever layout the backward produced).
            if not owned or not _obeys_layout_contract(grad, var):
                grad = _clone_obey_contract(grad, var)
            elif grad._grad_fn is not None:
                grad = grad.detach()
        var.grad = grad
    elif create_graph:
        var.grad = var._grad + grad
    else:
        var._grad.add_(grad)


# ----------------------------------------------------------------------------- in-place ops through views
# As VariableType records them (rebase_history for a view): the op's own node N does not become the view's history;
# the view's base gets CopySlices(N) - its gradient is the incoming one with the view's region replaced by N's
# gradient of that region, N's other edges (the other operands) kept - and the view gets AsStridedBackward0 over the
# base's new history (PyTorch 1.13 regenerates a modified view's grad_fn as as_strided of its base). Without this,
# `y[0].mul_(2)` left y's history untouched: y's gradient ignored the write.
_UNSAFE_VIEW_NODES = frozenset(("UnsafeSplitBackward0", "UnsafeSplitWithSizesBackward0"))


def base_edge(t):
    """The history of t's base, to be taken before an in-place op writes through t (None: t is not a view, or a
    piece of unsafe_chunk/unsafe_split, which autograd treats as a tensor of its own: the base keeps its history)."""
    base = t._base
    if base is None or type(t._grad_fn).__name__ in _UNSAFE_VIEW_NODES:
        return None
    return edge_of(base)


def rebase_view(view, before):
    """After an in-place op on `view` attached its node to the view: the base's CopySlices and the view's
    AsStridedBackward0, as above. `before`: base_edge(view) taken before the op (None: nothing to do)."""
    node = view._grad_fn
    if before is None or node is None:
        return
    base = view._base
    geometry = ViewGeometry(base, view)
    copy_slices = attach_edges("CopySlices", [base], [before] + list(node._next[1:]),
                               lambda gs: _copy_slices_backward(gs[0], node, geometry))
    attach_edges("AsStridedBackward0", [view], [(copy_slices, 0)],
                 lambda gs: (_as_strided_backward(gs[0], geometry),),
                 saved={"size": geometry.view_sizes, "stride": geometry.view_strides,
                        "storage_offset": geometry.view_offset + geometry.base_offset})


def _copy_slices_backward(g, node, geometry):
    from .._ops import _core as _C
    values = _C.read(g)
    base, view = geometry.arrays(values.dtype)
    base[...] = values
    grads = node._fn((_C.make(view.copy(), _C.dtype_of(g), _C.device_of(g)),))
    if grads[0] is None:
        view[...] = 0
    else:
        view[...] = _C.read(grads[0])
    return (_C.make(base.copy(), _C.dtype_of(g), _C.device_of(g)),) + tuple(grads[1:])


def _as_strided_backward(g, geometry):
    from .._ops import _core as _C
    values = _C.read(g)
    base, view = geometry.arrays(values.dtype)
    view += values
    return _C.make(base.copy(), _C.dtype_of(g), _C.device_of(g))
