# What the backward engine decides, printed so that the C++ loop (bindings_autograd.cpp) and the Python reference
# (DEVICESCOPE_PY_AUTOGRAD=1) can be held to the same output by tests/tools/run_autograd_engine_agreement.py:
# gradients to the last bit, hook calls and their order, retain_grad, retain_graph / create_graph, autograd.grad's
# capture, backward(inputs=...), the errors' words, grad mode afterwards, and the allocator's trace on two
# simulated GPUs (every alloc and free, address and size, in order), which shows when each gradient buffer is
# allocated, accumulated in place and freed.
import sys

import torch
import torch.nn as nn
import torch.utils.checkpoint as checkpoint
from torch.autograd import graph

print("engine:", "python" if graph._PY_ENGINE else "C++")


def hexes(t):
    return "None" if t is None else " ".join(float(v).hex() for v in t.detach().reshape(-1).tolist())


def show(label, *ts):
    for i, t in enumerate(ts):
        print(f"{label}[{i}]", hexes(t))


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # the engine's errors: PyTorch's words
        print(label, type(e).__name__, str(e)[:300])
    print(label, "grad enabled after:", torch.is_grad_enabled())


def mlp(dev):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(8, 20, device=dev)
    y = torch.randint(0, 5, (8,), device=dev)
    for _ in range(3):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    show(f"{dev} mlp", *model.parameters())


def shared_and_hooks(dev):
    torch.manual_seed(1)
    x = torch.randn(4, 3, device=dev, requires_grad=True)
    w = torch.randn(3, 3, device=dev, requires_grad=True)
    calls = []
    h = x @ w
    h.retain_grad()
    h.register_hook(lambda g: calls.append(("h", hexes(g))) or g * 2)
    x.register_hook(lambda g: calls.append(("x", hexes(g))))
    w.register_post_accumulate_grad_hook(lambda p: calls.append(("w post", hexes(p.grad))))
    a, b = h.chunk(2, dim=1)[0], h.unbind(0)[1]  # multi-output nodes, some outputs without gradient
    loss = (h * h).sum() + a.sum() + (b * x[0]).sum() + x.sum()  # x reaches the loss four ways: accumulated
    loss.backward()
    for c in calls:
        print(dev, "hook", *c)
    show(f"{dev} shared", x.grad, w.grad, h.grad)


def retain_and_create(dev):
    torch.manual_seed(2)
    x = torch.randn(5, device=dev, requires_grad=True)
    y = (x.sin() * x).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    show(f"{dev} twice", x.grad)
    y.backward()
    attempt(f"{dev} third", lambda: y.backward())
    x.grad = None
    z = (x ** 3).sum()
    (g,) = torch.autograd.grad(z, x, create_graph=True)
    (g * g).sum().backward()
    show(f"{dev} double", g, x.grad)
    u = x.exp()
    v = (u * 3).sum()
    gu, gx = torch.autograd.grad(v, [u, x], retain_graph=True)
    show(f"{dev} grad", gu, gx)
    unused = torch.randn(2, device=dev, requires_grad=True)
    print(dev, "unused", torch.autograd.grad(v, [x, unused], allow_unused=True)[1])
    w = torch.randn(5, device=dev, requires_grad=True)
    x.grad = None
    (x * w).sum().backward(inputs=[w])
    show(f"{dev} inputs", x.grad, w.grad)


def errors(dev):
    x = torch.randn(3, device=dev, requires_grad=True)
    y = x.exp()
    y.add_(1)
    attempt(f"{dev} inplace", lambda: y.sum().backward())
    z = x * 2

    def bad(g):
        raise ValueError("hook says no")

    z.register_hook(bad)
    attempt(f"{dev} hook error", lambda: z.sum().backward())
    with torch.no_grad():
        attempt(f"{dev} no_grad backward", lambda: (x * x).sum().backward())
    print(dev, "no_grad still off:", not torch.is_grad_enabled())


