# The special pointwise ops against real PyTorch: erfc, lgamma, digamma, polygamma, sinc, logit, xlogy, hypot,
# logaddexp, logaddexp2. Values at the edges (+-0, negative integers and non-integers, tiny and huge, +-inf,
# NaN) in float32 and float64 - float32 keeps ATen's float arithmetic (sinc(1.) = sin(pi_f) / pi_f, trigamma(-1.)
# finite) - integer and bool inputs promoted to float, the binary ops' promotion and the Scalar forms of xlogy;
# gradients and second gradients (autograd.grad with create_graph), grad_fn names and what the nodes save, out=
# and in-place forms, torch.special's names, and the argument errors. Values print at 5 significant digits
# (PyTorch's vectorized erfc is within an ulp of the correctly rounded one used here), float32 subnormals as
# "subnormal" (erfc(10.) is 2.09e-45: one subnormal step or two, by rounding), and float32 polygamma(n >= 2)
# at 4: 1.13's differ from 2.x's (its Hurwitz zeta accumulates in double, acc_type) in the last ulp. Left out: half
# inputs (1.13 has no half lgamma/digamma kernels) and xlogy(self=2, other=t) (the keyword of the Scalar form).
import math
import warnings

import torch

EDGE = [0.0, -0.0, -1.0, -2.5, -0.5, 1e-30, 0.5, 1.0, 2.0, 3.0, 10.0, 1e20, float("inf"), float("-inf"),
        float("nan")]


def f(v, digits=5, single=False):
    if v != v:
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if single and 0 < abs(v) < 1.1754943508222875e-38:
        return "subnormal" if v > 0 else "-subnormal"
    return "%.*g" % (digits, v + 0.0)


def r(t, digits=5):
    single = t.dtype == torch.float32
    return " ".join(f(v, digits, single) for v in t.detach().flatten().tolist())


def node(y):
    fn = y.grad_fn
    return (type(fn).__name__ if fn is not None else None,
            sorted(a for a in dir(fn) if a.startswith("_saved_")) if fn is not None else [])


def err(label, fn):
    try:
        fn()
        print(label, "no error")
    except (RuntimeError, TypeError, AttributeError) as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


UNARY = ["erfc", "lgamma", "digamma", "sinc", "logit"]

# ---------------------------------------------------------------- values and dtypes
for dt in (torch.float32, torch.float64):
    e = torch.tensor(EDGE, dtype=dt)
    for name in UNARY:
        y = getattr(torch, name)(e)
        print(name, dt, y.dtype, r(y))
    for n in range(5):
        print("polygamma", n, dt, r(torch.polygamma(n, e), 4 if n >= 2 and dt is torch.float32 else 5))
    p = torch.tensor([0.0, -0.0, 0.25, 0.5, 0.999, 1.0, 1.5, -1.0, float("nan")], dtype=dt)
    print("logit eps", dt, r(torch.logit(p, 0.01)), r(torch.logit(p, eps=0.3)), r(torch.logit(p, -0.2)))

for dt in (torch.int64, torch.int32, torch.uint8, torch.bool):
    i = torch.tensor([0, 1, 2, 3, 5], dtype=dt) if dt is not torch.bool else torch.tensor([True, False])
    for name in UNARY:
        y = getattr(torch, name)(i)
        print(name, dt, y.dtype, r(y))
    print("polygamma", dt, [r(torch.polygamma(n, i)) for n in (0, 1, 2)], torch.polygamma(2, i).dtype)
print("negative ints", r(torch.digamma(torch.tensor([-1, -2, -3]))), r(torch.lgamma(torch.tensor([-1, -4]))),
      r(torch.polygamma(1, torch.tensor([-1, -2]))), r(torch.polygamma(3, torch.tensor([-1, -2]))))

a = torch.tensor([[0.0, 0.5, 2.0, -1.0], [3.0, float("nan"), float("inf"), -float("inf")]])
b = torch.tensor([0.0, 2.0, float("nan"), -float("inf")])
for name in ("xlogy", "hypot", "logaddexp", "logaddexp2"):
    fn = getattr(torch, name)
    print(name, r(fn(a, b)), r(fn(b, a)), r(fn(a.double(), b)), fn(a.double(), b).dtype,
          fn(torch.tensor(1.0, dtype=torch.float64), b).dtype)
    print(name, "int + float", fn(torch.tensor([1, 2]), torch.tensor([0.5, 4.0])).dtype,
          r(fn(torch.tensor([1, 2]), torch.tensor([0.5, 4.0]))))
