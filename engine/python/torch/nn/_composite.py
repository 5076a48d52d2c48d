# Composite ops with PyTorch's grad_fn name: F.conv2d, F.mse_loss, ... are built here from primitive
# ops (whose autograd gives the gradients), but users see one node named like PyTorch's kernel
# (`grad_fn=<ConvolutionBackward0>`), not the last primitive of the chain.
import torch


def _attach():
    graph = getattr(getattr(torch, "autograd", None), "graph", None)
    return getattr(graph, "attach", None)


def named(name, compute, inputs):
    """compute(*inputs), presented as a single autograd node called `name`.

    The composite runs on detached aliases of the inputs; the outer node's backward asks autograd for
    the gradients of that inner graph (kept alive by the node, like saved tensors in PyTorch).
    Without grad mode, or when no input needs a gradient, it is just compute(*inputs).
    """
    Tensor = torch.Tensor
    if not torch.is_grad_enabled() or not any(isinstance(x, Tensor) and x.requires_grad for x in inputs):
        return compute(*inputs)
    attach = _attach()
    if attach is None:  # another autograd (tests over real torch): keep the primitive nodes
        return compute(*inputs)
    inner = [x.detach().requires_grad_(True) if isinstance(x, Tensor) and x.requires_grad else x
             for x in inputs]
    out = compute(*inner)
    if not isinstance(out, Tensor) or out.grad_fn is None:
        return out
    wanted = [i for i, x in enumerate(inner) if isinstance(x, Tensor) and x.requires_grad]
    result = out.detach()

    def backward(grads):
        g = grads[0]
        res = [None] * len(inputs)
        if g is None:
            return res
        gs = torch.autograd.grad([out], [inner[i] for i in wanted], [g], retain_graph=True,
                                 create_graph=torch.is_grad_enabled(), allow_unused=True)
        for i, gi in zip(wanted, gs):
            res[i] = gi
        return res

    attach(name, [result], [x if isinstance(x, Tensor) else None for x in inputs], backward)
    return result