def layouts_and_functions(dev):
    torch.manual_seed(3)
    w = torch.randn(4, 6, device=dev).t().requires_grad_()  # a transposed leaf: .grad keeps its strides
    e = torch.randn(1, 6, device=dev, requires_grad=True)
    out = (w * e.expand(4, 6).t()).sum() + w.t().contiguous()[1].sum()
    out.backward()
    print(dev, "strides", w.grad.stride(), e.grad.stride())
    show(f"{dev} layout", w.grad, e.grad)

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    a = torch.randn(3, device=dev, requires_grad=True)
    Square.apply(a).sum().backward()
    show(f"{dev} function", a.grad)
    lin = nn.Linear(6, 6).to(dev)
    inp = torch.randn(2, 6, device=dev, requires_grad=True)
    checkpoint.checkpoint(lambda t: lin(t).relu(), inp, use_reentrant=False).sum().backward()
    show(f"{dev} checkpoint", inp.grad, lin.weight.grad)
    # Freed here, without the collector: the non-reentrant checkpoint's frame and nodes hold each other weakly (a
    # reference cycle once kept lin and inp, 3 KiB of device memory, until the collector ran, at a moment that
    # differed between the engines).
    del lin, inp


def lstm(dev):
    torch.manual_seed(4)
    cell = nn.LSTM(6, 8).to(dev)
    seq = torch.randn(5, 2, 6, device=dev)
    out, _ = cell(seq)
    out.pow(2).mean().backward()
    show(f"{dev} lstm", *cell.parameters())


def two_devices():
    torch.manual_seed(5)
    a = torch.randn(3, 3, device="cuda:0", requires_grad=True)
    b = torch.randn(3, 3, device="cuda:1", requires_grad=True)
    c = (a @ a).to("cuda:1") * b
    (c.sum() + c.to("cpu").mean()).backward()
    show("two devices", a.grad, b.grad)


class Observer:
    """graph._observer (what `devicescope estimate` installs): the order nodes run in, and the exception a
    backward ends with as its `finally` sees it."""

    def __init__(self):
        self.log = []

    def backward_begin(self):
        self.log.append("begin")

    def node(self, n):
        self.log.append(type(n).__name__)

    def backward_end(self):
        self.log.append("end " + repr(sys.exc_info()[0]))


def observed(dev):
    torch.manual_seed(6)
    graph._observer = obs = Observer()
    try:
        x = torch.randn(3, 2, device=dev, requires_grad=True)
        y = torch.randn(2, 2, device=dev, requires_grad=True)
        ((x @ y).relu() + x[:, :1] * 2).tanh().sum().backward()
        z = x.exp()
        z.add_(1)
        attempt(f"{dev} observed inplace", lambda: z.sum().backward())
    finally:
        graph._observer = None
    print(dev, "observer", " ".join(obs.log))

    # a node's input buffer accumulated in place over strided gradients (InputBuffer::accumulate's add_, done in C++
    # by bindings_autograd.cpp add_into): a transposed gradient stored first, then contiguous, sliced and transposed
    # ones added into it; float32 and float64
    for dt in (torch.float32, torch.float64):
        torch.manual_seed(4)
        x = torch.randn(3, 4, device=dev, dtype=dt, requires_grad=True)
        c = torch.randn(4, 3, device=dev, dtype=dt)
        wide = torch.randn(3, 8, device=dev, dtype=dt)
        y = x * 2
        out = (y * c.t()).sum() + (y * wide[:, ::2]).sum() + (y.t() * c).sum() + (y.t() * c * 3).sum()
        out.backward()
        show(f"{dev} {dt} strided accumulation", x.grad)
        print(dev, dt, "strides", x.grad.stride())


torch.cuda.memory._record_memory_history(max_entries=200000)
for dev in ("cpu", "cuda"):
    observed(dev)
    mlp(dev)
    shared_and_hooks(dev)
    retain_and_create(dev)
    errors(dev)
    layouts_and_functions(dev)
    lstm(dev)
two_devices()
snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    blocks = {}  # addresses by first use: the simulated device's base address changes from run to run
    events = [f"{e['action']}:b{blocks.setdefault(e['addr'], len(blocks))}:{e['size']}" for e in trace
              if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 8):
        print("  " + " ".join(events[k:k + 8]))