inf = float("inf")
print("logaddexp infs", r(torch.logaddexp(torch.tensor([inf, -inf, inf, -inf]), torch.tensor([inf, -inf, -inf, 1.0]))),
      r(torch.logaddexp2(torch.tensor([inf, -inf, inf, -inf]), torch.tensor([inf, -inf, -inf, 1.0]))))
i = torch.tensor([0, 1, 2, -1])
print("xlogy ints", torch.xlogy(i, i).dtype, r(torch.xlogy(i, i)), r(torch.xlogy(i, torch.tensor([True]))),
      r(torch.xlogy(torch.tensor([True, False]), torch.tensor([True, False]))))
print("xlogy scalars", r(torch.xlogy(2, b)), r(torch.xlogy(a, 3)), r(torch.xlogy(0, b)), r(torch.xlogy(a, 0.5)),
      torch.xlogy(2, i).dtype, torch.xlogy(i, 2.5).dtype)
print("methods", r(a.xlogy(b)), r(a.xlogy(2)), r(a.hypot(b)), r(a.logaddexp(b)), r(a.logaddexp2(b)),
      r(a.erfc()), r(a.lgamma()), r(a.digamma()), r(a.polygamma(2)), r(a.sinc()), r(a.logit()), r(a.logit(0.1)))

# ---------------------------------------------------------------- gradients, second gradients, nodes
x = torch.tensor([0.5, 2.0, 1.5, -0.75], requires_grad=True)
y = torch.tensor([1.5, 3.0, 0.25, 2.0], requires_grad=True)
w = torch.tensor([1.0, -2.0, 0.5, 3.0])
for name, fn in [("erfc", torch.erfc), ("lgamma", torch.lgamma), ("digamma", torch.digamma), ("sinc", torch.sinc),
                 ("logit", lambda t: torch.logit(t * 0.25 + 0.3)), ("logit eps", lambda t: torch.logit(t * 0.3, 0.2)),
                 ("polygamma1", lambda t: torch.polygamma(1, t)), ("polygamma2", lambda t: torch.polygamma(2, t)),
                 ("polygamma3", lambda t: t.polygamma(3))]:
    out = fn(x)
    g, = torch.autograd.grad((out * w).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g * w).sum(), x)
    print("grad", name, node(out), r(g), r(gg), node(g)[0])
for name in ("xlogy", "hypot", "logaddexp", "logaddexp2"):
    fn = getattr(torch, name)
    out = fn(x, y)
    gx, gy = torch.autograd.grad((out * w).sum(), (x, y), create_graph=True)
    ggx, ggy = torch.autograd.grad((gx * w).sum() + (gy * gy).sum(), (x, y))
    print("grad", name, node(out), r(gx), r(gy), r(ggx), r(ggy))
print("saved", torch.polygamma(2, x).grad_fn._saved_n, torch.logit(x, 0.1).grad_fn._saved_eps,
      torch.logit(x).grad_fn._saved_eps, torch.logit(x, 0).grad_fn._saved_eps,
      torch.xlogy(2, y).grad_fn._saved_self, torch.xlogy(x, 3).grad_fn._saved_other,
      torch.erfc(x).grad_fn._saved_self is x)
h = torch.hypot(x, y.detach())
print("hypot saves", h.grad_fn._saved_other, h.grad_fn._saved_self is x, r(h.grad_fn._saved_result))
h = torch.hypot(x.detach(), y)
print("hypot saves", h.grad_fn._saved_self, h.grad_fn._saved_other is y)
z = torch.xlogy(x.detach(), y)
print("xlogy saves", r(z.grad_fn._saved_self), z.grad_fn._saved_other is y)
print("scalar forms", node(torch.xlogy(2, y)), node(torch.xlogy(x, 3)), node(torch.xlogy(x, torch.tensor(3.0))))
print("xlogy scalar grads", r(torch.autograd.grad(torch.xlogy(2, y).sum(), y)[0]),
      r(torch.autograd.grad(torch.xlogy(x, 3).sum(), x)[0]))
xz = torch.tensor([0.0, 1.0, 0.0, 2.0], requires_grad=True)
print("xlogy at 0", r(torch.autograd.grad(torch.xlogy(xz, torch.tensor([-1.0, 2.0, 0.0, -1.0])).sum(), xz)[0]),
      r(torch.autograd.grad(torch.xlogy(xz, -1.0).sum(), xz)[0]),
      r(torch.autograd.grad(torch.xlogy(xz, 0).sum(), xz)[0]))
