# F.smooth_l1_loss's direct SmoothL1LossBackward0 (nn/_loss_smooth_l1.py: the kernel's formula) against the
# composite it replaced (DEVICESCOPE_PY_COMPOSITE=1: |a - b|, where, mean recomputed under grad mode in backward),
# through tests/tools/run_composite_backward_agreement.py: the forward to the last bit (the same reduction),
# gradients to 6 significant digits (the direct path rounds as ATen's kernel does, bit for bit with real PyTorch:
# tests/conformance/nn_smooth_l1_loss_grad.py; the composite's chain of ops rounds differently in the last bit),
# node names, saved values, double backward, errors and the allocator trace.
import torch
import torch.nn.functional as F
from torch.nn import _composite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def close(t):
    return " ".join(f"{float(v):.6g}" for v in t.detach().reshape(-1).tolist())


def run(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        for n in (5, 16, 37):
            for reduction in ("mean", "sum", "none"):
                for beta in (1.0, 0.25):
                    for want in ((True, False), (True, True), (False, True)):
                        a = (torch.randn(n, device=dev, dtype=dtype) * 2).requires_grad_(want[0])
                        b = (torch.randn(n, device=dev, dtype=dtype) * 2).requires_grad_(want[1])
                        loss = F.smooth_l1_loss(a, b, reduction=reduction, beta=beta)
                        fn = loss.grad_fn
                        print(dev, dtype, n, reduction, beta, want, type(fn).__name__,
                              [type(f).__name__ if f is not None else None for f, _ in fn.next_functions],
                              fn._saved_beta, fn._saved_reduction, fn._saved_self.shape, fn._saved_target.shape,
                              tuple(loss.shape), hexes(loss))
                        loss.backward(torch.ones_like(loss) * 0.5 if reduction == "none" else None)
                        print("   grads", close(a.grad) if want[0] else None, close(b.grad) if want[1] else None)
    x = torch.randn(4, 3, device=dev, requires_grad=True)
    y = torch.randn(4, 3, device=dev)
    # no grad: no node; the saved input modified in place; a second backward
    with torch.no_grad():
        print(dev, "no_grad", F.smooth_l1_loss(x, y).grad_fn)
    xx = torch.randn(6, device=dev, requires_grad=True)
    base = xx * 1
    loss = F.smooth_l1_loss(base, torch.zeros(6, device=dev))
    base.add_(1)
    try:
        loss.backward()
    except RuntimeError as e:
        print(dev, "version:", str(e)[:160])
    loss = F.smooth_l1_loss(xx, torch.zeros(6, device=dev))
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as e:
        print(dev, "twice:", str(e)[:60])


def double(dev):
    """2-D through nn.SmoothL1Loss, and double backward (values only: under create_graph both paths build their
    gradient from differentiable ops, each with its own intermediates)."""
    torch.manual_seed(1)
    x = torch.randn(4, 3, device=dev, requires_grad=True)
    y = torch.randn(4, 3, device=dev)
    loss = torch.nn.SmoothL1Loss(beta=0.5)(x, y)
    g, = torch.autograd.grad(loss, x, create_graph=True)
    print(dev, "first", close(g), g.grad_fn is not None)
    g.sum().backward()
    print(dev, "double", close(x.grad))


print("composite:", "reference" if _composite.REFERENCE else "direct")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
torch.cuda.memory._record_memory_history(enabled=None)
double("cuda")
double("cpu")
