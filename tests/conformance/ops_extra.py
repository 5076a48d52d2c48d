# Ops DeviceScope added from public scripts' use, against real PyTorch: sgn, logcumsumexp, cummax / cummin,
# histc, bucketize, tril_indices / triu_indices, quantile / nanquantile, meshgrid (ij / xy and the warning when
# indexing is left out), cartesian_prod, diff, trapezoid / trapz / cumulative_trapezoid, tile, column_stack /
# dstack / row_stack, hsplit / vsplit / dsplit, fliplr / flipud, repeat_interleave, take_along_dim: values,
# gradients (rounded), grad_fn names and what the nodes save, views and strides, Tensor method forms and
# argument errors. (sgn's gradient of a real input is 0: 1.13 returns an unallocated zero tensor, not
# printed; quantile's node is SqueezeBackward4 in 2.x, SqueezeBackward3 in 1.13; repeat_interleave
# with an int is a view of a copy in 2.x, index_select in 1.13: neither name is printed.)
import warnings

import torch


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


def node(y):
    fn = y.grad_fn
    return (type(fn).__name__ if fn is not None else None,
            # (2.x's _saved_self_sym_sizes is 1.13's _saved_self_sizes: README's table)
            sorted(a.replace("_sym_", "_") for a in dir(fn) if a.startswith("_saved_")) if fn is not None else [])


def grad_of(f, *xs, names=True):
    xs = [x.clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    info = node(y) if names else None
    y.backward(torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape))
    return info, list(y.shape), r(y), [r(x.grad) if x.grad is not None else None for x in xs]


def err(label, f):
    try:
        f()
        print(label, "no error")
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
a = torch.randn(3, 4)
v = torch.tensor([-1.5, 0.0, 2.0, -0.0, 3.0])

vg = v.clone().requires_grad_()
print("sgn", node(torch.sgn(vg)), torch.sgn(torch.tensor([-2, 0, 5])), v.sgn(), v.clone().sgn_())
print("logcumsumexp", grad_of(lambda x: torch.logcumsumexp(x, 1), a), grad_of(lambda x: x.logcumsumexp(0), a)[2])
print("logcumsumexp inf", r(torch.logcumsumexp(torch.tensor([float("-inf"), 0.0, float("-inf")]), 0)))
t = torch.tensor([[1.0, 3.0, 3.0, 2.0, 5.0], [0.0, -1.0, 4.0, 4.0, -2.0]])
cm = torch.cummax(t, 1)
print("cummax", cm.values, cm.indices, cm.values.grad_fn, cm.indices.grad_fn, type(cm).__name__)
print("cummin", torch.cummin(t, 1), t.cummin(dim=0).indices)
print("cummax grad", grad_of(lambda x: torch.cummax(x, 1)[0], t), grad_of(lambda x: x.cummin(0).values, t)[3])
print("cummax nan", torch.cummax(torch.tensor([1.0, float("nan"), 2.0]), 0))
print("cummax int", torch.cummax(torch.tensor([3, 1, 4, 1, 5]), 0), torch.cummax(torch.tensor(2.0), 0))

data = torch.tensor([0.1, 0.2, 0.3, 0.7, 1.0, 5.0, -1.0, 0.5, 0.6, 0.4])
print("histc", torch.histc(data, bins=5, min=0, max=1), torch.histc(data, bins=4), data.histc(3, -1, 5))
print("histc const", torch.histc(torch.ones(3), bins=4), torch.histc(torch.randn(1000), bins=10, min=-2, max=2))
print("histc double", torch.histc(data.double(), bins=3, min=0, max=0.9).dtype)
err("histc long", lambda: torch.histc(torch.arange(4), bins=3))
err("histc range", lambda: torch.histc(data, bins=3, min=3, max=1))

bounds = torch.tensor([1, 3, 5, 7, 9])
vals = torch.tensor([[3, 6, 9], [3, 6, 9]])
print("bucketize", torch.bucketize(vals, bounds), torch.bucketize(vals, bounds, right=True),
      torch.bucketize(vals, bounds, out_int32=True).dtype, torch.bucketize(4, bounds),
      torch.bucketize(torch.tensor([0.5, 1.0, 9.5]), torch.tensor([1.0, 2.0])))
err("bucketize 2d", lambda: torch.bucketize(vals, vals))

print("tril_indices", torch.tril_indices(3, 3), torch.tril_indices(4, 3, -1), torch.tril_indices(2, 5, 2))
print("triu_indices", torch.triu_indices(3, 3), torch.triu_indices(3, 4, 1), torch.triu_indices(3, 3, 5),
      torch.triu_indices(3, 3, dtype=torch.int32).dtype)