print("hypot broadcast", [r(t) for t in torch.autograd.grad(torch.hypot(x, y[:1]).sum(), (x, y))])
edge = torch.tensor([0.0, 1.0, -0.5, 1.5, 0.05, float("nan")], requires_grad=True)
for eps in (None, 0.1):
    g0, = torch.autograd.grad(torch.logit(edge, eps).sum(), edge)
    print("logit edge grads", eps, r(g0))
print("sinc grad at 0", r(torch.autograd.grad(torch.sinc(edge).sum(), edge)[0]))
iv = torch.tensor([1.0, 2.0, -1.0, 0.0], requires_grad=True)
print("poles", [r(torch.autograd.grad(fn(iv).sum(), iv)[0]) for fn in (torch.lgamma, torch.digamma, torch.erfc)])

# ---------------------------------------------------------------- in place and out=
for name in ("erfc", "lgamma", "digamma", "sinc", "logit"):
    t = torch.tensor([0.25, 0.5, 3.0])
    res = getattr(t, name + "_")()
    print("inplace", name, res is t, r(t))
    err("inplace int " + name, lambda: getattr(torch.tensor([1, 2]), name + "_")())
t = torch.tensor([0.25, 0.5, 3.0])
print("inplace more", t.polygamma_(2) is t, r(t), r(torch.tensor([0.2, 0.6]).logit_(0.3)),
      r(torch.tensor([1.0, 2.0]).xlogy_(torch.tensor([3.0, 0.0]))), r(torch.tensor([1.0, 2.0]).xlogy_(3)),
      r(torch.tensor([3.0, 5.0]).hypot_(torch.tensor([4.0, 12.0]))))
t = torch.tensor([0.25, 0.5])
print("torch inplace", torch.erfc_(t) is t, r(t), r(torch.sinc_(torch.tensor([0.5, 1.5]))),
      r(torch.logit_(torch.tensor([0.25]), 0.3)), r(torch.xlogy_(torch.tensor([2.0]), torch.tensor([3.0]))))
print("no torch inplace", hasattr(torch, "lgamma_"), hasattr(torch, "digamma_"), hasattr(torch, "hypot_"),
      hasattr(torch, "logaddexp_"), hasattr(torch.Tensor, "logaddexp_"), hasattr(torch.Tensor, "logaddexp2_"))
leaf = torch.tensor([0.5, 2.0], requires_grad=True)
v = leaf * 1
v.erfc_()
print("inplace grad", node(v), r(torch.autograd.grad(v.sum(), leaf)[0]))
v = leaf * 1
v.polygamma_(1)
print("inplace grad", node(v), v.grad_fn._saved_n, r(torch.autograd.grad(v.sum(), leaf)[0]))
v = leaf * 1
v.xlogy_(3.0)
print("inplace grad", node(v), r(torch.autograd.grad(v.sum(), leaf)[0]))
v = leaf * 1
v.hypot_(torch.tensor([1.0, 1.0]))
print("inplace grad", node(v), r(torch.autograd.grad(v.sum(), leaf)[0]))
err("leaf inplace", lambda: leaf.digamma_())
# in place on a saved input: the node continues the old history (next: MulBackward0) and saves original_self, a
# clone taken with autograd (CloneBackward0), which create_graph differentiates through
for name in ("erfc_", "lgamma_", "digamma_", "sinc_", "logit_", "log_", "sin_", "erf_"):
    v = leaf * 0.3
    getattr(v, name)()
    fn = v.grad_fn
    g, = torch.autograd.grad((v * torch.tensor([1.0, 2.0])).sum(), leaf, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), leaf)
    print("inplace graph", name, fn.name(), [type(f).__name__ for f, _ in fn.next_functions],
          type(fn._saved_self.grad_fn).__name__, r(g), r(gg))

s = torch.tensor([0.25, 0.5, 3.0])
for name in UNARY:
    o = torch.empty(3, dtype=torch.float64)
    res = getattr(torch, name)(s, out=o)
    print("out", name, res is o, o.dtype, r(o))
    err("out long " + name, lambda: getattr(torch, name)(s, out=torch.empty(3, dtype=torch.long)))
