# torch.utils.checkpoint: activation checkpointing, as PyTorch 2.x's non-reentrant checkpoint
# (torch/utils/checkpoint.py, _checkpoint_without_reentrant_generator) does it for memory:
#   - forward: `function` runs with grad mode on, building its graph, but nothing the graph's nodes save is
#     kept (PyTorch packs each saved tensor as an empty holder): activations are freed as soon as the forward
#     drops them; only the inputs (held for the recomputation) and the outputs stay;
#   - backward: the first node of the region that needs what it saved recomputes `function` on the same inputs,
#     under the forward's autocast state and with grad mode on, and each node gets back what it saves. The
#     recomputation stops as soon as the last saved tensor has been recomputed (PyTorch's early stop), and each
#     recomputed tensor is freed when its node has run.
# DeviceScope's nodes keep what they save in their backward closure, so "packing as a holder" is done by the
# node hook of autograd/graph.py: the forward swaps a saving node's closure for a trampoline (dropping the
# saved tensors with it); the recomputation makes the same nodes in the same order and hands their closures
# over. use_reentrant=True is the older form: forward under no_grad, then backward through a recomputed graph.
import warnings
import weakref

_MISSING_REENTRANT = ("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In version "
                      "2.5 we will raise an exception if use_reentrant is not passed. use_reentrant=False is "
                      "recommended, but if you need to preserve the current default behavior, you can pass "
                      "use_reentrant=True. Refer to docs for more details on the differences between the two "
                      "variants.")


class _StopRecomputation(Exception):
    pass


class _Frame:
    """One checkpointed call: its function, inputs and autocast state, and the nodes whose saves it holds."""

    def __init__(self, function, args, kwargs):
        from ..amp import _state
        self.function, self.args, self.kwargs = function, args, kwargs
        self.autocast = (_state.is_enabled("cuda"), _state.get_dtype("cuda"), _state._cache_enabled())
        self.count = 0           # nodes made so far (forward or recomputation)
        self.saving = {}         # node number -> the forward's node that saved tensors
        self.last_saving = -1
        self.recomputed = False

    # ------------------------------------------------------------------ forward
    def forward_hook(self, node):
        n = self.count
        self.count += 1
        if node._saved is None:
            return  # saves no tensor: nothing to drop, its closure stays
        # Weak references both ways round (the frame's to its nodes, a node's closure to its node): a node holds
        # its closure, the closure the frame, so strong ones would make a reference cycle, and the region's
        # tensors would wait for the cyclic collector where PyTorch frees them when the graph goes.
        self.saving[n] = weakref.ref(node)
        self.last_saving = n
        node._fn = _bind(self, weakref.ref(node))
        node._saved = None  # the saved tensors go with the closure (empty holders in PyTorch)
        if node._names:
            for v in node._names.values():
                if hasattr(v, "t"):
                    v.t = None

    # ------------------------------------------------------------------ backward
    def recompute_hook(self, node):
        n = self.count
        self.count += 1
        ref = self.saving.get(n)
        original = ref() if ref is not None else None
        if original is not None:
            original._fn, original._saved, original._names = node._fn, node._saved, node._names
            node._fn = node._saved = None
        if n == self.last_saving:
            raise _StopRecomputation()

    def recompute(self):
        import torch
        from ..autograd import graph
        self.recomputed = True
        self.count = 0
        enabled, dtype, cache = self.autocast
        previous = graph.attach_hook
        graph.attach_hook = self.recompute_hook
        try:
            with torch.enable_grad(), torch.autocast("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache):
                self.function(*self.args, **self.kwargs)
        except _StopRecomputation:
            pass
        finally:
            graph.attach_hook = previous
        self.args = self.kwargs = self.function = None  # the inputs are no longer needed


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               preserve_rng_state=True, **kwargs):
    """torch.utils.checkpoint.checkpoint: function(*args, **kwargs) without keeping its activations for
    backward; they are recomputed when backward needs them."""
    if use_reentrant is None:
        warnings.warn(_MISSING_REENTRANT, stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return _checkpoint_reentrant(function, *args)
    return _checkpoint_non_reentrant(function, args, kwargs)


def _checkpoint_non_reentrant(function, args, kwargs):
    import torch
    from ..autograd import graph
    if not torch.is_grad_enabled():
        return function(*args, **kwargs)
    frame = _Frame(function, args, kwargs)
    previous = graph.attach_hook
    graph.attach_hook = frame.forward_hook
    try:
        out = function(*args, **kwargs)
    finally:
        graph.attach_hook = previous
    return out


def _bind(frame, node_ref):
    """A saving node's closure until its region is recomputed: the first one to run recomputes, then every
    node runs the closure the recomputation handed it. (node_ref: a weak reference; the node is alive while
    backward runs it.)"""
    def run(grads):
        node = node_ref()
        if not frame.recomputed:
            frame.recompute()
        if node._fn is run:
            raise RuntimeError("checkpoint: the recomputation made other nodes than the forward (its function must "
                               "run the same ops on the same inputs)")
        return node._fn(grads)
    return run


def _checkpoint_reentrant(function, *args):
    """use_reentrant=True (CheckpointFunction): forward under no_grad; backward recomputes function on detached
    copies of the inputs with grad mode on and backpropagates through that graph."""
    import torch
    from ..amp import _state
    from ..autograd.function import Function
    autocast = (_state.is_enabled("cuda"), _state.get_dtype("cuda"), _state._cache_enabled())

    class CheckpointFunction(Function):
        @staticmethod
        def forward(ctx, *inputs):
            ctx.save_for_backward(*[x for x in inputs if isinstance(x, torch.Tensor)])
            ctx.inputs = inputs
            with torch.no_grad():
                return function(*inputs)

        @staticmethod
        def backward(ctx, *grads):
            inputs = [x.detach().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor) else x
                      for x in ctx.inputs]
            enabled, dtype, cache = autocast
            with torch.enable_grad(), torch.autocast("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache):
                outputs = function(*inputs)
            if isinstance(outputs, torch.Tensor):
                outputs = (outputs,)
            pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, torch.Tensor) and o.requires_grad]
            torch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
            return tuple(x.grad if isinstance(x, torch.Tensor) else None for x in inputs)
    return CheckpointFunction.apply(*args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    """torch.utils.checkpoint.checkpoint_sequential: `functions` (a Sequential or a list) cut into `segments`
    runs; every run but the last is checkpointed, the last runs plainly (its activations are needed at once)."""
    import torch
    if use_reentrant is None:
        warnings.warn(_MISSING_REENTRANT, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
