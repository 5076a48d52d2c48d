# .detach() and .data share storage; detach shares the version counter, .data does not.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
d = y.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn, d.data_ptr() == y.data_ptr())
dd = y.data
print(dd.requires_grad, dd.is_leaf, dd.data_ptr() == y.data_ptr())
v0 = y._version
d.add_(1)
print(y._version - v0, y)
v1 = y._version
dd.add_(1)
print(y._version - v1, y)
p = torch.zeros(3, requires_grad=True)
p.data = torch.ones(5)
print(p, p.shape, p.requires_grad, p.is_leaf)
try:
    p.data = [1, 2]
except Exception as e:
    print(type(e).__name__, e)
print(x.detach() is x, x.data is x)
print(type(x.data).__name__, type(x.detach()).__name__)
z = x * 3
z.detach_()
print(z.requires_grad, z.grad_fn, z.is_leaf)
