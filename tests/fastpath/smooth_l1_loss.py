# F.smooth_l1_loss's C++ passes (engine/python/bindings_loss_smooth_l1.cpp: the reduced loss's elementwise values
# and np.sum, and smooth_l1_loss_backward for a one-element gradient) against the numpy computation they stand in
# for (DEVICESCOPE_NO_FAST_OPS=1): the same loss and gradient bits - NaN, infinities, -0.0, values at and around
# +-beta, sizes with and without a tail after the CPU kernel's whole vector pairs (16 floats, 8 doubles), the CUDA
# kernel's formula on a simulated GPU - the same node, saved values and allocator trace. Also the forms that stay
# with numpy either way: reduction='none' (a full-size gradient), a transposed input, a float64 target for a
# float32 input (the composite's). tests/tools/run_fast_path_agreement.py runs it both ways and wants the same output.
import torch
import torch.nn.functional as F
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def run(dev):
    torch.manual_seed(0)
    special = [0.0, -0.0, 1.0, -1.0, 0.25, -0.25, 0.2500001, float("inf"), -float("inf"), float("nan"), 1e-30,
               3e38, -3e38, 7.5, -2.0, 0.9999999]
    for dtype in (torch.float32, torch.float64):
        for shape in ((5,), (16,), (17,), (32, 1), (8, 5), (37,)):
            for beta in (1.0, 0.25, 2):
                for reduction in ("mean", "sum"):
                    a = (torch.randn(shape, device=dev, dtype=dtype) * 2).requires_grad_(True)
                    b = torch.randn(shape, device=dev, dtype=dtype) * 2
                    b.requires_grad_(shape == (17,))
                    loss = F.smooth_l1_loss(a, b, reduction=reduction, beta=beta)
                    fn = loss.grad_fn
                    loss.backward()
                    print(dev, dtype, shape, beta, reduction, type(fn).__name__, fn._saved_beta, fn._saved_reduction,
                          hexes(loss), "|", hexes(a.grad), "|", hexes(b.grad) if b.grad is not None else None)
        s = torch.tensor(special, device=dev, dtype=dtype, requires_grad=True)
        z = torch.zeros(len(special), device=dev, dtype=dtype)
        for beta in (1.0, 0.25):
            s.grad = None
            loss = F.smooth_l1_loss(s, z, beta=beta)
            loss.backward()
            print(dev, dtype, "special", beta, hexes(loss), "|", hexes(s.grad))
            s.grad = None
            loss = F.smooth_l1_loss(s, z, beta=beta, reduction="sum")
            (loss * 3).backward()
            print(dev, dtype, "special sum * 3", beta, hexes(loss), "|", hexes(s.grad))
    # the numpy path's either way
    x = torch.randn(6, 4, device=dev, requires_grad=True)
    y = torch.randn(6, 4, device=dev)
    loss = F.smooth_l1_loss(x, y, reduction="none")
    loss.backward(torch.full_like(loss, 0.5))
    print(dev, "none", hexes(loss), "|", hexes(x.grad))
    x.grad = None
    loss = F.smooth_l1_loss(x.t(), y.t())
    loss.backward()
    print(dev, "transposed", hexes(loss), "|", hexes(x.grad))
    with torch.no_grad():
        print(dev, "no_grad", hexes(F.smooth_l1_loss(x, y)), F.smooth_l1_loss(x, y).grad_fn)


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
