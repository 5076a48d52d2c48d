# In-place add_/sub_ (and +=, -=) while autograd records: the C++ fast path computes them in place and
# torch/_ops/fast_grad.py rebases the tensor's history (elementwise.attach_rebased); the Python path
# (elementwise.binary_inplace) must give the same values, grad_fn names, next_functions, saved alpha, version
# counters, gradients to the last bit and allocator trace. Also the forms that stay on the Python path either way
# (a view, a leaf that requires grad, a cast, broadcasting into self), on a simulated GPU and on the CPU.
# tests/tools/run_fast_path_agreement.py runs it with and without the fast path and wants the same output.
import torch
import torch.nn as nn
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def node_line(t, names):
    fn = t.grad_fn
    if fn is None:
        return "grad_fn None"
    nexts = []
    for n, nr in fn.next_functions:
        nexts.append("None" if n is None else f"{type(n).__name__}:{nr}" + (
            f"({names.get(id(n.variable), '?')})" if type(n).__name__ == "AccumulateGrad" else ""))
    saved = [f"{a}={getattr(fn, a)!r}" for a in sorted(a for a in dir(fn) if a.startswith("_saved_"))]
    return f"{type(fn).__name__} next=[{', '.join(nexts)}] saved=[{'; '.join(saved)}]"


def run(dev):
    torch.manual_seed(0)
    a = torch.randn(3, 4, device=dev, requires_grad=True)
    b = torch.randn(3, 4, device=dev, requires_grad=True)
    row = torch.randn(4, device=dev, requires_grad=True)
    c = torch.randn(3, 4, device=dev)  # no grad
    d64 = torch.randn(3, 4, device=dev, dtype=torch.float64, requires_grad=True)
    bt = torch.randn(4, 3, device=dev, requires_grad=True)
    wide = torch.randn(3, 8, device=dev, requires_grad=True)
    ct = torch.randn(4, 3, device=dev)
    names = {id(a): "a", id(b): "b", id(row): "row", id(c): "c", id(d64): "d64", id(bt): "bt", id(wide): "wide"}

    def iadd(x, y):
        x += y
        return x

    def isub(x, y):
        x -= y
        return x

    cases = [
        ("(a*2).add_(b)", lambda: (a * 2).add_(b)), ("(a*2).add_(row)", lambda: (a * 2).add_(row)),
        ("(a*2).add_(b, alpha=3)", lambda: (a * 2).add_(b, alpha=3)), ("(a*2).add_(2.5)", lambda: (a * 2).add_(2.5)),
        ("(a*2).add_(2, alpha=3)", lambda: (a * 2).add_(2, alpha=3)), ("(a*2).add_(c)", lambda: (a * 2).add_(c)),
        ("(a*2).sub_(b)", lambda: (a * 2).sub_(b)), ("(a*2).sub_(row, alpha=0.5)", lambda: (a * 2).sub_(row, alpha=0.5)),
        ("(a*2).sub_(1.5)", lambda: (a * 2).sub_(1.5)), ("(a*2).sub_(2, alpha=3)", lambda: (a * 2).sub_(2, alpha=3)),
        ("c.clone().add_(a)", lambda: c.clone().add_(a)), ("c.clone().sub_(b, alpha=2)", lambda: c.clone().sub_(b, alpha=2)),
        ("iadd(a*2, b)", lambda: iadd(a * 2, b)), ("isub(a*2, row)", lambda: isub(a * 2, row)),
        ("(d64*1).add_(d64)", lambda: (d64 * 1).add_(d64)),
        ("(d64*1).add_(a) (cast)", lambda: (d64 * 1).add_(a)),
        ("(a*2)[1].add_(row) (view)", lambda: (a * 2)[1].add_(row)),
        ("(a*2).t().add_(b.t()) (view)", lambda: (a * 2).t().add_(b.t())),
        ("(a*2).add_(b).add_(row).sub_(b)", lambda: (a * 2).add_(b).add_(row).sub_(b)),
        # a strided operand read in place (backward's buffer accumulation adds transposed / sliced gradients)
        ("(a*2).add_(bt.t()) (strided other)", lambda: (a * 2).add_(bt.t())),
        ("(a*2).sub_(wide[:, ::2], alpha=2) (strided other)", lambda: (a * 2).sub_(wide[:, ::2], alpha=2)),
        ("c.clone().add_(ct.t()).add_(a) (strided other)", lambda: c.clone().add_(ct.t()).add_(a)),
        ("c.clone().add_(row.expand(3, 4)) (expanded other)", lambda: c.clone().add_(row.expand(3, 4))),
    ]
    for label, fn in cases:
        for t in (a, b, row, d64, bt, wide):
            t.grad = None
        before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        y = fn()
        after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        print(f"{dev} {label}: {tuple(y.shape)} {y.dtype} v{y._version} {hexes(y)} +{after - before}B")
        print("  ", node_line(y, names))
        (y * y).sum().backward()
        for n, t in (("a", a), ("b", b), ("row", row), ("d64", d64), ("bt", bt), ("wide", wide)):
            if t.grad is not None:
                print(f"   {n}.grad {hexes(t.grad)}")
    sq = torch.randn(3, 3, device=dev)
    for label, fn in [("sq.add_(sq.t())", lambda: sq.add_(sq.t())), ("a.add_(b)", lambda: a.add_(b)), ("(a*1).add_(torch.ones(2, 3, 4))",
                                                           lambda: (a * 1).add_(torch.ones(2, 3, 4, device=dev)))]:
        try:
            fn()
        except RuntimeError as e:
            print(dev, label, type(e).__name__, e)
    # nn.Linear on a transposed 3-D input: matmul, then the bias added in place
    torch.manual_seed(1)
    lin = nn.Linear(4, 5).to(dev)
    x = torch.randn(3, 2, 4, device=dev).transpose(0, 1)
    y = lin(x)
    print(dev, "linear", node_line(y, {}), hexes(y))
    (y * y).sum().backward()
    print(dev, "linear grads", hexes(lin.weight.grad), hexes(lin.bias.grad))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
