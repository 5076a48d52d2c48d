# In-place binary and ternary pointwise ops under autograd, and the ternary ops' single nodes, as PyTorch makes
# them: an in-place op continues the tensor's own history (its first edge is the op that made the tensor, no
# CloneBackward0 in between); a formula that needs self's old values saves a clone of them (original_self, itself
# made with autograd), a saved result is the tensor after the write; a number operand that is its own ATen overload
# (pow.Tensor_Scalar, xlogy.Scalar_Other, fmod.Scalar, rsub.Scalar, copysign.Scalar) gives a one-edge node.
# addcmul/addcdiv/lerp/clamp with tensor bounds are one node each (AddcmulBackward0, LerpBackward0/1,
# ClampBackward0, ClampMin/MaxBackward1) saving exactly what PyTorch's save; their float32 values are bit-exact.
import itertools
import warnings

import torch

torch.manual_seed(0)


def desc(node, ids):
    out = []
    for a in sorted(x for x in dir(node) if x.startswith("_saved_")):
        v = getattr(node, a)
        if isinstance(v, torch.Tensor):
            out.append(f"{a}={ids.get(v.data_ptr(), 'NEW')}/{type(v.grad_fn).__name__ if v.grad_fn else None}")
        else:
            out.append(f"{a}={v!r}")
    return out


def names(node):
    return [type(n).__name__ if n is not None else None for n, _ in node.next_functions]


def grads(*ts):
    return [None if t.grad is None else [round(v, 5) for v in t.grad.flatten().tolist()] for t in ts]


# ---- binary in-place ops on a non-leaf, the other operand with and without grad
x = torch.randn(3, requires_grad=True)
for other_grad in (False, True):
    for op in ("mul_", "div_", "pow_", "xlogy_", "hypot_", "atan2_", "fmod_", "remainder_", "copysign_"):
        y = x * 1.5
        t = torch.full((3,), 0.7, requires_grad=other_grad)
        r = getattr(y, op)(t)
        print(other_grad, op, type(r.grad_fn).__name__, names(r.grad_fn),
              desc(r.grad_fn, {y.data_ptr(): "self", t.data_ptr(): "other"}), r._version)
        r.sum().backward()
        print("  grads", grads(x, t))
        x.grad = None

# ---- Scalar overloads: one edge; div with a rounding mode: DivBackward2 with zero gradients
y = torch.tensor([1.0, 2.0, -3.0], requires_grad=True) * 2
for e in ("y * 2", "torch.xlogy(y, 2.0)", "torch.xlogy(2.0, y)", "torch.pow(y, 2)", "torch.pow(2, y)",
          "torch.fmod(y, 2)", "torch.remainder(y, 2)", "1 - y", "torch.copysign(y, -1.0)",
          "torch.div(y, 2, rounding_mode='floor')", "y.clone().pow_(2)", "y.clone().fmod_(2)",
          "y.clone().copysign_(-1.0)"):
    r = eval(e)
    print(e, type(r.grad_fn).__name__, names(r.grad_fn), r.dtype)
leaf = torch.tensor([1.0, 2.0], requires_grad=True)
for e in ("torch.pow(2, leaf)", "torch.div(leaf * 3, 2, rounding_mode='trunc')", "torch.copysign(leaf, -2.0)",
          "torch.copysign(leaf, torch.tensor([-1.0, 0.0]))"):
    r = eval(e)
    r.sum().backward()
    print(e, r.tolist(), grads(leaf))
    leaf.grad = None
print(torch.pow(2, torch.tensor([1, 2])), torch.pow(2.5, torch.tensor([1, 2])), torch.pow(True, torch.tensor([1, 2])))
try:
    torch.pow(2, 3)
except TypeError as e:
    print("TypeError", e)

