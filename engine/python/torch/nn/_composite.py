# Composite ops with PyTorch's grad_fn name: F.conv2d, F.mse_loss, ... are built here from primitive
# ops (whose autograd gives the gradients), but users see one node named like PyTorch's kernel
# (`grad_fn=<ConvolutionBackward0>`), not the last primitive of the chain.
import torch
from ..autograd import graph


class _Shape:
    """Stands for an input that is not kept (see `linear`): its shape, dtype and device only."""
    __slots__ = ("shape", "dtype", "device")

    def __init__(self, t):
        self.shape, self.dtype, self.device = tuple(t.shape), t.dtype, t.device

    def zeros(self):
        return torch.zeros(self.shape, dtype=self.dtype, device=self.device)


def named(name, compute, inputs, recompute=None, saved=None, linear=()):
    """compute(*inputs), presented as a single autograd node called `name`.

    Memory follows PyTorch: the node keeps the op's tensor inputs (what these kernels save: conv keeps
    input and weight, layer_norm its input, ...), not the intermediates of the primitive ops it is built
    from. Backward recomputes the composite from those inputs under grad mode and asks autograd for the
    inner gradients. `recompute` replaces `compute` there when the forward has side effects that must not
    happen twice (batch norm's running statistics). Modifying a kept input in place before backward fails
    with PyTorch's version-counter error. Without grad mode, or when no input needs a gradient, it is just
    compute(*inputs).

    `saved`: PyTorch's saved set {name: value} for the node's `_saved_<name>` attributes; a callable gets
    the result and returns it (for saved outputs). Its tensors are held with the inputs: the small ones a
    kernel keeps besides them (nll_loss's total_weight, layer_norm's mean and rstd) belong there, computed
    by the caller without grad.

    `linear`: positions of inputs the op is linear in and whose values no gradient needs (F.pad's input):
    PyTorch does not save them, so neither does the node; backward recomputes with zeros of their shape in
    their place, which gives the same gradients. (Parameters such as a conv bias need not be listed: holding
    them costs no memory.)
    """
    Tensor = torch.Tensor
    if not torch.is_grad_enabled() or not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        return compute(*inputs)
    attach = graph.attach
    with torch.no_grad():
        result = compute(*inputs)
    if not isinstance(result, Tensor):
        return result
    kept = [(_Shape(x) if i in linear else x.detach()) if isinstance(x, Tensor) else x
            for i, x in enumerate(inputs)]
    wanted = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    again = recompute or compute
    n = len(inputs)  # the closure must not reference `inputs` (that would hold them, with their history)

    def backward(grads):
        g = grads[0]
        res = [None] * n
        if g is None:
            return res
        inner = [x.zeros() if isinstance(x, _Shape) else x for x in kept]
        inner = [x.detach().requires_grad_(True) if i in wanted else x for i, x in enumerate(inner)]
        with torch.enable_grad():
            out = again(*inner)
        gs = torch.autograd.grad([out], [inner[i] for i in wanted], [g], retain_graph=False,
                                 create_graph=torch.is_grad_enabled(), allow_unused=True)
        for i, gi in zip(wanted, gs):
            res[i] = gi
        return res

    if callable(saved):
        saved = saved(result)
    attach(name, [result], [x if isinstance(x, Tensor) else None for x in inputs], backward,
           saved=saved if saved is not None else [x for x in inputs if isinstance(x, Tensor)])
    return result
