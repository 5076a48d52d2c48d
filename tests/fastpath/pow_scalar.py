# x ** 1, x ** 2 and x ** 3 (Tensor.__pow__, Tensor.pow, torch.pow with a Python int or float exponent) of a
# float32/float64 tensor, and float32 x ** 4..64: the C++ fast path computes the copy, the products or the double
# powers and fast_grad.record attaches elementwise._pow_float_number's PowBackward0; the Python path must give the
# same values to the last bit (NaN, infinities, -0.0, overflow, subnormals), grad_fn, saved self and exponent (its
# type as given), version, strides, gradients and allocator trace, size-1 dims with row-major strides included
# (make_features' x.unsqueeze(1) ** i). Also the forms that stay on the Python path either way (other exponents, a
# bool or numpy exponent, a size-1 dim with other strides, a transposed tensor, an integer tensor, out=), on a
# simulated GPU and on the CPU.
# tests/tools/run_fast_path_agreement.py runs it with and without the fast path and wants the same output.
import numpy as np
import torch
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def node_line(t):
    fn = t.grad_fn
    if fn is None:
        return "grad_fn None"
    nexts = ["None" if n is None else f"{type(n).__name__}:{nr}" for n, nr in fn.next_functions]
    saved = []
    for a in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        v = getattr(fn, a)
        saved.append(f"{a}=" + (f"tensor {hexes(v)}" if isinstance(v, torch.Tensor) else f"{v!r} {type(v).__name__}"))
    return f"{type(fn).__name__} next=[{', '.join(nexts)}] saved=[{'; '.join(saved)}]"


def run(dev):
    torch.manual_seed(0)
    special = torch.tensor([0.0, -0.0, 1.5, -2.25, float("inf"), -float("inf"), float("nan"), 1e-30, -3e-20,
                            1e20, -7e12, 3.4e38], device=dev)
    x = torch.randn(3, 4, device=dev)
    x64 = torch.randn(3, 4, device=dev, dtype=torch.float64)
    w = torch.randn(3, 4, device=dev, requires_grad=True)
    w64 = torch.randn(5, device=dev, dtype=torch.float64, requires_grad=True)
    col = torch.randn(4, 1, device=dev, requires_grad=True)
    ints = torch.arange(-3, 5, device=dev)
    cases = [
        ("special ** 2", lambda: special ** 2), ("special ** 3", lambda: special ** 3),
        ("special.pow(2.0)", lambda: special.pow(2.0)), ("torch.pow(special, 3.0)", lambda: torch.pow(special, 3.0)),
        ("special.double() ** 3", lambda: special.double() ** 3), ("x ** 2", lambda: x ** 2), ("x64 ** 3", lambda: x64 ** 3),
        ("w ** 2", lambda: w ** 2), ("w.pow(3)", lambda: w.pow(3)), ("torch.pow(w, 2.0)", lambda: torch.pow(w, 2.0)),
        ("(w * 2) ** 3.0", lambda: (w * 2) ** 3.0), ("w64 ** 2", lambda: w64 ** 2), ("w64.pow(3.0)", lambda: w64.pow(3.0)),
        ("special ** 1", lambda: special ** 1), ("special ** 4", lambda: special ** 4),
        ("special ** 7.0", lambda: special ** 7.0), ("special ** 64", lambda: special ** 64),
        ("x ** 5", lambda: x ** 5), ("x64 ** 1", lambda: x64 ** 1), ("w ** 4", lambda: w ** 4),
        ("w ** 1", lambda: w ** 1), ("w.pow(13)", lambda: w.pow(13)), ("col ** 2 (size-1 dim)", lambda: col ** 2),
        ("col ** 4 (size-1 dim)", lambda: col ** 4), ("x.unsqueeze(1) ** 3", lambda: x.unsqueeze(1) ** 3),
        # the Python path's either way
        ("w ** 65", lambda: w ** 65), ("x64 ** 4", lambda: x64 ** 4), ("w ** -3", lambda: w ** -3),
        ("w ** 2.5", lambda: w ** 2.5), ("w ** True", lambda: w ** True),
        ("w ** np.float64(2)", lambda: w ** np.float64(2)),
        ("col.t() ** 2 (size-1 dim, strides (1, 1))", lambda: col.t() ** 2),
        ("w.t() ** 2 (transposed)", lambda: w.t() ** 2), ("ints ** 2", lambda: ints ** 2),
        ("torch.pow(ints, 3)", lambda: torch.pow(ints, 3)), ("x ** w", lambda: x ** w),
    ]
    for label, fn in cases:
        for t in (w, w64, col):
            t.grad = None
        before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        y = fn()
        after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        print(f"{dev} {label}: {tuple(y.shape)} {y.stride()} {y.dtype} v{y._version} {hexes(y)} +{after - before}B")
        print("  ", node_line(y))
        if y.requires_grad:
            (y * 1.5).sum().backward()
            for n, t in (("w", w), ("w64", w64), ("col", col)):
                if t.grad is not None:
                    print(f"   {n}.grad {hexes(t.grad)}")
    out = torch.empty(3, 4, device=dev)
    torch.pow(x, 2, out=out)
    print(dev, "out=", hexes(out), out._version)
    with torch.no_grad():
        print(dev, "no_grad w ** 2", node_line(w ** 2), hexes(w ** 2))
    # a second-order gradient through x ** 3's node (create_graph)
    g, = torch.autograd.grad((w ** 3).sum(), w, create_graph=True)
    print(dev, "double backward", node_line(g), hexes(g))
    g2, = torch.autograd.grad(g.sum(), w)
    print(dev, "second order", hexes(g2))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