# ---- ternary ops, out of place and in place, every combination of which operand needs a gradient
for rx, r1, r2 in itertools.product((False, True), repeat=3):
    for label, f in [("addcmul", lambda y: torch.addcmul(y, t1, t2, value=0.5)),
                     ("addcdiv", lambda y: torch.addcdiv(y, t1, t2, value=0.5)),
                     ("lerp_s", lambda y: torch.lerp(y, t1, 0.3)), ("lerp_t", lambda y: torch.lerp(y, t1, t2)),
                     ("clamp_t", lambda y: torch.clamp(y, t1, t2)), ("clamp_min_t", lambda y: torch.clamp(y, min=t1)),
                     ("clamp_max_t", lambda y: torch.clamp(y, max=t2)),
                     ("clamp_min_fn", lambda y: torch.clamp_min(y, t1)), ("copysign", lambda y: torch.copysign(y, t1)),
                     ("addcmul_", lambda y: y.addcmul_(t1, t2, value=0.5)),
                     ("addcdiv_", lambda y: y.addcdiv_(t1, t2, value=0.5)),
                     ("lerp_s_", lambda y: y.lerp_(t1, 0.3)), ("lerp_t_", lambda y: y.lerp_(t1, t2)),
                     ("clamp_t_", lambda y: y.clamp_(t1, t2)), ("clamp_min_t_", lambda y: y.clamp_(min=t1)),
                     ("clamp_min__", lambda y: y.clamp_min_(t1)), ("clamp_max__", lambda y: y.clamp_max_(t2)),
                     ("copysign_", lambda y: y.copysign_(t1))]:
        x = torch.tensor([2.0, -1.0, 5.0], requires_grad=rx)
        y = x * 1.0 if rx else x.clone()
        t1 = torch.tensor([3.0, 0.5, -2.0], requires_grad=r1)
        t2 = torch.tensor([4.0, 0.25, 1.5], requires_grad=r2)
        ids = {y.data_ptr(): "y", t1.data_ptr(): "t1", t2.data_ptr(): "t2"}
        r = f(y)
        if r.grad_fn is None:
            print(rx, r1, r2, label, None, r.tolist())
            continue
        ids.setdefault(r.data_ptr(), "result")
        print(rx, r1, r2, label, type(r.grad_fn).__name__, names(r.grad_fn), desc(r.grad_fn, ids), r.tolist())
        (r * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
        print("  grads", grads(x, t1, t2))

# ---- float32 values: ATen's fused multiply-adds (addcmul, lerp's two forms), addcdiv, clamp's NaN and min > max
a, b, c = torch.randn(2000), torch.randn(2000), torch.randn(2000) + 3
checks = {"addcmul": torch.addcmul(a, b, c, value=0.3), "addcdiv": torch.addcdiv(a, b, c, value=-0.7),
          "lerp 0.1": torch.lerp(a, b, 0.1), "lerp 0.7": torch.lerp(a, b, 0.7), "lerp -0.6": torch.lerp(a, b, -0.6),
          "lerp tensor": torch.lerp(a, b, torch.rand(2000) * 2 - 0.5), "lerp f64": torch.lerp(a.double(), b.double(), 0.7),
          "addcmul_": a.clone().addcmul_(b, c, value=2.5), "lerp_": a.clone().lerp_(b, 0.9)}
for k, v in checks.items():
    print(k, v.dtype, sum(v.double().tolist()).hex(), v[:3].tolist())
print(torch.clamp(torch.tensor([0.0, 5.0, float("nan"), 1.0]), min=torch.tensor([3.0, 3.0, 0.0, float("nan")]),
                  max=torch.tensor([1.0, 1.0, 1.0, 2.0])))
print(torch.addcmul(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long),
                    value=0.5))

# ---- errors and dtypes
f = torch.ones(3)
d = torch.ones(3, dtype=torch.float64)
i = torch.ones(3, dtype=torch.long)
h = torch.ones(3, dtype=torch.float16)
bo = torch.ones(3, dtype=torch.bool)
big = torch.ones(2, 3)
cases = ["torch.addcmul(bo, bo, bo)", "torch.addcdiv(i, i, i)", "torch.addcdiv(f, i, i)", "torch.addcdiv(f, i, f)",
         "f.clone().addcmul_(big, f)", "f.clone().addcmul_(d, d)", "f.clone().addcmul_(i, i)", "f.clone().addcdiv_(d, d)",
         "torch.addcmul(f, d, d, out=torch.empty(3))", "torch.addcmul(f, f, f, out=torch.empty(3, dtype=torch.long))",
         "torch.addcmul(f, f, f, value=2, out=torch.empty(3))", "torch.addcmul(f, 2.0, f)", "torch.addcmul(f, f)",
         "f.addcmul_(f)", "torch.lerp(i, i, 0.5)", "torch.lerp(i, i, i)", "torch.lerp(f, d, 0.5)", "torch.lerp(f, f, d)",
         "torch.lerp(f, f, i)", "torch.lerp(h, h, 0.5)", "f.clone().lerp_(big, 0.5)", "torch.lerp(f, f, big).shape",
         "torch.lerp(f, f, 1j)", "torch.lerp(f, 2.0, 0.5)", "torch.clamp(f, min=d).dtype", "torch.clamp(i, min=f).dtype",
         "i.clone().clamp_(min=f)", "f.clone().clamp_(min=big)", "torch.clamp(f, min=torch.zeros(3), max=2.0)",
         "torch.clamp(f, d, d, out=torch.empty(3))", "torch.clamp(bo, min=bo)", "torch.copysign(i, i).dtype",
         "torch.copysign(bo, bo)", "i.clone().copysign_(i)", "torch.ones(3, requires_grad=True).addcmul_(f, f)",
         "torch.ones(3, requires_grad=True).lerp_(f, 0.5)", "torch.ones(3).expand(2, 3).clamp_(min=torch.zeros(2, 3))",
         "torch.ones(3).expand(2, 3).addcmul_(f, f)"]
for e in cases:
    try:
        print(e, "->", eval(e))
    except Exception as ex:
        print(e, "->", type(ex).__name__, str(ex))

# ---- the deprecated value-first overload: accepted, one warning per process
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(f.clone().addcmul_(2, f, f), torch.addcdiv(f, 2, f, f), f.addcmul(2, f, f))
    print([str(w.message) for w in caught])
