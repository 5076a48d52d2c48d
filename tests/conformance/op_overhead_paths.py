# The shortcuts that cut the fixed cost of an op (issue 23) against real PyTorch: torch.tensor of flat and
# 2-level lists of Python numbers (checked at C speed, no per-element walk) and of everything that still walks,
# the .grad setter's shortcut for a matching gradient and its errors, index_select's bounds check for a few and
# for many indices, TensorImpl's metadata read through CPython getsets (shape, stride, offset, dtype, device,
# contiguity, version) including after `t.data = other` changes them.
import torch


def show(label, t):
    print(label, t.dtype, tuple(t.shape), t.tolist())


def attempt(label, fn):
    try:
        r = fn()
        show(label, r) if isinstance(r, torch.Tensor) else print(label, r)
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(label, type(e).__name__, e)


# torch.tensor: the number-list shortcut and the walk it falls back to
for data in ([1, 2, 3], [1.5, 2, -3], [0.1, 0.2], [7], [2 ** 62, -2 ** 62], [1, True], [True, False],
             [[1, 2], [3, 4]], [[1.0, 2], [3, 4]], [[1], [2], [3]], [[1, 2], [3]],
             [], [[]], [[], []], [[[1, 2]], [[3, 4]]], (1, 2.5), [(1, 2), (3, 4)], [[1, 2], (3, 4)],
             [float("inf"), float("nan")], [-0.0, 0.0]):
    attempt(f"tensor({data!r})", lambda: torch.tensor(data))
attempt("tensor int dtype=float32", lambda: torch.tensor([1, 2], dtype=torch.float32))
attempt("tensor float dtype=int64", lambda: torch.tensor([1.7, -2.7], dtype=torch.int64))
attempt("tensor 2d dtype=float64", lambda: torch.tensor([[1, 2], [3, 4]], dtype=torch.float64))
attempt("tensor int requires_grad", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("tensor float requires_grad", lambda: torch.tensor([[1.0, 2.0]], requires_grad=True).requires_grad)
print("float signs", [str(v) for v in torch.tensor([-0.0, 0.0]).tolist()])
torch.set_default_dtype(torch.float64)
attempt("tensor under float64 default", lambda: torch.tensor([1, 2.5]))
attempt("tensor 2d under float64 default", lambda: torch.tensor([[1, 2.5]]))
torch.set_default_dtype(torch.float32)

# .grad: the shortcut when dtype, device and shape match (a mismatch takes the unchanged checks, whose messages
# are PyTorch 2's wording, not 1.13's)
p = torch.zeros(2, 3, requires_grad=True)
p.grad = torch.ones(2, 3)
show("grad set", p.grad)
p.grad = None
print("grad cleared", p.grad)
for label, value in (("self", p),):
    def assign(v=value):
        p.grad = v
        return p.grad
    attempt(f"grad = wrong {label}", assign)
w = torch.nn.Linear(3, 2)
w(torch.ones(4, 3)).sum().backward()
show("linear grad", w.weight.grad)
w.zero_grad(set_to_none=False)
show("zeroed grad", w.weight.grad)

# index_select: a few indices (compared as Python ints) and many (numpy's reductions), in and out of range
x = torch.arange(24.0).reshape(6, 4)
attempt("index_select dim0", lambda: torch.index_select(x, 0, torch.tensor([5, 0, 2])))
attempt("index_select dim1 int32", lambda: x.index_select(1, torch.tensor([3, 3, 1], dtype=torch.int32)))
attempt("index_select empty index", lambda: x.index_select(0, torch.tensor([], dtype=torch.int64)))
attempt("index_select 0-dim index", lambda: x.index_select(0, torch.tensor(4)))
attempt("index_select too large", lambda: x.index_select(0, torch.tensor([1, 6])))
many = torch.arange(40) % 6
attempt("index_select many", lambda: x.index_select(0, many).sum(1))
attempt("index_select many too large", lambda: x.index_select(0, torch.cat([many, torch.tensor([6])])))
attempt("index_select of 0-dim", lambda: torch.tensor(3.5).index_select(0, torch.tensor([0])))
attempt("index_select float index", lambda: x.index_select(0, torch.tensor([1.0])))
e = torch.nn.Embedding(10, 3)
out = e(torch.tensor([[1, 2], [9, 0]]))
out.sum().backward()
print("embedding", tuple(out.shape), e.weight.grad.sum(1).tolist())

# metadata reads (TensorImpl's getsets)
y = torch.arange(12, dtype=torch.int32).reshape(3, 4)
v = y.t()[1:]
print("meta", v.shape, v.stride(), v.storage_offset(), v.dtype, v.device, v.is_contiguous(), v.dim(), v.numel(),
      v.element_size(), v.is_cuda, v.get_device())
print("version", y._version, v._version)
y.add_(1)
print("version after add_", y._version, v._version)
q = torch.zeros(2, dtype=torch.float32)
q.data = torch.ones(3, 1, dtype=torch.float64)
print("after .data", q.dtype, q.shape, q.stride(), q.device, q.is_contiguous(), q.tolist())
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.uint8, torch.int16, torch.int64,
           torch.bool):
    z = torch.zeros(2, 2, dtype=dt)
    print("dtype", dt, z.dtype, z.dtype is dt, z.is_floating_point(), z.device, z.device == torch.device("cpu"))

