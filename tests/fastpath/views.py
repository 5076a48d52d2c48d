# The view ops the C++ fast path makes (engine/python/bindings_views.cpp): view, reshape, t, transpose/swapaxes,
# unsqueeze, squeeze, permute, as methods and torch.* functions, with and without autograd, on a simulated GPU and the
# CPU. Prints what the fast path must reproduce of the Python path (torch/_ops/shape.py): shapes, strides,
# offsets, values, the view's base, version counters shared with the base, grad_fn names, next_functions,
# saved arguments, gradients, PyTorch's error messages for the calls the fast path leaves to Python, and the
# allocator's trace. tests/tools/run_fast_path_agreement.py runs it with and without the fast path.
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
    nexts = [("None" if n is None else f"{type(n).__name__}:{nr}") for n, nr in fn.next_functions]
    saved = [f"{a}={getattr(fn, a)!r}" for a in sorted(a for a in dir(fn) if a.startswith("_saved_"))]
    return f"{type(fn).__name__} next=[{', '.join(nexts)}] saved=[{'; '.join(saved)}]"


def describe(label, y, base_names):
    base = y._base
    who = "None" if base is None else base_names.get(id(base), "other")
    print(f"  {label}: {tuple(y.shape)} stride={y.stride()} offset={y.storage_offset()} "
          f"contig={y.is_contiguous()} type={type(y).__name__} base={who} rg={y.requires_grad} "
          f"version={y._version} {hexes(y)}")
    print("    ", node_line(y))


