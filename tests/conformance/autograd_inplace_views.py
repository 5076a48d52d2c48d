# In-place ops through views under autograd, and fills, as PyTorch records them: a write through a view rebases
# the base's history (CopySlices over the op's node, the other operands' edges kept) and the view's grad_fn
# becomes AsStridedBackward0, so the base's gradient sees the write; a view of a leaf that requires grad, and the
# views of split/chunk/unbind, refuse in-place ops (tensor_split's slices do not); fill_/zero_/index_fill_ and the
# random fills are nodes of their own (their gradient is zero where they wrote), index_fill exists out of place.
import torch
torch.manual_seed(0)
w = torch.randn(2, 3, requires_grad=True)
def show(label, base, view=None):
    g = base.grad_fn
    print(label, type(g).__name__, [type(n).__name__ if n else None for n, _ in g.next_functions], base._version,
          None if view is None else (type(view.grad_fn).__name__, view._version))
y = w * 1.0
y[0] = 5.0
show("setitem number", y)
y = w * 1.0
y[:, 1] = torch.ones(2)
show("setitem tensor", y)
y = w * 1.0
v = y[0]
v.mul_(2)
show("view mul_", y, v)
y.sum().backward(); print(w.grad.tolist()); w.grad = None
y = w * 1.0
y[1].add_(w[0])
show("view add_", y)
y.sum().backward(); print(w.grad.tolist()); w.grad = None
y = w * 1.0
y.t().relu_()
show("view relu_", y)
y = w * 1.0
z = y.view(6)
z.clamp_(min=0)
show("view clamp_", y, z)
y.sum().backward(); print(w.grad.tolist()); w.grad = None
y = w * 1.0
y[0, :2] = w[1, 1:]
show("setitem requires grad", y)
y.sum().backward(); print(w.grad.tolist()); w.grad = None
y = w * 1.0
y.masked_fill_(y > 0, 0.0)
show("masked_fill_", y)
y = w * 1.0
y[y > 0] = 0
show("bool setitem", y)
y = w * 1.0
y.index_fill_(1, torch.tensor([0]), 2.0)
show("index_fill_", y)
y = w * 1.0
y.fill_(2.0)
show("fill_", y)
y = w * 1.0
y.zero_()
show("zero_", y)
y = w * 1.0
y.copy_(torch.ones(2, 3))
show("copy_", y)
# more view writers
for label, f in [("view masked_fill_", lambda v: v.masked_fill_(v > 0, 0.0)), ("view fill_", lambda v: v.fill_(3.0)),
                 ("view zero_", lambda v: v.zero_()), ("view index_fill_", lambda v: v.index_fill_(0, torch.tensor([1]), 1.0)),
                 ("view addcmul_", lambda v: v.addcmul_(w[1], w[1])), ("view lerp_", lambda v: v.lerp_(w[1], 0.25)),
                 ("view sigmoid_", lambda v: v.sigmoid_()), ("view F.relu inplace", lambda v: torch.nn.functional.relu(v, inplace=True)),
                 ("view F.elu inplace", lambda v: torch.nn.functional.elu(v, inplace=True)),
                 ("view F.leaky_relu inplace", lambda v: torch.nn.functional.leaky_relu(v, 0.1, inplace=True)),
                 ("chunk sigmoid_", None)]:
    y = w * 1.0
    if f is None:
        a, b = y.chunk(2, 0)
        a.sigmoid_(); b.tanh_()
    else:
        f(y[0])
    show(label, y)
    (y * torch.arange(6.).view(2, 3)).sum().backward()
    print("  ", [round(v, 4) for v in w.grad.flatten().tolist()])
    w.grad = None
for e in ["w[0].mul_(2)", "w.view(6).relu_()", "w[0].fill_(1)", "w.t().zero_()", "w[0].masked_fill_(torch.tensor([True, False, True]), 0.0)", "w[:, 1].addcmul_(w[0, :2], w[0, :2])", "w[0].sigmoid_()"]:
    try:
        eval(e)
    except RuntimeError as ex:
        print(e, ex)
with torch.no_grad():
    w[0].mul_(1.0)
print(w.grad_fn, w.requires_grad)
z = torch.zeros(2, 3)
z[0].add_(w[0])
print(type(z.grad_fn).__name__, z.requires_grad)
z.sum().backward(); print(w.grad.tolist())

# ---- multi-output views
w = torch.randn(4, 3, requires_grad=True)
y = w * 1
for e in ["y.chunk(2)", "y.split(2)", "y.split([1, 3])", "y.unbind(0)", "torch.chunk(y, 2, 1)", "y.tensor_split(2)", "torch.split(y, 1, 1)"]:
    outs = eval(e)
    print(e, [type(o.grad_fn).__name__ for o in outs][:2])
    try:
        outs[0].mul_(2)
        print("  ok", type(y.grad_fn).__name__)
    except RuntimeError as ex:
        print("  ", ex)
    y = w * 1
x = torch.zeros(4, 3)
a, b = x.chunk(2)
a.add_(1); print("no grad base ok")
a, b = y.chunk(2)
with torch.no_grad():
    a.mul_(2)
print("no_grad ok")

# ---- fills
w = torch.randn(2, 3, requires_grad=True)
vt = torch.tensor(2.0, requires_grad=True)
def sv(g):
    return sorted((a, (str(getattr(g, a).tolist()) if isinstance(getattr(g, a), torch.Tensor) else repr(getattr(g, a)))) for a in dir(g) if a.startswith("_saved_"))
for e in ["y.fill_(2.0)", "y.fill_(vt)", "y.zero_()", "y.index_fill_(1, torch.tensor([0, 2]), 2.0)", "y.index_fill_(1, torch.tensor([0, 2]), vt)",
          "y.index_fill(1, torch.tensor([0, 2]), 2.0)", "torch.index_fill(y, 1, torch.tensor([1]), vt)", "y.fill_(torch.tensor(3.0))"]:
    y = w * 1.0
    r = eval(e)
    g = r.grad_fn
    print(e, type(g).__name__, [type(n).__name__ if n else None for n, _ in g.next_functions], sv(g), r._version)
    (r * torch.arange(6.).view(2, 3)).sum().backward()
    print("  ", w.grad.tolist(), vt.grad)
    w.grad = None; vt.grad = None
x = torch.zeros(3)
x.fill_(vt)
print(type(x.grad_fn).__name__, x.requires_grad)
# ---- random fills on a tensor with history, copy_ into a view, tensor_split's bounds
w = torch.randn(3, requires_grad=True)
for e in ["uniform_()", "normal_()", "bernoulli_(0.5)", "bernoulli_(torch.full((3,), 0.5))", "random_(0, 5)",
          "random_(5)", "random_()", "exponential_()", "log_normal_()", "geometric_(0.5)", "cauchy_()"]:
    y = w * 1
    r = eval("y." + e)
    print(e, type(r.grad_fn).__name__, len(r.grad_fn.next_functions))
    r.sum().backward()
    print("  ", w.grad.tolist())
    w.grad = None
m = torch.randn(2, 3, requires_grad=True)
y = m * 2
y[1].copy_(m[0] * 3)
print(type(y.grad_fn).__name__, [type(n).__name__ if n else None for n, _ in y.grad_fn.next_functions])
y.sum().backward()
print(m.grad.tolist())
x = torch.arange(10.)
for a in (3, [2, 5], [7, 3], 12):
    print([t.tolist() for t in x.tensor_split(a)])
try:
    x.tensor_split(0)
except RuntimeError as e:
    print(e)