o = torch.empty(0)
print("out more", r(torch.polygamma(2, s, out=o)), o.shape, r(torch.logit(s, 0.3, out=torch.empty(3))),
      r(torch.xlogy(2, s, out=torch.empty(3))), r(torch.xlogy(s, s, out=torch.empty(3, dtype=torch.float64))),
      r(torch.hypot(s, s, out=torch.empty(3))), r(torch.logaddexp2(s, s, out=torch.empty(3))),
      r(torch.xlogy(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3]), out=torch.empty(3))))
err("out int polygamma", lambda: torch.polygamma(1, s, out=torch.empty(3, dtype=torch.long)))
err("out int xlogy", lambda: torch.xlogy(s, s, out=torch.empty(3, dtype=torch.long)))
err("out requires grad", lambda: torch.erfc(x, out=torch.empty(4)))
err("out requires grad polygamma", lambda: torch.polygamma(1, x, out=torch.empty(4)))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    o = torch.ones(2)
    torch.digamma(s, out=o)
    print("out resized", o.shape, [str(c.message)[:60] for c in caught])

# ---------------------------------------------------------------- torch.special
p = torch.tensor([0.25, 0.5, 2.0], requires_grad=True)
for name, args in [("erfc", (p,)), ("gammaln", (p,)), ("digamma", (p,)), ("psi", (p,)), ("polygamma", (2, p)),
                   ("sinc", (p,)), ("logit", (p,)), ("xlogy", (p, 3.0)), ("xlogy", (2.0, p)), ("xlogy", (p, p))]:
    res = getattr(torch.special, name)(*args)
    print("special", name, r(res), node(res)[0])
o = torch.empty(3)
print("special out", torch.special.gammaln(p.detach(), out=o) is o, r(o), r(torch.special.logit(p.detach(), 0.3)),
      r(torch.special.polygamma(1, p.detach(), out=torch.empty(3))))

# ---------------------------------------------------------------- errors
for name in ("hypot", "logaddexp", "logaddexp2"):
    fn = getattr(torch, name)
    err(name + " long", lambda: fn(i, i))
    err(name + " bool", lambda: fn(torch.tensor([True]), torch.tensor([False])))
    err(name + " number", lambda: fn(s, 2))
    err(name + " number first", lambda: fn(2, s))
err("hypot_ int", lambda: torch.tensor([1, 2]).hypot_(torch.tensor([1.5, 2.0])))
err("hypot_ int int", lambda: torch.tensor([1, 2]).hypot_(torch.tensor([1, 2])))
err("hypot out int", lambda: torch.hypot(i, i, out=torch.empty(4)))
err("hypot broadcast", lambda: torch.hypot(s, torch.ones(2)))
err("xlogy numbers", lambda: torch.xlogy(2, 3))
err("xlogy str", lambda: torch.xlogy(s, "a"))
err("xlogy str first", lambda: torch.xlogy("a", s))
err("xlogy_ int", lambda: torch.tensor([1, 2]).xlogy_(2))
err("logit str", lambda: torch.logit(s, "a"))
err("logit list", lambda: torch.logit(s, [0.1]))
err("logit 1-d tensor eps", lambda: torch.logit(s, torch.tensor([0.2, 0.3])))
err("logit method str", lambda: s.logit("a"))
err("logit_ str", lambda: s.clone().logit_("a"))
err("xlogy method str", lambda: s.xlogy("a"))
err("xlogy_ str", lambda: s.clone().xlogy_("a"))
err("add method str (a method's self is not counted)", lambda: s.add("a"))
print("logit 0-dim tensor eps", r(torch.logit(s, torch.tensor(0.3))), r(torch.logit(s, eps=torch.tensor(0.3))))
err("polygamma negative", lambda: torch.polygamma(-1, s))
err("polygamma_ negative", lambda: s.clone().polygamma_(-2))
err("polygamma float n", lambda: torch.polygamma(1.0, s))
err("polygamma bool n", lambda: torch.polygamma(True, s))
err("polygamma method float n", lambda: s.polygamma(1.5))
err("polygamma_ float n", lambda: s.polygamma_(1.5))
err("polygamma str input", lambda: torch.polygamma(1, "a"))
err("polygamma tensor first", lambda: torch.polygamma(s))
err("polygamma method no n", lambda: s.polygamma())
print("polygamma int tensor n", r(torch.polygamma(torch.tensor(2), s)), r(torch.polygamma(n=1, input=s)))
err("erfc number", lambda: torch.erfc(3))
err("erfc extra", lambda: torch.erfc(s, 1))
err("lgamma_ int", lambda: torch.tensor([1, 2]).lgamma_())
err("digamma out", lambda: torch.digamma(s, out=3))
