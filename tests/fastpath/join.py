# torch.cat / torch.stack through the C++ fast path (engine/python/bindings_join.cpp) and the calls it leaves to
# torch/_ops/join.py, on a simulated GPU and the CPU, with and without autograd. Prints what the fast path must
# reproduce of the Python path: values to the last bit (NaN, -0.0, inf included), shapes, strides, dtypes,
# grad_fn names, next_functions, saved dims, gradients, PyTorch's errors and the allocator's trace.
# tests/tools/run_fast_path_agreement.py runs it with and without the fast path.
import torch
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def node_line(t):
    fn = t.grad_fn
    if fn is None:
        return "grad_fn None"
    nexts = [("None" if n is None else f"{type(n).__name__}:{nr}") for n, nr in fn.next_functions]
    saved = [f"{a}={getattr(fn, a)!r}" for a in sorted(a for a in dir(fn) if a.startswith("_saved_"))]
    return f"{type(fn).__name__} next=[{', '.join(nexts)}] saved=[{'; '.join(saved)}]"


def cases(a, b, c, s0, i1, i2, h, e0, e1, special):
    return [
        ("cat([a, b])", lambda: torch.cat([a, b])), ("cat((a, b), 1)", lambda: torch.cat((a, b), 1)),
        ("cat([a, b, a], dim=-1)", lambda: torch.cat([a, b, a], dim=-1)), ("cat([a])", lambda: torch.cat([a])),
        ("cat([a, c.t()], 0)", lambda: torch.cat([a, c.t()], 0)), ("cat([c.t(), a], 1)", lambda: torch.cat([c.t(), a], 1)),
        ("cat([a[:, 1:], b[:, :2]], 1)", lambda: torch.cat([a[:, 1:], b[:, :2]], 1)),
        ("cat([a.unsqueeze(0), b.unsqueeze(0)])", lambda: torch.cat([a.unsqueeze(0), b.unsqueeze(0)])),
        ("cat([a.expand(2, 3, 4), b.expand(2, 3, 4)], 2)", lambda: torch.cat([a.expand(2, 3, 4), b.expand(2, 3, 4)], 2)),
        ("cat([e0, a])", lambda: torch.cat([e0, a])), ("cat([e0, e0])", lambda: torch.cat([e0, e0])),
        ("cat([e1, s0.reshape(1)])", lambda: torch.cat([e1, s0.reshape(1)])), ("cat([i1, i2])", lambda: torch.cat([i1, i2])),
        ("cat([i1 > 0, i2 > 0])", lambda: torch.cat([i1 > 0, i2 > 0])), ("cat([a.double(), b.double()])", lambda: torch.cat([a.double(), b.double()])),
        ("cat([h, h])", lambda: torch.cat([h, h])), ("cat([a, a.double()])", lambda: torch.cat([a, a.double()])),
        ("cat([a, i2.float().reshape(3, 4)])", lambda: torch.cat([a, i2.float().reshape(3, 4)])),
        ("cat([special, special])", lambda: torch.cat([special, special])),
        ("concat([a, b], 1)", lambda: torch.concat([a, b], 1)), ("concatenate([a, b])", lambda: torch.concatenate([a, b])),
        ("cat([a, b], axis=1)", lambda: torch.cat([a, b], axis=1)),
        ("stack([a, b])", lambda: torch.stack([a, b])), ("stack((a, b, c.t()), 1)", lambda: torch.stack((a, b, c.t()), 1)),
        ("stack([a, b], dim=2)", lambda: torch.stack([a, b], dim=2)), ("stack([a, b], -1)", lambda: torch.stack([a, b], -1)),
        ("stack([s0, s0, s0])", lambda: torch.stack([s0, s0, s0])), ("stack([i1, i1], 0)", lambda: torch.stack([i1, i1], 0)),
        ("stack([e0, e0], 1)", lambda: torch.stack([e0, e0], 1)), ("stack([e1, e1])", lambda: torch.stack([e1, e1])),
        ("stack([h, h])", lambda: torch.stack([h, h])), ("stack([a[1:], b[:2]])", lambda: torch.stack([a[1:], b[:2]])),
        # strided gradients into CatBackward0 (fast_make.cpp fast_cat_grad)
        ("cat([a, c.t()], 0).t()", lambda: torch.cat([a, c.t()], 0).t()),
        ("cat((a, b, a), 1).t()", lambda: torch.cat((a, b, a), 1).t()),
        ("cat([a.double(), c.t().double()], 1)[:, ::2]", lambda: torch.cat([a.double(), c.t().double()], 1)[:, ::2]),
    ]


