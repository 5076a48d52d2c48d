# topk against real PyTorch: values and indices along every dim, largest and smallest, k from 0 to the size,
# NaN ranked above every number (first when largest, last when smallest), integer and bool-free dtypes, the result
# layout (contiguous, even along a transposed dim), TopkBackward0 with what it saves (not a clone of a sort),
# gradients, no_grad, 0-dim input and the k error. Ties are left out: PyTorch's CPU kernel breaks them by its
# partial sort, which is not specified.
import torch


def node(y):
    fn = y.grad_fn
    return (type(fn).__name__ if fn is not None else None,
            sorted(a.replace("_sym_", "_") for a in dir(fn) if a.startswith("_saved_")) if fn is not None else [])


torch.manual_seed(3)
x = torch.randperm(60).float().reshape(3, 4, 5) / 7 - 4
for dim in (0, 1, 2, -1):
    for k in (0, 1, 2, x.shape[dim]):
        for largest in (True, False):
            v, i = torch.topk(x, k, dim=dim, largest=largest)
            print(dim, k, largest, v.tolist(), i.tolist(), tuple(v.shape), v.stride(), i.stride(), i.dtype)

t = x.transpose(0, 2)
v, i = t.topk(2, dim=1)
print("transposed", v.tolist(), i.tolist(), v.stride(), v.is_contiguous())

n = torch.tensor([[1.0, float("nan"), 3.0, -2.0], [float("nan"), 5.0, float("inf"), float("-inf")]])
for largest in (True, False):
    v, i = n.topk(3, largest=largest)
    print("nan", largest, v.tolist(), i.tolist())
    v, i = n.topk(2, dim=0, largest=largest)
    print("nan dim0", largest, v.tolist(), i.tolist())

ints = torch.tensor([[5, -9, 3, 7], [0, 2, -1, 8]], dtype=torch.int64)
print("int64", ints.topk(2).values.tolist(), ints.topk(2).indices.tolist(), ints.topk(3, largest=False))
print("int32", ints.int().topk(1, dim=0))
print("float64", x.double()[0].topk(3, dim=1, largest=False))

w = x.clone().requires_grad_()
v, i = w.topk(2, dim=1)
print("node", node(v), i.grad_fn, v.requires_grad, i.requires_grad)
(v * torch.arange(1.0, 7.0).reshape(3, 2, 1)).sum().backward()
print("grad", w.grad.tolist())
w.grad = None
v, i = w.topk(3, largest=False)
v.pow(2).sum().backward()
print("grad smallest", [round(g, 4) for g in w.grad.flatten().tolist()])
with torch.no_grad():
    v, i = w.topk(1)
    print("no_grad", v.grad_fn, v.requires_grad)
r = torch.topk(w, 2, 0, True, True)
print("positional", type(r).__name__, node(r.values), r.indices.tolist())

s = torch.tensor(2.5, requires_grad=True)
v, i = s.topk(1)
print("0-dim", v.item(), i.item(), tuple(v.shape), tuple(i.shape))
print("0-dim k=0", torch.tensor(2.5).topk(0))
for bad in (6, -1):
    try:
        x.topk(bad)
    except RuntimeError as e:
        print("error", bad, e)