m = torch.arange(16.0).reshape(4, 4)
i = torch.triu_indices(4, 4, 1)
print("upper values", m[i[0], i[1]])

x = torch.tensor([[0.0, 3.0, 1.0, 7.0, 2.0], [4.0, 4.0, -1.0, 8.0, 6.0]])
for interp in ("linear", "lower", "higher", "midpoint", "nearest"):
    print("quantile", interp, r(torch.quantile(x, 0.4, interpolation=interp)),
          r(torch.quantile(x, torch.tensor([0.25, 0.5, 0.9]), dim=1, interpolation=interp)),
          list(torch.quantile(x, torch.tensor([0.1, 0.7]), dim=0, keepdim=True, interpolation=interp).shape))
print("quantile grad", grad_of(lambda y: torch.quantile(y, torch.tensor([0.3, 0.8]), dim=1), x, names=False))
print("quantile grad scalar", grad_of(lambda y: y.quantile(0.5), x, names=False))
xn = torch.tensor([[1.0, float("nan"), 3.0, 2.0], [float("nan")] * 4])
print("nanquantile", torch.nanquantile(xn, 0.5, dim=1), torch.quantile(xn, 0.5, dim=1), xn.nanquantile(0.25))
err("quantile q", lambda: torch.quantile(x, 1.5))
err("quantile q tensor", lambda: torch.quantile(x, torch.tensor([0.5, 2.0])))
err("quantile dtype", lambda: torch.quantile(torch.arange(4), 0.5))
err("quantile q dtype", lambda: torch.quantile(x, torch.tensor([0.5], dtype=torch.float64)))
err("quantile empty", lambda: torch.quantile(torch.zeros(0), 0.5))
err("quantile interp", lambda: torch.quantile(x, 0.5, interpolation="cubic"))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2))
    print("meshgrid default", gx.shape, gy.shape, [str(m.message)[:81] for m in w])
p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = torch.tensor([4.0, 5.0], requires_grad=True)
for idx in ("ij", "xy"):
    g1, g2 = torch.meshgrid(p, q, indexing=idx)
    print("meshgrid", idx, g1.tolist(), g2.tolist(), g1.stride(), g2.stride(), node(g1),
          type(g1.grad_fn.next_functions[0][0]).__name__, g1.data_ptr() == p.data_ptr())
    (g1 * g2).sum().backward()
    print("  grads", p.grad.tolist(), q.grad.tolist())
    p.grad = q.grad = None
three = torch.meshgrid([torch.tensor(1.0), torch.arange(2.0), torch.arange(3.0)], indexing="xy")
print("meshgrid 3", [tuple(g.shape) for g in three], [g.stride() for g in three])
try:  # (the tensor is printed by C++'s operator<< after the colon)
    torch.meshgrid(torch.zeros(2, 2), indexing="ij")
except RuntimeError as e:
    print("meshgrid 2d", str(e).split(":")[1])
err("meshgrid dtype", lambda: torch.meshgrid(torch.arange(2), torch.arange(2.0), indexing="ij"))
err("meshgrid indexing", lambda: torch.meshgrid(torch.arange(2), indexing="ji"))
err("meshgrid empty", lambda: torch.meshgrid([], indexing="ij"))
print("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5])),
      torch.cartesian_prod(torch.tensor([7, 8])))
err("cartesian_prod 2d", lambda: torch.cartesian_prod(torch.zeros(2, 2)))

y = torch.tensor([[1.0, 4.0, 9.0, 16.0], [2.0, 3.0, 5.0, 7.0]])
print("diff", grad_of(torch.diff, y), grad_of(lambda z: torch.diff(z, dim=0), y)[2])
print("diff n", torch.diff(y, n=2), torch.diff(y, n=3), torch.diff(y, n=9).shape, y.diff(n=0))
print("diff pre/app", grad_of(lambda z: torch.diff(z, prepend=torch.zeros(2, 1), append=torch.ones(2, 2)), y))
print("diff bool", torch.diff(torch.tensor([True, False, False, True])), torch.diff(torch.tensor([1, 5, 2])))
err("diff 0-d", lambda: torch.diff(torch.tensor(1.0)))
err("diff prepend", lambda: torch.diff(y, prepend=torch.zeros(3, 1)))
err("diff prepend dim", lambda: torch.diff(y, prepend=torch.zeros(2)))

print("trapezoid", grad_of(torch.trapezoid, y), grad_of(lambda z: torch.trapezoid(z, dx=0.5, dim=0), y))
xs = torch.tensor([0.0, 1.0, 3.0, 6.0])
print("trapezoid x", grad_of(lambda z: torch.trapezoid(z, xs), y), r(torch.trapezoid(y, torch.stack([xs, xs * 2]))))
print("trapz", r(torch.trapz(y, xs)), r(torch.trapz(y, dx=2)), r(torch.trapz(y)), torch.trapezoid(torch.zeros(2, 0)))
print("cumulative", grad_of(lambda z: torch.cumulative_trapezoid(z, dx=2.0), y),
      grad_of(lambda z: torch.cumulative_trapezoid(z, xs), y)[:3])
