# F.mse_loss's direct MseLossBackward0 (nn/_loss_mse.py: mse_loss_backward for self, then the target) against the
# composite (DEVICESCOPE_PY_COMPOSITE=1: the loss recomputed under grad mode in backward), through
# tests/tools/run_composite_backward_agreement.py: the loss to the last bit (both paths compute it alike), node
# names, saved values, the allocator trace; gradients compared in-process with the composite's (within 1e-6
# relative: the formulas round differently; conformance_nn_direct_backward_grads holds them to PyTorch's). Every
# reduction, a target that needs a gradient too, double backward, a broadcasting target (the composite's).
import warnings

import torch
import torch.nn.functional as F
from torch.nn import _composite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def cases(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        for both in (False, True):
            x = torch.randn(6, 7, device=dev, dtype=dtype, requires_grad=True)
            t = torch.randn(6, 7, device=dev, dtype=dtype, requires_grad=both)
            for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}):
                yield dtype, x, t, kw


def step(dev, dtype, x, t, kw):
    x.grad = t.grad = None
    loss = F.mse_loss(torch.tanh(x) if kw.get("reduction") == "sum" else x, t, **kw)
    fn = loss.grad_fn
    info = (type(fn).__name__, [type(n).__name__ if n else None for n, _ in fn.next_functions], fn._saved_reduction,
            tuple(fn._saved_self.shape), tuple(fn._saved_target.shape), tuple(loss.shape))
    if loss.dim():
        loss.backward(torch.linspace(-1, 1, 42, device=dev, dtype=dtype).reshape(6, 7))
    else:
        loss.backward()
    return loss, info


def grads(x, t):
    return [g.clone() for g in (x.grad, t.grad) if g is not None]


def compare(dev):
    """Untraced: each case's gradients on this run's path against the composite's, in this process."""
    for dtype, x, t, kw in cases(dev):
        _composite.REFERENCE = True
        step(dev, dtype, x, t, kw)
        want = grads(x, t)
        _composite.REFERENCE = was
        step(dev, dtype, x, t, kw)
        got = grads(x, t)
        print(dev, dtype, t.requires_grad, sorted(kw), "grads as the composite's:", len(got),
              all(torch.allclose(a, b, rtol=1e-6, atol=1e-9) for a, b in zip(got, want)))
    torch.manual_seed(1)
    x = torch.randn(5, device=dev, dtype=torch.float64, requires_grad=True)
    t = torch.randn(5, device=dev, dtype=torch.float64)
    got = []
    for reference in (True, was):
        _composite.REFERENCE = reference
        x.grad = None
        g, = torch.autograd.grad(F.mse_loss(x, t), x, create_graph=True)
        (g * g).sum().backward()
        got.append((g.detach(), x.grad.clone()))
    _composite.REFERENCE = was
    print(dev, "double backward as the composite's:", all(torch.allclose(a, b, rtol=1e-9) for a, b in zip(*got)))


def run(dev):
    for dtype, x, t, kw in cases(dev):
        loss, info = step(dev, dtype, x, t, kw)
        print(dev, dtype, t.requires_grad, sorted(kw), *info)
        print("   loss", hexes(loss))
    x = torch.randn(4, 3, device=dev, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loss = F.mse_loss(x, torch.randn(3, device=dev))
    loss.backward()
    print(dev, "broadcast target", type(loss.grad_fn).__name__, hexes(loss), hexes(x.grad))
    with torch.no_grad():
        print(dev, "no_grad", F.mse_loss(x, x * 2).grad_fn)


was = _composite.REFERENCE
print("composite:", "reference" if was else "direct")
compare("cuda")
compare("cpu")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
