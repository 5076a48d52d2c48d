# Composite ops with PyTorch's grad_fn name: F.conv2d, F.mse_loss, ... are built here from primitive
# ops (whose autograd gives the gradients), but users see one node named like PyTorch's kernel
# (`grad_fn=<ConvolutionBackward0>`), not the last primitive of the chain.
import torch


def _attach():
    graph = getattr(getattr(torch, "autograd", None), "graph", None)
    return getattr(graph, "attach", None)


def named(name, compute, inputs, recompute=None):
    """compute(*inputs), presented as a single autograd node called `name`.

    Memory follows PyTorch: the node keeps the op's tensor inputs (what these kernels save: conv keeps
    input and weight, layer_norm its input, ...), not the intermediates of the primitive ops it is built
    from. Backward recomputes the composite from those inputs under grad mode and asks autograd for the
    inner gradients. `recompute` replaces `compute` there when the forward has side effects that must not
    happen twice (batch norm's running statistics). Modifying a kept input in place before backward fails
    with PyTorch's version-counter error. Without grad mode, or when no input needs a gradient, it is just
    compute(*inputs).
    """
    Tensor = torch.Tensor
    if not torch.is_grad_enabled() or not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        return compute(*inputs)
    attach = _attach()
    if attach is None:  # another autograd (tests over real torch): keep the primitive nodes
        return compute(*inputs)
    with torch.no_grad():
        result = compute(*inputs)
    if not isinstance(result, Tensor):
        return result
    kept = [x.detach() if isinstance(x, Tensor) else x for x in inputs]
    wanted = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    again = recompute or compute

    def backward(grads):
        g = grads[0]
        res = [None] * len(inputs)
        if g is None:
            return res
        inner = [x.detach().requires_grad_(True) if i in wanted else x for i, x in enumerate(kept)]
        with torch.enable_grad():
            out = again(*inner)
        gs = torch.autograd.grad([out], [inner[i] for i in wanted], [g], retain_graph=False,
                                 create_graph=torch.is_grad_enabled(), allow_unused=True)
        for i, gi in zip(wanted, gs):
            res[i] = gi
        return res

    attach(name, [result], [x if isinstance(x, Tensor) else None for x in inputs], backward,
           saved=[x for x in inputs if isinstance(x, Tensor)])
    return result