def cases(x, x3, z0, e, x1):
    return [
        ("x.view(4, 6)", lambda: x.view(4, 6)), ("x.view(-1)", lambda: x.view(-1)),
        ("x.view((2, -1, 3))", lambda: x.view((2, -1, 3))), ("x.view([24])", lambda: x.view([24])),
        ("x.view(x3.shape)", lambda: x.view(x3.shape)), ("x.view(1, 6, 1, 4)", lambda: x.view(1, 6, 1, 4)),
        ("x.t().view(4, 2, 3)", lambda: x.t().view(4, 2, 3)), ("x.t().view(4, 1, 6)", lambda: x.t().view(4, 1, 6)),
        ("x3.transpose(0, 1).view(3, 2, 2, 2)", lambda: x3.transpose(0, 1).view(3, 2, 2, 2)),
        ("x[1:].view(-1)", lambda: x[1:].view(-1)), ("x[:, 1:3].view(6, 2)", lambda: x[:, 1:3].view(6, 2)),
        ("x.reshape(4, 6)", lambda: x.reshape(4, 6)), ("x.reshape(-1)", lambda: x.reshape(-1)),
        ("x.t().reshape(-1)", lambda: x.t().reshape(-1)), ("x.t().reshape(4, 6)", lambda: x.t().reshape(4, 6)),
        ("torch.reshape(x, (3, 8))", lambda: torch.reshape(x, (3, 8))),
        ("torch.reshape(x3, [-1, 4])", lambda: torch.reshape(x3, [-1, 4])),
        ("x.t()", lambda: x.t()), ("torch.t(x)", lambda: torch.t(x)), ("x[0].t()", lambda: x[0].t()),
        ("z0.t()", lambda: z0.t()), ("x.t().t()", lambda: x.t().t()),
        ("x3.transpose(0, 2)", lambda: x3.transpose(0, 2)), ("x3.transpose(-1, 1)", lambda: x3.transpose(-1, 1)),
        ("torch.transpose(x3, 1, -3)", lambda: torch.transpose(x3, 1, -3)), ("x.transpose(1, 1)", lambda: x.transpose(1, 1)),
        ("x3.swapaxes(0, 1)", lambda: x3.swapaxes(0, 1)), ("torch.swapdims(x3, 2, 0)", lambda: torch.swapdims(x3, 2, 0)),
        ("z0.transpose(0, -1)", lambda: z0.transpose(0, -1)),
        ("x.unsqueeze(0)", lambda: x.unsqueeze(0)), ("x.unsqueeze(-1)", lambda: x.unsqueeze(-1)),
        ("x.unsqueeze(1)", lambda: x.unsqueeze(1)), ("torch.unsqueeze(x3, 2)", lambda: torch.unsqueeze(x3, 2)),
        ("x.t().unsqueeze(1)", lambda: x.t().unsqueeze(1)), ("z0.unsqueeze(0)", lambda: z0.unsqueeze(0)),
        ("x[:, 2].unsqueeze(1)", lambda: x[:, 2].unsqueeze(1)),
        ("x3.permute(2, 0, 1)", lambda: x3.permute(2, 0, 1)), ("x3.permute((1, 2, 0))", lambda: x3.permute((1, 2, 0))),
        ("x3.permute([-1, -3, 1])", lambda: x3.permute([-1, -3, 1])),
        ("torch.permute(x3, (0, 2, 1))", lambda: torch.permute(x3, (0, 2, 1))), ("z0.permute(())", lambda: z0.permute(())),
        ("x.unsqueeze(1).squeeze(1)", lambda: x.unsqueeze(1).squeeze(1)), ("x1.squeeze()", lambda: x1.squeeze()),
        ("x1.squeeze(0)", lambda: x1.squeeze(0)), ("x1.squeeze(-1)", lambda: x1.squeeze(-1)),
        ("x1.squeeze(1)", lambda: x1.squeeze(1)), ("torch.squeeze(x1, 2)", lambda: torch.squeeze(x1, 2)),
        ("torch.squeeze(x1)", lambda: torch.squeeze(x1)), ("x1.squeeze(None)", lambda: x1.squeeze(None)),
        ("z0.squeeze()", lambda: z0.squeeze()), ("z0.squeeze(0)", lambda: z0.squeeze(0)), ("e.squeeze()", lambda: e.squeeze()),
        ("x1.squeeze(dim=0)", lambda: x1.squeeze(dim=0)), ("x1.squeeze(np.int64(0))", lambda: x1.squeeze(np.int64(0))),
        ("x1.squeeze((0, 2))", lambda: x1.squeeze((0, 2))),
        ("e.view(0, 5)", lambda: e.view(0, 5)), ("e.view(-1, 2)", lambda: e.view(-1, 2)),
        ("e.reshape(5, 0)", lambda: e.reshape(5, 0)), ("e.t()", lambda: e.t()), ("e.unsqueeze(2)", lambda: e.unsqueeze(2)),
        ("z0.view(1, 1)", lambda: z0.view(1, 1)), ("z0.reshape(-1)", lambda: z0.reshape(-1)),
        # arguments the Python path converts (the fast path leaves them to it)
        ("x.view(np.int64(4), 6)", lambda: x.view(np.int64(4), 6)), ("x.view(4, torch.tensor(6))", lambda: x.view(4, torch.tensor(6))),
        ("x.transpose(np.int64(0), 1)", lambda: x.transpose(np.int64(0), 1)),
        ("x.unsqueeze(dim=0)", lambda: x.unsqueeze(dim=0)), ("x.transpose(dim0=0, dim1=1)", lambda: x.transpose(dim0=0, dim1=1)),
        ("x.view(torch.float32)", lambda: x.view(torch.float32)),
        # select and narrow (C++ without autograd, shape.py's nodes with it)
        ("x.select(0, 2)", lambda: x.select(0, 2)), ("x.select(1, -1)", lambda: x.select(1, -1)),
        ("torch.select(x3, -2, 1)", lambda: torch.select(x3, -2, 1)), ("x.t().select(0, 3)", lambda: x.t().select(0, 3)),
        ("x[1:].select(0, 0)", lambda: x[1:].select(0, 0)), ("e.select(1, 4)", lambda: e.select(1, 4)),
        ("x.narrow(0, 1, 3)", lambda: x.narrow(0, 1, 3)), ("x.narrow(1, -2, 2)", lambda: x.narrow(1, -2, 2)),
        ("x.narrow(0, 6, 0)", lambda: x.narrow(0, 6, 0)), ("torch.narrow(x3, 2, 0, 4)", lambda: torch.narrow(x3, 2, 0, 4)),
        ("x.t().narrow(1, 2, 3)", lambda: x.t().narrow(1, 2, 3)), ("e.narrow(0, 0, 0)", lambda: e.narrow(0, 0, 0)),
        ("x.narrow(0, torch.tensor(1), 2)", lambda: x.narrow(0, torch.tensor(1), 2)),
        ("x.select(np.int64(0), 1)", lambda: x.select(np.int64(0), 1)), ("x.select(dim=1, index=0)", lambda: x.select(dim=1, index=0)),
        # subscripts by one int or one slice (C++ without autograd, subscript.py with it or for other indices)
        ("x[2]", lambda: x[2]), ("x[-1]", lambda: x[-1]), ("x[1:4]", lambda: x[1:4]), ("x[::2]", lambda: x[::2]),
        ("x[5:1]", lambda: x[5:1]), ("x[-100:100]", lambda: x[-100:100]), ("x[-3:]", lambda: x[-3:]),
        ("x.t()[1]", lambda: x.t()[1]), ("x3[1][2]", lambda: x3[1][2]), ("x3[1:][:, 1:2]", lambda: x3[1:][:, 1:2]),
        ("e[0:0]", lambda: e[0:0]), ("e[1:]", lambda: e[1:]), ("x[np.int64(1)]", lambda: x[np.int64(1)]),
        ("x[1:np.int64(3)]", lambda: x[1:np.int64(3)]), ("x[None]", lambda: x[None]), ("x[...]", lambda: x[...]),
        ("x[2 ** 70:]", lambda: x[2 ** 70:]), ("x[:-2 ** 70]", lambda: x[:-2 ** 70]),
        # strided gradients into select / slice backward (shape.py _embed_grad, fast_make.cpp fast_embed_grad)
        ("x[1:4].t()", lambda: x[1:4].t()), ("x3[:, 1].t()", lambda: x3[:, 1].t()),
        ("x3[1, :, ::3].t()", lambda: x3[1, :, ::3].t()), ("x3.transpose(0, 2)[1]", lambda: x3.transpose(0, 2)[1]),
        # unbind's gradient: all pieces, one piece, strided pieces (fast_make.cpp fast_unbind_grad)
        ("torch.stack(x3.unbind(1)[::-1], 2)", lambda: torch.stack(x3.unbind(1)[::-1], 2)),
        ("x3.unbind(2)[1]", lambda: x3.unbind(2)[1]), ("x.unbind(1)[0].unsqueeze(1).t()", lambda: x.unbind(1)[0].unsqueeze(1).t()),
        ("x3.unbind(0)[1].t() * 2", lambda: x3.unbind(0)[1].t() * 2),
    ]


