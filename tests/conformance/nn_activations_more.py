# The activations beyond relu/gelu/elu (mish, selu, celu, softsign, prelu, glu, softmin, hardswish, hardsigmoid,
# tanhshrink, softshrink, hardshrink, threshold, rrelu, LogSigmoid, Softmax2d) against real PyTorch: values and
# gradients (rounded), grad_fn names and what the nodes save, the values at the kinks (+-3 for hardsigmoid /
# hardswish, +-lambd for the shrinks, the threshold), rrelu's draws from the seeded CPU generator, module
# reprs / constructor arguments, and the argument errors.
# Left out (1.13 vs 2.x): prelu's node (1.13 PreluBackward0 on the weight itself; 2.x PreluKernelBackward0 on a
# view of it), prelu's dtype error wording, Softmax2d's error (1.13 assert, 2.x ValueError).
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.detach().flatten().tolist()]


def saved(fn):
    out = []
    # a negative dim saved on a node prints unsigned in 1.13 (README): dims are printed on their own below
    for name in sorted(a for a in dir(fn) if a.startswith("_saved_") and a != "_saved_dim"):
        v = getattr(fn, name)
        out.append((name, tuple(v.shape) if isinstance(v, torch.Tensor) else (round(v, 6) if isinstance(v, float)
                                                                               else v)))
    return out


def check(name, f, x):
    x = x.clone().requires_grad_(True)
    y = f(x)
    info = saved(y.grad_fn)
    y.backward(torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape))
    print(name, type(y.grad_fn).__name__, info, r(y), "grad", r(x.grad))


edges = torch.tensor([-4.0, -3.0, -2.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.5, 3.0, 4.0, 25.0])
torch.manual_seed(0)
rand = torch.randn(3, 4)
for x in (edges, rand):
    check("mish", F.mish, x)
    check("selu", F.selu, x)
    check("celu", F.celu, x)
    check("celu2", lambda t: F.celu(t, 2.0), x)
    check("softsign", F.softsign, x)
    check("hardswish", F.hardswish, x)
    check("hardsigmoid", F.hardsigmoid, x)
    check("tanhshrink", F.tanhshrink, x)
    check("softshrink", F.softshrink, x)
    check("softshrink1", lambda t: F.softshrink(t, 1.0), x)
    check("hardshrink", F.hardshrink, x)
    check("hardshrink_neg", lambda t: F.hardshrink(t, -1.0), x)
    check("threshold", lambda t: F.threshold(t, 0.5, -2.0), x)
    check("rrelu_eval", F.rrelu, x)
    check("logsigmoid", nn.LogSigmoid(), x)
    check("torch.selu", torch.selu, x)
    check("torch.celu", torch.celu, x)
    check("torch.hardshrink", torch.hardshrink, x)

# float64 keeps its precision
check("mish64", F.mish, rand.double() * 3)
check("selu64", F.selu, rand.double() * 3)

# glu / softmin / Softmax2d
g = torch.arange(24.0).reshape(2, 4, 3) / 10 - 1
check("glu_dim1", lambda t: F.glu(t, 1), g)
print(F.glu(g.requires_grad_(), 1).grad_fn._saved_dim, F.softmin(g, 1).grad_fn._saved_dim)
g = g.detach()
check("glu_last", lambda t: F.glu(t.transpose(1, 2)), g)
check("GLU(0)", nn.GLU(0), torch.randn(4, 3))
check("softmin", lambda t: F.softmin(t, 1), g)
check("Softmin(-1)", nn.Softmin(-1), g)
check("softmin_dtype", lambda t: F.softmin(t, 0, dtype=torch.float64), g)
check("Softmax2d", nn.Softmax2d(), g.reshape(1, 2, 4, 3))
check("Softmax2d3d", nn.Softmax2d(), g)

# prelu: values and gradients of input and weight
for shape, w in (((2, 3, 4), torch.tensor([0.1, 0.2, 0.3])), ((2, 3), torch.tensor([0.25])),
                 ((5,), torch.tensor([0.5])), ((2, 3, 2, 2), torch.tensor([-0.5, 0.0, 2.0]))):
    x = torch.randn(*shape, requires_grad=True)
    wt = w.clone().requires_grad_(True)
    y = F.prelu(x, wt)
    y.backward(torch.ones_like(y) * 0.5)
    print("prelu", shape, r(y), r(x.grad), r(wt.grad))
m = nn.PReLU(3, init=0.1)
print(m, m.weight, m.num_parameters, [n for n, _ in m.named_parameters()])
y = m(torch.randn(2, 3))
y.sum().backward()
print(r(m.weight.grad), nn.PReLU(), nn.PReLU().weight.shape)

# rrelu in training draws from the CPU generator: same noise as PyTorch, bit for bit
torch.manual_seed(3)
x = torch.randn(4, 5, requires_grad=True)
y = F.rrelu(x, training=True)
fn = y.grad_fn
info, noise = saved(fn), r(fn._saved_noise)
y.backward(torch.ones_like(y))
print("rrelu_train", type(fn).__name__, info, r(y), r(x.grad), noise)
print("after draws", torch.rand(2).tolist())
torch.manual_seed(3)
x64 = torch.randn(6, dtype=torch.float64)
print("rrelu64", r(F.rrelu(x64, 0.1, 0.9, training=True)), torch.rand(1).tolist())
m = nn.RReLU(0.2, 0.4)
torch.manual_seed(5)
xa = torch.randn(8)
print("RReLU train", r(m(xa)), "eval", r(m.eval()(xa)))
print(r(torch.rrelu(xa)), r(F.rrelu(xa, 0.0, 0.0, training=True)))

