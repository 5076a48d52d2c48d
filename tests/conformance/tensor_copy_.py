# copy_ writes in place (into views too), converts dtypes, broadcasts, and returns the destination.
import torch

dst = torch.zeros(2, 3)
src = torch.arange(6).reshape(2, 3)
r = dst.copy_(src)
print(r is dst, dst, dst.dtype)
dst[0].copy_(torch.tensor([9., 8., 7.]))
print(dst)
dst.copy_(torch.tensor([1., 2., 3.]))
print(dst)
dst[:, 1].copy_(torch.tensor(5.))
print(dst)
i = torch.zeros(3, dtype=torch.int32)
i.copy_(torch.tensor([1.9, -1.9, 2.5]))
print(i)
b = torch.zeros(2, dtype=torch.bool)
b.copy_(torch.tensor([0., 3.]))
print(b)
try:
    dst.copy_(torch.ones(4))
except RuntimeError as e:
    print(type(e).__name__, e)
leaf = torch.zeros(2, requires_grad=True)
try:
    leaf.copy_(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
with torch.no_grad():
    leaf.copy_(torch.ones(2))
print(leaf)
a = torch.zeros(3, requires_grad=True)
nl = a * 1
nl.copy_(torch.tensor([1., 2., 3.]))
print(type(nl.grad_fn).__name__)
try:
    leaf.add_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
