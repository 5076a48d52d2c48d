# Ops the C++ fast path runs while autograd records (bindings_ops.cpp + torch/_ops/fast_grad.py), on a
# simulated GPU and on the CPU. Prints what the fast path must reproduce of the Python path: results, grad_fn
# names, next_functions, saved tensors (identity with the operands, the result's alias), gradients to the last
# bit, and the allocator's trace (every alloc and free, sizes in order). tests/tools/run_fast_path_agreement.py
# runs it with and without the fast path (DEVICESCOPE_NO_FAST_OPS=1) and wants the same output.
import torch
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
    saved = []
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        v = getattr(fn, attr)
        if isinstance(v, torch.Tensor):
            who = names.get(id(v), "result-alias" if v.grad_fn is fn else "other")
            saved.append(f"{attr}=tensor{tuple(v.shape)}:{who}")
        else:
            saved.append(f"{attr}={v!r}")
    return f"{type(fn).__name__} next=[{', '.join(nexts)}] saved=[{'; '.join(saved)}]"


def run(dev):
    torch.manual_seed(0)
    a = torch.randn(3, 4, device=dev, requires_grad=True)
    b = torch.randn(3, 4, device=dev, requires_grad=True)
    row = torch.randn(4, device=dev, requires_grad=True)
    c = torch.randn(3, 4, device=dev)  # no grad
    d64 = torch.randn(3, 4, device=dev, dtype=torch.float64, requires_grad=True)
    names = {id(a): "a", id(b): "b", id(row): "row", id(c): "c", id(d64): "d64"}
    big3 = torch.randn(40, 3, 4, device=dev) * 100
    mid3 = torch.randn(3, 300, 4, device=dev)
    big64 = torch.randn(9, 3, 4, device=dev, dtype=torch.float64)
    col3 = torch.randn(3, 4, 50, device=dev)
    cases = [
        ("a + b", lambda: a + b), ("a + row", lambda: a + row), ("row + a", lambda: row + a),
        ("a + 2", lambda: a + 2), ("2 + a", lambda: 2 + a), ("a + 1.5", lambda: a + 1.5),
        ("a.add(b, alpha=2)", lambda: a.add(b, alpha=2)), ("a.add(3, alpha=2)", lambda: a.add(3, alpha=2)),
        ("torch.add(a, c)", lambda: torch.add(a, c)), ("c + a", lambda: c + a),
        ("a - b", lambda: a - b), ("a - row", lambda: a - row), ("a.sub(b, alpha=0.5)", lambda: a.sub(b, alpha=0.5)),
        ("a - 1", lambda: a - 1), ("3 - a", lambda: 3 - a), ("c - a", lambda: c - a),
        ("a * b", lambda: a * b), ("a * c", lambda: a * c), ("c * a", lambda: c * a), ("a * 2.0", lambda: a * 2.0),
        ("2.0 * a", lambda: 2.0 * a), ("a * row", lambda: a * row),
        ("a / b", lambda: a / b), ("a / 4", lambda: a / 4), ("c / a", lambda: c / a), ("a / row", lambda: a / row),
        ("torch.div(a, c)", lambda: torch.div(a, c)),
        ("d64 * d64", lambda: d64 * d64), ("-a", lambda: -a), ("a.neg()", lambda: a.neg()),
        ("torch.relu(a)", lambda: torch.relu(a)), ("a.relu()", lambda: a.relu()),
        ("torch.neg(d64)", lambda: torch.neg(d64)),
        ("torch.tanh(a)", lambda: torch.tanh(a)), ("a.tanh()", lambda: a.tanh()), ("torch.tanh(d64)", lambda: torch.tanh(d64)),
        ("torch.sigmoid(a)", lambda: torch.sigmoid(a)), ("a.sigmoid()", lambda: a.sigmoid()),
        ("torch.sigmoid(d64)", lambda: torch.sigmoid(d64)), ("torch.exp(a)", lambda: torch.exp(a)),
        ("a.exp()", lambda: a.exp()), ("torch.exp(d64)", lambda: torch.exp(d64)),
        ("a.sum()", lambda: a.sum()), ("torch.sum(d64)", lambda: torch.sum(d64)), ("(a * b).sum()", lambda: (a * b).sum()),
        ("torch.sigmoid(a * 30)", lambda: torch.sigmoid(a * 30)), ("torch.exp(a * 60)", lambda: torch.exp(a * 60)),
        ("a.abs()", lambda: a.abs()), ("torch.sqrt(d64 * d64)", lambda: torch.sqrt(d64 * d64)),
        # sum's and mean's gradients broadcast back over the reduced dims (fast_make.cpp fast_expand_grad)
        ("a.sum(1)", lambda: a.sum(1)), ("a.sum(0, keepdim=True)", lambda: a.sum(0, keepdim=True)),
        ("torch.sum(d64, -1)", lambda: torch.sum(d64, -1)), ("a.mean()", lambda: a.mean()),
        ("a.mean(1)", lambda: a.mean(1)), ("d64.mean((0, 1))", lambda: d64.mean((0, 1))),
        ("a.t().mean(0, keepdim=True).t()", lambda: a.t().mean(0, keepdim=True).t()),
        ("(a * b).unsqueeze(0).expand(2, 3, 4).sum((0, 2))", lambda: (a * b).unsqueeze(0).expand(2, 3, 4).sum((0, 2))),
        ("a.sum(1).unsqueeze(1).t()", lambda: a.sum(1).unsqueeze(1).t()),
        # broadcast operands' gradients summed back (_core.sum_to_shape, fast_make.cpp fast_sum_keepdim: numpy's
        # order when the last dim is kept; a reduced or size-1 last dim stays on numpy)
        ("a.unsqueeze(0) * big3", lambda: a.unsqueeze(0) * big3), ("a.unsqueeze(1) + mid3", lambda: a.unsqueeze(1) + mid3),
        ("(d64 * 1).unsqueeze(0) - big64", lambda: (d64 * 1).unsqueeze(0) - big64),
        ("row * big3", lambda: row * big3), ("row.reshape(4, 1) * a.t()", lambda: row.reshape(4, 1) * a.t()),
        ("a.reshape(3, 4, 1) * col3", lambda: a.reshape(3, 4, 1) * col3),
        ("a.unsqueeze(0) * big3.transpose(1, 0).transpose(1, 0)", lambda: a.unsqueeze(0) * big3.transpose(1, 0).transpose(1, 0)),
    ]
    for label, fn in cases:
        for t in (a, b, row, d64):
            t.grad = None
        before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        y = fn()
        after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        print(f"{dev} {label}: {tuple(y.shape)} {y.dtype} {hexes(y)} +{after - before}B")
        print("  ", node_line(y, names))
        (y * y).sum().backward()  # a gradient that depends on the values
        for n, t in (("a", a), ("b", b), ("row", row), ("d64", d64)):
            if t.grad is not None:
                print(f"   {n}.grad {hexes(t.grad)}")
    try:
        torch.mul(3, a)  # `input` must be a tensor, fast path or not
    except TypeError as e:
        print(dev, "torch.mul(3, a):", e)
    # scalar parameters broadcast over a vector (pytorch_with_examples' polynomial): their gradients are sums
    torch.manual_seed(4)
    xs = torch.linspace(-3, 3, 50, device=dev)
    p0, p1 = torch.randn((), device=dev, requires_grad=True), torch.randn((), device=dev, requires_grad=True)
    (p0 + p1 * xs + p1 * xs ** 2).pow(2).sum().backward()
    print(dev, "scalar params", hexes(p0.grad), hexes(p1.grad))
    # a chain through several fast ops, intermediates freed as PyTorch frees them
    x = torch.randn(8, 16, device=dev, requires_grad=True)
    w = torch.randn(16, device=dev, requires_grad=True)
    h = torch.relu(x * w + 1.0)
    loss = ((h - 0.5) / 3.0).neg().sum()
    print(dev, "chain", node_line(h, {id(x): "x", id(w): "w"}), hexes(loss))
    if dev != "cpu":
        print(dev, "chain live bytes", torch.cuda.memory_allocated(0))
    loss.backward()
    print(dev, "chain grads", hexes(x.grad), hexes(w.grad))
    with torch.no_grad():
        print(dev, "no_grad", (a + b).grad_fn, torch.relu(a).requires_grad)
        # special values through the float32 kernels (without autograd: the same entries)
        s = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 20.0, -20.0, 89.0, -104.0, 1e30, -1e30, float("inf"),
                          float("-inf"), float("nan")], device=dev)
        for name in ("tanh", "sigmoid", "exp", "relu", "neg", "abs", "sqrt"):
            print(dev, name, hexes(getattr(torch, name)(s)), hexes(getattr(s, name)()))
        # abs and sqrt of float64 (in C++ too), of integers (the Python path: sqrt gives float32), of a
        # non-contiguous view (Python) and with autograd recording (Python, for the node)
        d = s.double() * 3.7
        print(dev, "abs/sqrt float64", hexes(torch.abs(d)), hexes(d.sqrt()), hexes(torch.sqrt(d.abs())))
        i = torch.arange(-3, 4, device=dev)
        print(dev, "int tanh/exp/sigmoid", hexes(torch.tanh(i)), hexes(torch.exp(i)), hexes(torch.sigmoid(i)),
              torch.exp(i).dtype)
        print(dev, "int abs/sqrt", hexes(i.abs()), i.abs().dtype, hexes(torch.sqrt(i)), torch.sqrt(i).dtype)
        m = torch.arange(12.0, device=dev).reshape(3, 4) - 5.5
        print(dev, "view abs/sqrt", hexes(m.t().abs()), m.t().abs().stride(), hexes(m.abs().t().sqrt()))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