# factory sizes: plain ints taken as given, anything else converted or refused by the general loop
print("sizes", torch.zeros(2, 3).shape, torch.zeros((2, 3)).shape, torch.ones([4]).shape, torch.zeros(()).shape,
      torch.empty(torch.Size([1, 2])).shape, torch.ones(2, torch.tensor(3)).shape, torch.zeros(0, 5).shape)
attempt("zeros negative", lambda: torch.zeros(2, -1))

# size(dim) / stride(dim): plain ints in range read directly, everything else through wrap_dim's checks
s3 = torch.zeros(2, 3, 4)[:, 1:]
print("size/stride", s3.size(0), s3.size(-1), s3.size(-3), s3.stride(1), s3.stride(-1), s3.size(), s3.stride())
import numpy as np  # noqa: E402
print("numpy dims", s3.size(np.int64(1)), s3.stride(np.int32(-2)))
for label, fn in (("size(3)", lambda: s3.size(3)), ("size(-4)", lambda: s3.size(-4)), ("stride(3)", lambda: s3.stride(3))):
    attempt(label, fn)
z = torch.tensor(1.5)
for label, fn in (("0-dim size(0)", lambda: z.size(0)), ("0-dim stride(-1)", lambda: z.stride(-1)),
                  ("0-dim size(2)", lambda: z.size(2))):
    attempt(label, fn)

# registry ops called with keyword arguments: those naming the next positional parameters in order go to the
# kernel by position (registry.Op._plain_keywords); gaps, aliases and out= bind as before. Values, dtypes, grad_fn
# names and errors must match either way. (Left out, as bind words them differently from PyTorch 1.13's parser
# with or without the shortcut: sum(x, keepdim=True), sum(x, 1, dim=1), unknown names, x.sum(input=x), gather's
# float dim, x.add(other='a')'s position, x.log(out=o).)
kx = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
ki = torch.tensor([[0, 2], [1, 1]])
for label, fn in (
        ("sum(x, dim=2)", lambda: torch.sum(kx, dim=2)),
        ("sum(x, dim=(0, 2), keepdim=True)", lambda: torch.sum(kx, dim=(0, 2), keepdim=True)),
        ("sum(input=x, dim=1)", lambda: torch.sum(input=kx, dim=1)),
        ("sum(x, dim=1, dtype=float64)", lambda: torch.sum(kx, dim=1, dtype=torch.float64)),
        ("sum(x, axis=1)", lambda: torch.sum(kx, axis=1)),
        ("sum(x, dim=1, out=o)", lambda: torch.sum(kx.detach(), dim=1, out=torch.empty(0))),
        ("x.sum(dim=-1)", lambda: kx.sum(dim=-1)),
        ("x.sum(dim=1, keepdim=True)", lambda: kx.sum(dim=1, keepdim=True)),
        ("x.sum(dim=5)", lambda: kx.sum(dim=5)),
        ("x.mean(dim=0)", lambda: kx.mean(dim=0)),
        ("mean(x, dim=[1, 2])", lambda: torch.mean(kx, dim=[1, 2])),
        ("x.mean(keepdims=True, axis=1)", lambda: kx.mean(keepdims=True, axis=1)),
        ("gather(x, 1, index=i)", lambda: torch.gather(kx[0, :2], 1, index=ki)),
        ("gather(x, dim=1, index=i)", lambda: torch.gather(kx[0, :2], dim=1, index=ki)),
        ("add(x, other=2)", lambda: torch.add(kx, other=2)),
        ("add(x, other=x, alpha=2)", lambda: torch.add(kx, other=kx, alpha=2)),
        ("log(input=x)", lambda: torch.log(input=kx)),
):
    def run(fn=fn):
        r = fn()
        return (r, type(r.grad_fn).__name__ if r.grad_fn is not None else None) if isinstance(r, torch.Tensor) \
            else r
    try:
        r, node = run()
        print(label, r.dtype, tuple(r.shape), r.tolist(), node)
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(label, type(e).__name__, e)