err("trapezoid bool", lambda: torch.trapezoid(torch.tensor([True, False])))
err("trapezoid x", lambda: torch.trapezoid(y, torch.tensor([1.0, 2.0])))

s = torch.arange(6).reshape(2, 3)
print("tile", torch.tile(s, (2,)), s.tile((2, 1, 2)).shape, torch.tile(torch.tensor([1, 2]), (3,)))
print("tile grad", grad_of(lambda z: z.tile((2, 2)), y)[0])
print("column_stack", torch.column_stack([torch.tensor([1, 2]), torch.tensor([[3], [4]]), torch.tensor([5, 6])]))
print("dstack", torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])]), torch.dstack([s, s]).shape)
print("row_stack", torch.row_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]))
err("column_stack empty", lambda: torch.column_stack([]))
w = torch.arange(24).reshape(2, 3, 4)
print("hsplit", [tuple(t.shape) for t in torch.hsplit(w, 3)], [t.tolist() for t in torch.hsplit(torch.arange(6), [2, 5])])
print("vsplit", [tuple(t.shape) for t in torch.vsplit(w, [1])], [tuple(t.shape) for t in w.dsplit(2)],
      [t.data_ptr() - w.data_ptr() for t in torch.dsplit(w, [1, 3])])
err("hsplit size", lambda: torch.hsplit(w, 2))
err("vsplit dims", lambda: torch.vsplit(torch.arange(4), 2))
err("dsplit dims", lambda: torch.dsplit(s, 2))
print("fliplr", torch.fliplr(s), torch.flipud(s), s.fliplr().stride(), node(torch.fliplr(y.requires_grad_())))
y.requires_grad_(False)
err("fliplr 1d", lambda: torch.fliplr(torch.arange(3)))
err("flipud 0d", lambda: torch.flipud(torch.tensor(1)))

print("repeat_interleave", torch.repeat_interleave(s, 2), torch.repeat_interleave(s, 2, dim=1),
      s.repeat_interleave(torch.tensor([1, 2]), dim=0), torch.repeat_interleave(torch.tensor([2, 0, 1])),
      torch.repeat_interleave(s, torch.tensor(2), dim=1).shape, torch.repeat_interleave(torch.tensor(3), 2))
print("repeat_interleave grad", grad_of(lambda z: z.repeat_interleave(2, dim=0), y, names=False)[3],
      grad_of(lambda z: z.repeat_interleave(torch.tensor([1, 0, 2, 1]), dim=1), y)[:3])
try:  # (2.x adds the sizes to 1.13's message)
    torch.repeat_interleave(s, torch.tensor([1, 2, 3]), dim=0)
except RuntimeError as e:
    print("repeat_interleave size", str(e)[:48])
err("repeat_interleave negative", lambda: torch.repeat_interleave(torch.tensor([1, -1])))

idx = torch.tensor([[0, 2], [1, 0]])
print("take_along_dim", torch.take_along_dim(s, idx, dim=1), torch.take_along_dim(s, torch.tensor([5, 0])),
      s.take_along_dim(torch.tensor([[1], [0]]), 1), torch.take_along_dim(s, torch.tensor([[0, 1, 1]]), 0))
print("take_along_dim sort", torch.take_along_dim(a, torch.argsort(a, dim=1), dim=1).equal(a.sort(1).values))
print("take_along_dim grad", grad_of(lambda z: torch.take_along_dim(z, torch.tensor([[3, 0], [1, 1]]), 1), y))
err("take_along_dim dims", lambda: torch.take_along_dim(s, torch.tensor([0, 1]), 1))
err("take_along_dim dtype", lambda: torch.take_along_dim(s, idx.int(), 1))

# median / nanmedian / kthvalue / msort: PyTorch's choice among ties (kthvalue's quickselect), NaN rules, nodes
x = torch.tensor([[3.0, 1.0, 2.0, 2.0], [5.0, 5.0, 4.0, 5.0], [1.0, float("nan"), 0.0, 2.0]])
print("median", torch.median(x), torch.nanmedian(x), torch.median(x[:2]), torch.median(torch.tensor([4, 1, 3, 2])))
print("median dim", torch.median(x, 1), torch.nanmedian(x, dim=1, keepdim=True), x.median(0))
print("kthvalue", torch.kthvalue(x[:2], 2, 1), x[:2].kthvalue(1, dim=0, keepdim=True), torch.msort(x[:2]))
print("median grad", grad_of(lambda z: z.median(), x[:2]), grad_of(lambda z: z.median(1).values, x[:2]))
print("kthvalue grad", grad_of(lambda z: torch.kthvalue(z, 3, 1, True).values, x[:2]),
      grad_of(lambda z: z.nanmedian(), x), grad_of(lambda z: z.nanmedian(0).values, x)[3])
