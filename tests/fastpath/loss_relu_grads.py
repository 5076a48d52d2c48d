# The C++ kernels of a training step's loss and activation gradients (bindings_fast_grad.cpp: nll_loss forward
# and backward, relu's, tanh's and sigmoid's backward) against the numpy formulas they replace (DEVICESCOPE_NO_FAST_OPS=1), through
# tests/tools/run_fast_path_agreement.py: values to the last bit, saved tensors and the allocator trace.
import torch
import torch.nn.functional as F
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def run(dev):
    torch.manual_seed(1)
    for dtype in (torch.float32, torch.float64):
        z = torch.randn(13, 7, device=dev, dtype=dtype, requires_grad=True)
        y = torch.randint(0, 7, (13,), device=dev)
        y[3] = -100
        y[5] = 2
        wt = torch.rand(7, device=dev, dtype=dtype)
        for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": wt}, {"weight": wt, "reduction": "sum"},
                   {"weight": wt, "reduction": "none"}, {"ignore_index": 2}, {"ignore_index": 2, "weight": wt}):
            z.grad = None
            target = y if "ignore_index" not in kw else y.clamp(min=0)  # (-100 is a class index then)
            loss = F.cross_entropy(z * 2.0, target, **kw)
            fn = loss.grad_fn
            tw = fn._saved_total_weight
            print(dev, dtype, sorted(kw), hexes(loss), type(fn).__name__, fn._saved_reduction, fn._saved_ignore_index,
                  tuple(tw.shape), hexes(tw), fn._saved_weight is not None)
            (loss.sum() if loss.dim() else loss).backward() if "reduction" not in kw or kw["reduction"] != "none" \
                else loss.backward(torch.linspace(-1, 1, 13, device=dev, dtype=dtype))
            print("   grad", hexes(z.grad))
    # all rows ignored: total_weight 0, mean is nan, the gradient stays +0
    z = torch.randn(4, 3, device=dev, requires_grad=True)
    loss = F.nll_loss(z, torch.full((4,), -100, device=dev, dtype=torch.long))
    loss.backward()
    print(dev, "all ignored", hexes(loss), hexes(z.grad))
    # out-of-range class: the composite path's error
    try:
        F.nll_loss(z, torch.tensor([0, 1, 5, 0], device=dev))
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(dev, "out of range:", type(e).__name__, str(e).splitlines()[0][:80])
    # relu's backward: values with negative, zero and -0.0 gradients, nan and inf
    x = torch.tensor([[-1.0, 0.0, -0.0, 2.0], [float("nan"), float("inf"), -3.0, 0.5]], device=dev, requires_grad=True)
    r = torch.relu(x * 1.0)
    r.backward(torch.tensor([[1.0, -2.0, 3.0, -4.0], [5.0, float("inf"), -1.0, float("nan")]], device=dev))
    print(dev, "relu grad", hexes(x.grad))
    for name in ("tanh", "sigmoid"):
        for dtype in (torch.float32, torch.float64):
            x = torch.tensor([[-1.0, 0.0, -0.0, 2.0], [float("nan"), float("inf"), -30.0, 0.5]], device=dev,
                             dtype=dtype, requires_grad=True)
            r = getattr(torch, name)(x * 1.0)
            r.backward(torch.tensor([[1.0, -2.0, 3.0, -4.0], [5.0, float("inf"), -1.0, 0.3]], device=dev, dtype=dtype))
            print(dev, name, dtype, "grad", hexes(x.grad))
    # an LSTM-like gate chain: values through sigmoid/tanh and their backward
    torch.manual_seed(3)
    gates = torch.randn(6, 32, device=dev, requires_grad=True)
    i, f, gg, o = (gates * 1.0).chunk(4, 1)
    c = torch.sigmoid(f) * 0.5 + torch.sigmoid(i) * torch.tanh(gg)
    h = torch.sigmoid(o) * torch.tanh(c)
    h.sum().backward()
    print(dev, "gates grad", hexes(gates.grad))
    # an MLP step: Linear, ReLU, CrossEntropy, SGD
    torch.manual_seed(2)
    model = torch.nn.Sequential(torch.nn.Linear(20, 16), torch.nn.ReLU(), torch.nn.Linear(16, 5)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    xi, yi = torch.randn(8, 20, device=dev), torch.randint(0, 5, (8,), device=dev)
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(xi), yi)
        loss.backward()
        opt.step()
        print(dev, "mlp loss", hexes(loss), "w0 grad sum", float(model[0].weight.grad.sum()).hex())


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
