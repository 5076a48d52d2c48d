# F.mse_loss's C++ passes (engine/python/bindings_loss_mse.cpp: a reduced loss's (a - b) * (a - b) and np.sum, and
# mse_loss_backward for a one-element gradient) against the numpy computation they stand in for
# (DEVICESCOPE_NO_FAST_OPS=1): the same loss and gradient bits (NaN, infinities, -0.0, overflow to inf, sizes below
# and above numpy's pairwise block of 8 and its 8192-element buffer), node, saved values and allocator trace, on a
# simulated GPU and on the CPU. Also the forms that stay with numpy either way: reduction='none' (a full-size
# gradient), a transposed input, a broadcasting target, create_graph. tests/tools/run_fast_path_agreement.py runs it
# both ways and wants the same output.
import hashlib
import torch
import torch.nn.functional as F
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def short(t):
    """A long tensor's exact values as a digest of their hex forms (thousands of elements in one line otherwise)."""
    h = hexes(t)
    return h if t.numel() <= 40 else f"n={t.numel()} sha1={hashlib.sha1(h.encode()).hexdigest()}"


def run(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        for shape in ((5,), (8,), (37,), (32, 1), (2000,), (9000,), (3, 4, 5)):
            for reduction in ("mean", "sum"):
                a = (torch.randn(shape, device=dev, dtype=dtype) * 3).requires_grad_(True)
                b = torch.randn(shape, device=dev, dtype=dtype)
                b.requires_grad_(shape == (37,))
                loss = F.mse_loss(a, b, reduction=reduction)
                fn = loss.grad_fn
                (loss * 0.5).backward()
                print(dev, dtype, shape, reduction, type(fn).__name__, fn._saved_reduction, hexes(loss), "|",
                      short(a.grad), "|", short(b.grad) if b.grad is not None else None)
        s = torch.tensor([0.0, -0.0, 1.5, float("inf"), -float("inf"), float("nan"), 1e-30, 3e38, -3e38, 7.25],
                         device=dev, dtype=dtype, requires_grad=True)
        z = torch.zeros(10, device=dev, dtype=dtype)
        for reduction in ("mean", "sum"):
            s.grad = None
            loss = torch.nn.MSELoss(reduction=reduction)(s, z)
            loss.backward()
            print(dev, dtype, "special", reduction, hexes(loss), "|", hexes(s.grad))
    # the numpy path's either way
    x = torch.randn(6, 4, device=dev, requires_grad=True)
    y = torch.randn(6, 4, device=dev)
    loss = F.mse_loss(x, y, reduction="none")
    loss.backward(torch.full_like(loss, 0.5))
    print(dev, "none", hexes(loss), "|", hexes(x.grad))
    x.grad = None
    loss = F.mse_loss(x.t(), y.t())
    loss.backward()
    print(dev, "transposed", hexes(loss), "|", hexes(x.grad))
    x.grad = None
    g, = torch.autograd.grad(F.mse_loss(x, y, reduction="sum"), x, create_graph=True)
    print(dev, "create_graph", hexes(g), type(g.grad_fn).__name__)
    with torch.no_grad():
        print(dev, "no_grad", hexes(F.mse_loss(x, y)), F.mse_loss(x, y).grad_fn)


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