z = torch.randn(5, 7)
print("ties", torch.median(z, 1).indices, torch.kthvalue(z, 4, 0).indices, r(torch.nanmedian(z)),
      torch.kthvalue(torch.tensor([2, 2, 1, 2, 2, 3, 2]), 3), torch.median(torch.tensor([[1, 1, 1, 1]]), 1))
print("median 0-d", torch.median(torch.tensor(3.0), 0), torch.kthvalue(torch.tensor(3.0), 1))

# isin / tensordot
print("isin", torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3, 9])),
      torch.isin(torch.tensor([1.0, 2.5]), torch.tensor([[2.5]]), invert=True), torch.isin(torch.arange(4), 2),
      torch.isin(3, torch.tensor([1, 3])))
ta, tb = torch.randn(3, 4, 5), torch.randn(4, 5, 2)
print("tensordot", grad_of(lambda p_, q_: torch.tensordot(p_, q_), ta, tb, names=False)[1:],  # (1.13: ReshapeAlias)
      r(torch.tensordot(ta, tb, dims=([1, 2], [0, 1]))) == r(torch.tensordot(ta, tb)),
      torch.tensordot(ta, tb, dims=0).shape, torch.tensordot(ta, tb, dims=([1], [0])).shape,
      r(torch.tensordot(torch.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(3, 2), dims=1)))
print("tensordot bcast", r(torch.tensordot(torch.ones(2, 1), torch.ones(3, 2), dims=([1], [0]))))
err("tensordot sizes", lambda: torch.tensordot(ta, tb, dims=([0], [0])))
err("tensordot dims", lambda: torch.tensordot(ta, tb, dims=-1))

# torch.jit in eager code: is_scripting / is_tracing are False, ignore/unused leave functions as they are
@torch.jit.ignore
def helper(x):
    return x * 2


@torch.jit.unused
def unused_helper(x):
    return x + 1


print("jit", torch.jit.is_scripting(), torch.jit.is_tracing(), helper(torch.ones(2)), unused_helper(torch.ones(1)))

# rot90: every k, dims forms, strides, Rot90Backward0 and its gradient, errors
xr = torch.arange(6.0).reshape(2, 3)
for k in (-1, 0, 1, 2, 3, 5):
    y = torch.rot90(xr, k)
    print(k, y.tolist(), y.shape, y.stride(), y.is_contiguous())
w = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
for k, dims in ((1, [1, 2]), (3, [2, 0]), (2, [0, -1]), (0, [0, 1]), (1, [-1, -2])):
    y = w.rot90(k, dims)
    fn = y.grad_fn
    print(k, dims, y.shape, y.stride(), type(fn).__name__, sorted(a for a in dir(fn) if a.startswith("_saved_")),
          [type(n[0]).__name__ for n in fn.next_functions])
    y.backward(torch.arange(float(y.numel())).reshape(y.shape))
    print("  grad", r(w.grad)[:8]); w.grad = None
for bad in ((1, [0]), (1, [0, 0]), (1, [0, 3]), (1, [0, -2])):
    try: torch.rot90(torch.zeros(2, 2), *bad)
    except RuntimeError as e: print(e)
try: torch.rot90(torch.zeros(2))
except RuntimeError as e: print(e)

# kron: UnsafeViewBackward0 <- MulBackward0 <- UnsafeViewBackward0 x2, gradients, broadcasting ranks
ka = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
kb = torch.tensor([[0.0, 5.0, 1.0]], requires_grad=True)
k = torch.kron(ka, kb)
fn = k.grad_fn
print(k.tolist(), k.shape, k.stride(), type(fn).__name__, sorted(x for x in dir(fn) if x.startswith("_saved_")),
      [type(n[0]).__name__ for n in fn.next_functions], [type(n[0]).__name__ for n in fn.next_functions[0][0].next_functions])
k.backward(torch.arange(12.0).reshape(2, 6))
print(r(ka.grad), r(kb.grad))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10], [100, 1000]])), ka.kron(torch.ones(2)).shape,
      torch.kron(torch.arange(3), torch.arange(2)))
try:  # (PyTorch's _unsafe_view refuses a transposed operand)
    torch.kron(ka.t(), torch.eye(2))
except RuntimeError as e:
    print(str(e)[:60])
