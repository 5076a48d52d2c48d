# The C++ fast path of a + b, a.add_(b), -x, relu (engine/python/bindings_ops.cpp) against PyTorch: every
# dtype it handles, scalars of each kind on either side, broadcasting, 0-dim tensors (promotion classes),
# alpha, in-place and aliasing, version counters, and the cases it must hand back to Python (errors,
# autograd, casts, non-contiguous operands) - values, dtypes, shapes and strides.
import torch

DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool]


def base(dt, shape=(2, 3)):
    n = 1
    for s in shape:
        n *= s
    v = torch.arange(n).reshape(shape) - 2
    return (v % 2 == 0) if dt is torch.bool else v.to(dt)


def show(tag, fn):
    try:
        r = fn()
        print(tag, r.dtype, tuple(r.shape), r.stride(), r.tolist())
    except Exception as e:
        print(tag, type(e).__name__, str(e).splitlines()[0])


SCALARS = [True, 3, -2, 2.5, 0.1]
for da in DTYPES:
    a = base(da)
    for db in DTYPES:
        b = base(db)
        show(f"{da}+{db}", lambda: a + b)
        if torch.bool not in (da, db):  # bool subtraction errors: the op registry's area
            show(f"{da}-{db}", lambda: a - b)
        show(f"{da}*{db}", lambda: a * b)
        show(f"{da}/{db}", lambda: a / b)
    for s in SCALARS:
        show(f"{da}+{s!r}", lambda: a + s)
        show(f"{s!r}+{da}", lambda: s + a)
        if s is not True and da is not torch.bool:
            show(f"{da}-{s!r}", lambda: a - s)
            show(f"{s!r}-{da}", lambda: s - a)
        show(f"{da}*{s!r}", lambda: a * s)
        show(f"{s!r}*{da}", lambda: s * a)
        show(f"{da}/{s!r}", lambda: a / s)
    show(f"neg {da}", lambda: -a)
    if da is not torch.bool:
        show(f"relu {da}", lambda: torch.relu(a))
        show(f"relu method {da}", lambda: a.relu())

# broadcasting and 0-dim tensors (a 0-dim tensor's dtype ranks below a dimensioned tensor's)
f = torch.arange(6.).reshape(2, 3)
show("bcast row", lambda: f + torch.tensor([1., 2., 3.]))
show("bcast col", lambda: f * torch.tensor([[2.], [3.]]))
show("bcast outer", lambda: torch.tensor([[1.], [2.]]) - torch.tensor([10., 20., 30.]))
show("bcast 3d", lambda: torch.ones(2, 1, 3) + torch.arange(4.).reshape(4, 1))
show("bcast mismatch", lambda: f + torch.ones(4))
show("0-dim f64 + f32", lambda: f + torch.tensor(1.5, dtype=torch.float64))
show("0-dim + 0-dim", lambda: torch.tensor(2) * torch.tensor(3.5))
show("int + 0-dim float", lambda: torch.arange(3) + torch.tensor(0.5))
show("int32 + 0-dim int64", lambda: torch.arange(3, dtype=torch.int32) + torch.tensor(7))
show("bool + 0-dim int", lambda: torch.tensor([True, False]) + torch.tensor(5))

# special values: IEEE results, relu keeps -0.0 and NaN, integer wrap-around
sp = torch.tensor([0., -0., 1., -1., float("inf"), float("nan")])
show("div by zero", lambda: sp / 0.)
show("relu special", lambda: torch.relu(sp))
show("neg special", lambda: -sp)
big = torch.tensor([2 ** 62, -2 ** 63])
show("int64 wrap add", lambda: big + big)
show("int64 wrap mul", lambda: big * 3)
show("int64 neg min", lambda: -big)
i32 = torch.tensor([2 ** 30, -2 ** 31], dtype=torch.int32)
show("int32 wrap", lambda: i32 * 4)
show("int32 + big scalar", lambda: i32 + 2 ** 33)
show("int // via div int", lambda: torch.tensor([7, -7]) / 2)
show("float32 scalar rounding", lambda: torch.tensor([1.0]) * 0.1)
show("float64 scalar", lambda: torch.tensor([1.0], dtype=torch.float64) * 0.1)

# alpha
show("add alpha int", lambda: torch.add(torch.arange(3), torch.arange(3), alpha=3))
show("add alpha float", lambda: torch.add(f, f, alpha=0.5))
show("sub alpha", lambda: f.sub(f, alpha=-2))
show("add alpha bool result", lambda: torch.tensor([True]).add(torch.tensor([False]), alpha=2))
show("add scalar alpha", lambda: f.add(2, alpha=3))
show("rsub", lambda: 1 - f)