ERRORS = [
    ("x.view(5, -1)", lambda x, x3: x.view(5, -1)), ("x.view(-1, -1)", lambda x, x3: x.view(-1, -1)),
    ("x.view(-2, 12)", lambda x, x3: x.view(-2, 12)), ("x.view(5, 5)", lambda x, x3: x.view(5, 5)),
    ("x.t().view(-1)", lambda x, x3: x.t().view(-1)), ("x.view(2, 'a')", lambda x, x3: x.view(2, "a")),
    ("x.view(2 ** 40, 2 ** 40)", lambda x, x3: x.view(2 ** 40, 2 ** 40)), ("x.view(0, -1)", lambda x, x3: x.view(0, -1)),
    ("x.reshape(7, -1)", lambda x, x3: x.reshape(7, -1)), ("torch.reshape(x, (5,))", lambda x, x3: torch.reshape(x, (5,))),
    ("x3.t()", lambda x, x3: x3.t()), ("x.transpose(0, 2)", lambda x, x3: x.transpose(0, 2)),
    ("x.transpose(-3, 0)", lambda x, x3: x.transpose(-3, 0)), ("x.transpose(0)", lambda x, x3: x.transpose(0)),
    ("x.unsqueeze(3)", lambda x, x3: x.unsqueeze(3)), ("x.unsqueeze(-4)", lambda x, x3: x.unsqueeze(-4)),
    ("x.unsqueeze(1.0)", lambda x, x3: x.unsqueeze(1.0)), ("x.unsqueeze()", lambda x, x3: x.unsqueeze()),
    ("x3.permute(0, 1)", lambda x, x3: x3.permute(0, 1)), ("x3.permute(0, 1, 1)", lambda x, x3: x3.permute(0, 1, 1)),
    ("x3.permute(0, 1, 3)", lambda x, x3: x3.permute(0, 1, 3)), ("x3.permute()", lambda x, x3: x3.permute()),
    ("x.squeeze(2)", lambda x, x3: x.squeeze(2)), ("x.squeeze(1.0)", lambda x, x3: x.squeeze(1.0)),
    ("torch.t(3)", lambda x, x3: torch.t(3)), ("x.transpose(0, True)", lambda x, x3: x.transpose(0, True)),
    ("x.select(0, 6)", lambda x, x3: x.select(0, 6)), ("x.select(1, -5)", lambda x, x3: x.select(1, -5)),
    ("x.select(2, 0)", lambda x, x3: x.select(2, 0)), ("x.sum().select(0, 0)", lambda x, x3: x.sum().select(0, 0)),
    ("x.narrow(0, 5, 2)", lambda x, x3: x.narrow(0, 5, 2)), ("x.narrow(0, 7, 0)", lambda x, x3: x.narrow(0, 7, 0)),
    ("x.narrow(1, 0, -1)", lambda x, x3: x.narrow(1, 0, -1)), ("x.narrow(0, -7, 1)", lambda x, x3: x.narrow(0, -7, 1)),
    ("x.sum().narrow(0, 0, 1)", lambda x, x3: x.sum().narrow(0, 0, 1)),
    ("x[6]", lambda x, x3: x[6]), ("x[-7]", lambda x, x3: x[-7]), ("x.sum()[0]", lambda x, x3: x.sum()[0]),
    ("x.sum()[1:]", lambda x, x3: x.sum()[1:]), ("x[::0]", lambda x, x3: x[::0]), ("x[::-1]", lambda x, x3: x[::-1]),
    ("x[1.5]", lambda x, x3: x[1.5]), ("x['a':]", lambda x, x3: x["a":]), ("x[2 ** 70]", lambda x, x3: x[2 ** 70]),
]