# in-place forms change the input
for f in (lambda t: F.selu(t, inplace=True), torch.selu_, lambda t: F.celu(t, 0.5, inplace=True),
          lambda t: F.threshold(t, 0.0, 9.0, inplace=True), F.threshold_ if hasattr(F, "threshold_") else None,
          lambda t: F.hardswish(t, inplace=True), lambda t: F.hardsigmoid(t, inplace=True),
          lambda t: F.mish(t, inplace=True), lambda t: F.rrelu(t, inplace=True)):
    if f is None:
        continue
    t = torch.linspace(-2, 2, 5)
    out = f(t) if f is not F.threshold_ else f(t, 0.0, 9.0)
    print("inplace", out is t, r(t))

# in place on a tensor with history: one node on the old edge - the Backward1 form that saves the result
# (selu_, celu_, elu_, leaky_relu_, rrelu_) or the Backward0 form with a saved clone of self (hardswish_,
# hardsigmoid_, mish_, silu_, hardtanh_, threshold_'s ThresholdBackward1)
inplace_ops = [("selu_", lambda t: F.selu(t, inplace=True)), ("celu_", lambda t: F.celu(t, 0.5, inplace=True)),
               ("elu_", lambda t: F.elu(t, inplace=True)), ("leaky_relu_", lambda t: F.leaky_relu(t, 0.2, True)),
               ("rrelu_", lambda t: F.rrelu(t, inplace=True)), ("hardswish_", lambda t: F.hardswish(t, True)),
               ("hardsigmoid_", lambda t: F.hardsigmoid(t, True)), ("mish_", lambda t: F.mish(t, True)),
               ("silu_", lambda t: F.silu(t, True)), ("hardtanh_", lambda t: F.hardtanh(t, -0.5, 0.5, True)),
               ("threshold_", lambda t: F.threshold(t, 0.1, 2.0, True)), ("nn.SELU(True)", nn.SELU(True))]
for name, f in inplace_ops:
    x = torch.linspace(-3, 3, 7, requires_grad=True)
    h = x * 1.5
    y = f(h)
    fn = y.grad_fn
    info = (y is h, type(fn).__name__, saved(fn), [type(n[0]).__name__ for n in fn.next_functions])
    (y * torch.arange(1.0, 8.0)).sum().backward()
    print(name, info, r(y), r(x.grad))
torch.manual_seed(7)
x = torch.randn(6, requires_grad=True)
h = x * 1
y = F.rrelu(h, training=True, inplace=True)
y.sum().backward()
print("rrelu_ train", r(y), r(x.grad), torch.rand(1).tolist())

# double backward (create_graph) through the nodes, in place too
for name, f in [("mish", F.mish), ("selu", F.selu), ("celu", F.celu), ("hardswish", F.hardswish),
                ("glu", lambda t: F.glu(t, 0)), ("softplus", F.softplus), ("logsigmoid", F.logsigmoid),
                ("elu_", lambda t: F.elu(t * 1, inplace=True)), ("hardswish_", lambda t: F.hardswish(t * 1, True)),
                ("selu_", lambda t: F.selu(t * 1, True))]:
    x = torch.linspace(-2, 2, 6, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g * torch.arange(6.0, dtype=torch.float64)).sum(), x)
    print("double", name, r(g), r(gg))

# modules: reprs and attributes
mods = [nn.Mish(), nn.Mish(True), nn.SELU(), nn.SELU(inplace=True), nn.CELU(), nn.CELU(2.0, True), nn.Softsign(),
        nn.GLU(), nn.GLU(1), nn.Softmin(), nn.Softmin(dim=2), nn.Hardswish(), nn.Hardsigmoid(), nn.Tanhshrink(),
        nn.Softshrink(), nn.Softshrink(0.3), nn.Hardshrink(), nn.Hardshrink(lambd=1), nn.Threshold(0.1, 20),
        nn.Threshold(0.1, 20.0, inplace=True), nn.RReLU(), nn.RReLU(0.1, 0.3, True), nn.LogSigmoid(),
        nn.Softmax2d(), nn.PReLU(4)]
for m in mods:
    print(repr(m), m.training, list(m.state_dict().keys()))
print(nn.CELU(3.0).alpha, nn.Softshrink(0.3).lambd, nn.Threshold(1, 2).threshold, nn.Threshold(1, 2).value,
      nn.RReLU(0.1, 0.2).lower, nn.RReLU(0.1, 0.2).upper, nn.GLU(2).dim, nn.Softmin(1).dim)
print(nn.Sequential(nn.Linear(3, 4), nn.Mish(), nn.Linear(4, 4), nn.Hardswish(), nn.PReLU()))


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


x = torch.randn(2, 3)
err(lambda: F.glu(x, 1))
err(lambda: F.glu(torch.tensor(1.0)))
err(lambda: F.glu(x, -1))
err(lambda: F.celu(x, 0.0))
err(lambda: F.softshrink(x, -1))
err(lambda: F.softshrink(x, -0.5))
err(lambda: F.prelu(x, torch.ones(4)))
err(lambda: F.prelu(x, torch.ones(2, 3)))
err(lambda: F.prelu(torch.tensor(1.0), torch.ones(3)))
err(lambda: F.rrelu(x, 0.5, 0.1))
err(lambda: nn.GLU()(torch.randn(3)))

# hardtanh / relu6 at their bounds and on nan: the gradient is 0 at min_val and max_val, 1 on nan (ATen's
# hardtanh_backward), in place too
xb = torch.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 6.0, 7.0, float("nan")])
for name, f in (("hardtanh", F.hardtanh), ("relu6", F.relu6), ("hardtanh(-0.5, 0.5)", lambda t: F.hardtanh(t, -0.5, 0.5)),
                ("ReLU6(inplace)", lambda t: nn.ReLU6(inplace=True)(t * 1))):
    check(name, f, xb)
