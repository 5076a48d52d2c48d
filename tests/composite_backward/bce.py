# F.binary_cross_entropy's direct BinaryCrossEntropyBackward0 (nn/_loss_bce.py: binary_cross_entropy_backward's
# formula) against the composite (DEVICESCOPE_PY_COMPOSITE=1: the loss recomputed under grad mode in backward),
# through tests/tools/run_composite_backward_agreement.py: the loss to the last bit (both paths compute it alike),
# node names, saved values, the allocator trace; the gradients are compared in-process with the composite's
# (within 1e-5 relative: the two formulas round differently; at inputs 0 and 1 the composite gives nan where
# PyTorch's EPSILON floor gives finite values, so those are left to conformance_nn_direct_backward_grads against PyTorch).
# Every reduction, a weight, reduction='none' with a non-contiguous incoming gradient, double backward.
import torch
import torch.nn.functional as F
from torch.nn import _composite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def digits(t):
    return " ".join(f"{v:.6g}" for v in t.detach().reshape(-1).tolist())


def cases(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        x = torch.rand(6, 7, device=dev, dtype=dtype)
        x[1, 0] = 0.5
        x.requires_grad_()
        t = torch.rand(6, 7, device=dev, dtype=dtype)
        t[0, 0], t[0, 1] = 1.0, 0.0
        w = torch.rand(7, device=dev, dtype=dtype)
        for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": w}, {"weight": w, "reduction": "none"}):
            yield dtype, x, t, kw


def step(dev, dtype, x, t, kw):
    x.grad = None
    loss = F.binary_cross_entropy(torch.sigmoid(x * 3 - 1) if kw.get("reduction") == "sum" else x, t, **kw)
    fn = loss.grad_fn
    info = (type(fn).__name__, [type(n).__name__ if n else None for n, _ in fn.next_functions], fn._saved_reduction,
            tuple(fn._saved_self.shape), fn._saved_weight is not None, tuple(loss.shape))
    if loss.dim():
        loss.backward(torch.linspace(-1, 1, 42, device=dev, dtype=dtype).reshape(6, 7))
    else:
        loss.backward()
    return loss, info


def compare(dev):
    """Untraced: each case's gradient on this run's path against the composite's, in this process."""
    for dtype, x, t, kw in cases(dev):
        _composite.REFERENCE = True
        step(dev, dtype, x, t, kw)
        want = x.grad.clone()
        _composite.REFERENCE = was
        step(dev, dtype, x, t, kw)
        print(dev, dtype, sorted(kw), "grad as the composite's:", torch.allclose(x.grad, want, rtol=1e-5, atol=1e-7))
    # reduction='none' with a transposed incoming gradient: binary_cross_entropy_backward's grad_input is
    # empty_like(input), contiguous, which .grad then takes as it is: one allocation (the composite's gradient
    # follows the incoming layout and AccumulateGrad copies it into the leaf's, two)
    x = torch.rand(6, 7, device=dev, requires_grad=True)
    loss = F.binary_cross_entropy(x, torch.rand(6, 7, device=dev), reduction="none")
    gin = torch.linspace(-1, 1, 42, device=dev).reshape(7, 6).t()
    torch.cuda.memory._record_memory_history(max_entries=1000)
    loss.backward(gin)
    trace = torch.cuda.memory._snapshot()["device_traces"][0]
    torch.cuda.memory._record_memory_history(enabled=None)
    if dev == "cuda" and not was:
        assert [e["size"] for e in trace if e["action"] == "alloc"] == [168], trace
    print(dev, "transposed gradient", x.grad.is_contiguous())
    # double backward (a gradient penalty through the loss's gradient): the direct node differentiates its formula
    # in ops, the composite its recomputation; values compared (their allocations differ: neither is ATen's
    # binary_cross_entropy_double_backward)
    torch.manual_seed(1)
    x = torch.rand(5, device=dev, dtype=torch.float64, requires_grad=True)
    t = torch.rand(5, device=dev, dtype=torch.float64)
    got = []
    for reference in (True, was):
        _composite.REFERENCE = reference
        x.grad = None
        g, = torch.autograd.grad(F.binary_cross_entropy(x, t), x, create_graph=True)
        (g * g).sum().backward()
        got.append((g.detach(), x.grad.clone()))
    _composite.REFERENCE = was
    print(dev, "double backward as the composite's:", all(torch.allclose(a, b, rtol=1e-9) for a, b in zip(*got)),
          digits(got[1][0][:2]))


def run(dev):
    for dtype, x, t, kw in cases(dev):
        loss, info = step(dev, dtype, x, t, kw)
        print(dev, dtype, sorted(kw), *info)
        print("   loss", hexes(loss))
    x = torch.rand(5, device=dev, dtype=torch.float64, requires_grad=True)
    t = torch.rand(5, device=dev, dtype=torch.float64)
    # no grad: no node; the target needing a gradient: the composite's node
    with torch.no_grad():
        print(dev, "no_grad", F.binary_cross_entropy(x, t).grad_fn)
    tt = t.clone().requires_grad_()
    loss = F.binary_cross_entropy(x.detach(), tt)
    loss.backward()
    print(dev, "target grad", type(loss.grad_fn).__name__, digits(tt.grad))


was = _composite.REFERENCE
print("composite:", "reference" if was else "direct")
compare("cuda")
compare("cpu")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