ERRORS = [
    ("cat([])", lambda a, s0: torch.cat([])), ("cat([a, a[0]])", lambda a, s0: torch.cat([a, a[0]])),
    ("cat([a, a.t()])", lambda a, s0: torch.cat([a, a.t()])), ("cat([s0, s0])", lambda a, s0: torch.cat([s0, s0])),
    ("cat([a, a], 2)", lambda a, s0: torch.cat([a, a], 2)), ("cat([a, 1])", lambda a, s0: torch.cat([a, 1])),
    ("cat([a, a], 1.0)", lambda a, s0: torch.cat([a, a], 1.0)), ("cat([a, a.cpu()])", lambda a, s0: torch.cat([a, a.cpu()])),
    ("cat(a)", lambda a, s0: torch.cat(a)), ("stack([a, a[0]])", lambda a, s0: torch.stack([a, a[0]])),
    ("stack([a, a], 3)", lambda a, s0: torch.stack([a, a], 3)), ("stack([])", lambda a, s0: torch.stack([])),
    ("cat([a, a], dim=0, out=a)", lambda a, s0: torch.cat([a, a], dim=0, out=a)),
]


def run(dev):
    torch.manual_seed(0)
    for grad in (True, False):
        a = torch.randn(3, 4, device=dev, requires_grad=grad)
        b = torch.randn(3, 4, device=dev)
        c = torch.randn(4, 3, device=dev, requires_grad=grad)
        s0 = torch.randn((), device=dev, requires_grad=grad)
        i1 = torch.arange(5, device=dev)
        i2 = torch.arange(-6, 6, device=dev)
        h = torch.randn(2, 3, device=dev).half()
        e0 = torch.randn(0, 4, device=dev, requires_grad=grad)
        e1 = torch.randn(0, device=dev)
        special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-40], device=dev)
        print(dev, "requires_grad" if grad else "plain")
        for label, fn in cases(a, b, c, s0, i1, i2, h, e0, e1, special):
            for t in (a, c, s0, e0):
                t.grad = None
            before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
            y = fn()
            after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
            print(f"  {label} +{after - before}B: {tuple(y.shape)} {y.stride()} {y.dtype} {y.device} {hexes(y)}")
            print("    ", node_line(y))
            if y.requires_grad and y.numel():
                (y * torch.arange(y.numel(), device=dev, dtype=y.dtype).view(y.shape)).sum().backward()
                print("    grads", [f"{n}:{hexes(t.grad)}" for n, t in (("a", a), ("c", c), ("s0", s0), ("e0", e0))
                                    if t.grad is not None])
        with torch.no_grad():
            print("  no_grad", node_line(torch.cat([a, b])), node_line(torch.stack([a, b])))
    # double backward through cat's and stack's nodes
    x = torch.randn(2, 3, device=dev, requires_grad=True)
    y = torch.cat([x * x, x], 1)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    g.sum().backward()
    z = torch.stack([x * x, x]).sum()
    (g2,) = torch.autograd.grad(z, x, create_graph=True)
    print(dev, "double backward", hexes(g), hexes(x.grad), hexes(g2), node_line(g2))
    for label, fn in ERRORS:
        try:
            fn(a, s0)
            print(dev, label, "no error")
        except Exception as err:  # noqa: BLE001 (the type and words are what is compared)
            print(dev, label, type(err).__name__, err)


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