# in place: values, returned object, dtype checks, aliasing, version counter
x = torch.arange(6.).reshape(2, 3)
v0 = x._version
r = x.add_(torch.tensor([1., 1., 1.]), alpha=2)
print("add_ returns self", r is x, x.tolist(), x._version - v0)
x.mul_(x)
print("mul_ self", x.tolist())
x -= 1
x /= 2
print("isub/idiv", x.tolist(), x._version - v0)
y = x
y += x
print("iadd identity", y is x, x.tolist())
n = torch.arange(3)
show("int add_ float", lambda: n.add_(1.5))
show("int div_", lambda: n.div_(2))
show("int add_ int", lambda: n.add_(2))
show("add_ broadcast self", lambda: torch.ones(3).add_(torch.ones(2, 3)))
show("add_ broadcast other", lambda: torch.ones(2, 3).add_(torch.arange(3.)))
show("f32 add_ f64", lambda: torch.ones(2).add_(torch.ones(2, dtype=torch.float64)))
show("bool neg", lambda: -torch.tensor([True]))
w = torch.arange(4.)
view = w[1:3]
view.add_(10)
print("view add_ writes base", w.tolist(), w._version)
view.relu_()
print("relu_ version", w._version)
z = torch.tensor([-1., 2.])
print("neg_ returns self", z.neg_() is z, z.tolist())

# non-contiguous operands and layouts go to the Python path: results as PyTorch's
t = torch.arange(6.).reshape(2, 3)
show("sliced", lambda: t[:, ::2] * 2)
show("expanded", lambda: torch.ones(3, 1).expand(3, 4) + 1)

# autograd: with grad mode on, a tensor that requires grad takes the autograd path; under no_grad the
# fast path runs (SGD's update)
p = torch.ones(3, requires_grad=True)
q = p * 2 + 1
print("grad_fn", type(q.grad_fn).__name__, q.requires_grad)
q.sum().backward()
print("grad", p.grad.tolist())
show("leaf add_", lambda: p.add_(1))
with torch.no_grad():
    p.add_(p.grad, alpha=-0.5)
    r = p * 2
print("no_grad", p.tolist(), p.requires_grad, r.requires_grad, r.grad_fn)
lin = torch.nn.Linear(2, 2)
print("param + tensor type", type(lin.weight + 1).__name__, (lin.weight + 1).requires_grad)
with torch.no_grad():
    print("param + tensor no_grad", type(lin.weight * 1).__name__, (lin.weight * 1).requires_grad)

# operands the fast path does not read: numpy scalars
import numpy as np
show("np.float64 scalar", lambda: torch.ones(2) * np.float64(2.5))
show("np.int64 scalar", lambda: torch.ones(2, dtype=torch.int32) + np.int64(3))

# default dtype float64: float scalars with integer tensors follow it
torch.set_default_dtype(torch.float64)
show("int * float (default f64)", lambda: torch.arange(3) * 0.5)
show("int / int (default f64)", lambda: torch.arange(3) / 2)
show("f32 * float (default f64)", lambda: torch.ones(2, dtype=torch.float32) * 0.1)
torch.set_default_dtype(torch.float32)

# comparisons: bool results in the operands' dtype, scalars of each kind, NaN, broadcasting, grad inputs
for dt in DTYPES:
    a = base(dt)
    b = base(dt).flip(1)
    for name, fn in (("==", lambda: a == b), ("!=", lambda: a != b), ("<", lambda: a < b), ("<=", lambda: a <= b),
                     (">", lambda: a > b), (">=", lambda: a >= b), ("eq 0", lambda: a.eq(0)),
                     ("lt 1", lambda: a.lt(1)), ("gt 0.5", lambda: a.gt(0.5)), ("ge True", lambda: a.ge(True)),
                     ("ne -1", lambda: a.ne(-1)), ("le bcast", lambda: a <= a[0])):
        show(f"{dt} {name}", fn)
nan = torch.tensor([float("nan"), 1.0, -0.0])
show("nan ==", lambda: nan == nan)
show("nan !=", lambda: nan != nan)
show("nan <", lambda: nan < 1.0)
show("-0 == 0", lambda: nan == 0.0)
show("0-dim compare", lambda: torch.arange(3) > torch.tensor(1))
show("int vs float scalar", lambda: torch.arange(3) < 1.5)
rg = torch.ones(3, requires_grad=True)
r = rg > 0
print("compare on grad input", r.dtype, r.requires_grad, r.grad_fn)
print("eq with None", torch.ones(2) == None, torch.ones(2) != None)  # noqa: E711
print("eq with str", torch.ones(2) == "a")

# numpy's error settings are the user's: ops never raise or warn from them, and never change them
import warnings
old = np.seterr(all="raise")
g = torch.tensor([1.0, 0.0, -1.0], requires_grad=True)  # the autograd (Python) path
print("ops under np.seterr(raise)", (g / 0).tolist(), (torch.tensor([1.0, -1.0]) / 0).tolist(), torch.log(g).tolist())
try:
    np.array([1.0]) / 0
except FloatingPointError as e:
    print("numpy still raises:", e)
np.seterr(**old)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    print("no warnings", (g * float("inf")).tolist(), torch.sqrt(g).tolist())
