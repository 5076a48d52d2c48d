# Composite ops with PyTorch's grad_fn name: F.conv2d, F.mse_loss, ... are built here from primitive
# ops (whose autograd gives the gradients), but users see one node named like PyTorch's kernel
# (`grad_fn=<ConvolutionBackward0>`), not the last primitive of the chain.
import contextlib
import os

import torch
from .._ops._core import fill, materialize
from .._scratch import scratch
from ..autograd import graph

# DEVICESCOPE_PY_COMPOSITE=1: ops that have a direct backward node (F.embedding's EmbeddingBackward0, ...) run
# through `named` instead, the recomputing reference that tests/composite_backward/*.py compare them with.
REFERENCE = os.environ.get("DEVICESCOPE_PY_COMPOSITE") == "1"


class _Shape:
    """Stands for an input that is not kept (see `linear`): its shape, dtype and device only."""
    __slots__ = ("shape", "dtype", "device")

    def __init__(self, t):
        self.shape, self.dtype, self.device = tuple(t.shape), t.dtype, t.device

    def zeros(self):
        return torch.zeros(self.shape, dtype=self.dtype, device=self.device)


def named(name, compute, inputs, recompute=None, saved=None, linear=(), buffers=None, allocate=None):
    """compute(*inputs), presented as a single autograd node called `name`, allocating what ATen's kernel does.

    Memory follows PyTorch (Note [Scratch allocations]): compute's intermediates are scratch, and the op
    allocates exactly its result (empty_like-laid) and then the kernel's own buffers: `buffers(result)` makes
    them, e.g. layer_norm's mean and rstd, log_softmax's output inside a loss. The node keeps the op's tensor
    inputs (what these kernels save: conv keeps input and weight, layer_norm its input, ...), not the
    intermediates of the primitive ops it is built from. Backward recomputes the composite from those inputs
    in scratch under grad mode, asks autograd for the inner gradients and allocates each input's gradient
    once, in input order, as the generated backward code does. `recompute` replaces `compute` there when the
    forward has side effects that must not happen twice (batch norm's running statistics). Modifying a kept
    input in place before backward fails with PyTorch's version-counter error.

    `saved`: PyTorch's saved set {name: value} for the node's `_saved_<name>` attributes; a callable gets
    the result (and the buffers, when there are any) and returns it. Its tensors are held with the inputs.

    `allocate(values)`: for a kernel whose result is not laid like its values: returns (the real result, its
    temporaries), allocated in the kernel's order; the values are copied into the result and the temporaries
    are freed once it is made (mse_loss: the result is an input-sized block resized to 0-dim, then the
    elementwise loss).

    `linear`: positions of inputs the op is linear in and whose values no gradient needs (F.pad's input):
    PyTorch does not save them, so neither does the node; backward recomputes with zeros of their shape in
    their place, which gives the same gradients. (Parameters such as a conv bias need not be listed: holding
    them costs no memory.)

    Double backward (create_graph) recomputes with real allocations: the inner graph must live on.
    """
    Tensor = torch.Tensor
    result = forward_result(compute, inputs, allocate)
    if not isinstance(result, Tensor):
        return result
    extra = buffers(result) if buffers is not None else None
    if not torch.is_grad_enabled() or not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        return result
    attach = graph.attach
    kept = [(_Shape(x) if i in linear else x.detach()) if isinstance(x, Tensor) else x
            for i, x in enumerate(inputs)]
    wanted = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    again = recompute or compute
    n = len(inputs)  # the closure must not reference `inputs` (that would hold them, with their history)

    # the inputs' edges: under create_graph backward recomputes on tensors joined to the inputs' history
    edges = [graph.edge_of(x) if i in wanted else None for i, x in enumerate(inputs)]

    def backward(grads):
        g = grads[0]
        res = [None] * n
        if g is None:
            return res
        create_graph = torch.is_grad_enabled()
        with contextlib.nullcontext() if create_graph else scratch():
            inner = [x.zeros() if isinstance(x, _Shape) else x for x in kept]
            if create_graph:
                inner = [_through(x, edges[i]) if i in wanted else x for i, x in enumerate(inner)]
            else:
                inner = [x.detach().requires_grad_(True) if i in wanted else x for i, x in enumerate(inner)]
            with torch.enable_grad():
                out = again(*inner)
            gs = torch.autograd.grad([out], [inner[i] for i in wanted], [g], retain_graph=create_graph,
                                     create_graph=create_graph, allow_unused=True)
        for i, gi in zip(wanted, gs):
            res[i] = gi if create_graph or gi is None else materialize(gi)
        return res

    if callable(saved):
        saved = saved(result) if extra is None else saved(result, extra)
    attach(name, [result], [x if isinstance(x, Tensor) else None for x in inputs], backward,
           saved=saved if saved is not None else [x for x in inputs if isinstance(x, Tensor)])
    return result


def forward_result(compute, inputs, allocate=None):
    """compute(*inputs) computed in scratch, allocated as the kernel allocates its result (named's forward, and
    the forward of the ops with a direct backward node): `allocate` as in named, else laid like empty_like."""
    with torch.no_grad(), scratch():
        values = compute(*inputs)
    if not isinstance(values, torch.Tensor):
        return values
    if allocate is None:
        return materialize(values)
    out, temps = allocate(values)
    result = fill(out, values)
    del temps
    return result


def _through(x, edge):
    """x's values behind a node of its own that passes its gradient on to `edge` (the input's history), for
    backward's recomputation under create_graph. The gradient asked for is then this input's alone: with
    graph.on_edge two inputs sharing history (dist(x, 2 * x), a leaf and a function of it) would each be
    given the gradient arriving at that shared node, counting the other's part twice."""
    a = x.detach()._detached_alias()
    graph.attach_edges("AliasBackward0", [a], [edge], lambda gs: (gs[0],))
    return a