def run(dev):
    torch.manual_seed(0)
    for grad in (True, False):
        x = torch.randn(6, 4, device=dev, requires_grad=grad)
        x3 = torch.randn(2, 3, 4, device=dev, requires_grad=grad)
        z0 = torch.randn((), device=dev, requires_grad=grad)
        e = torch.randn(0, 5, device=dev, requires_grad=grad)
        x1 = torch.randn(1, 3, 1, 2, device=dev, requires_grad=grad)
        names = {id(x): "x", id(x3): "x3", id(z0): "z0", id(e): "e", id(x1): "x1"}
        print(dev, "requires_grad" if grad else "plain")
        for label, fn in cases(x, x3, z0, e, x1):
            for t in (x, x3, z0, e, x1):
                t.grad = None
            before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
            y = fn()
            after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
            describe(label + f" +{after - before}B", y, names)
            if y.requires_grad and y.numel():
                (y * torch.arange(y.numel(), device=dev, dtype=y.dtype).view(y.shape)).sum().backward()
                print("    grads", [f"{n}:{hexes(t.grad)}" for n, t in names_of(x, x3, z0, e, x1) if t.grad is not None])
        with torch.no_grad():
            v = x.view(4, 6)
            print("  no_grad view", node_line(v), v.requires_grad, v._base is x)
        # a view's writes reach its base and share its version counter
        p = torch.randn(3, 4, device=dev)
        v = p.t()
        u = v.unsqueeze(0)
        u.mul_(2)
        print("  versions", p._version, v._version, u._version, u._base is p, v._base is p, hexes(p))
        # views of a parameter are plain tensors whose base is the parameter
        w = torch.nn.Parameter(torch.randn(2, 3, device=dev))
        for y in (w.t(), w.view(3, 2), w.reshape(-1), w.unsqueeze(0), w.permute(1, 0), w.transpose(0, 1),
                  w.unsqueeze(1).squeeze(1), w.unsqueeze(2).squeeze()):
            print("  param view", type(y).__name__, y._base is w, node_line(y))
        # in-place on a view of a leaf that requires grad, through the view's history
        a = torch.randn(2, 3, device=dev, requires_grad=True)
        b = a * 1
        c = b.view(3, 2)
        c.add_(1)
        print("  inplace on view", node_line(b), node_line(c))
        b.sum().backward()
        print("  inplace grads", hexes(a.grad))
    for label, fn in ERRORS:
        try:
            fn(x, x3)
            print(dev, label, "no error")
        except Exception as err:  # noqa: BLE001 (the type and words are what is compared)
            print(dev, label, type(err).__name__, err)


def names_of(x, x3, z0, e, x1):
    return (("x", x), ("x3", x3), ("z0", z0), ("e", e), ("x1", x1))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()
