# Autograd through Tensor.to: a real copy is not a leaf; a no-op returns the same leaf.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.is_leaf, x.grad_fn)
y = x.to(torch.float64)
print(y.is_leaf, y.requires_grad, type(y.grad_fn).__name__)
print(y)
same = x.to(torch.float32)
print(same is x, same.is_leaf)
with torch.no_grad():
    z = x.to(torch.float64)
print(z.requires_grad, z.is_leaf, z.grad_fn)
(y * y).sum().backward()
print(x.grad, x.grad.dtype)
d = x.detach().to(torch.float64)
print(d.requires_grad, d.is_leaf)
c = x.double()
print(type(c.grad_fn).__name__, c.grad_fn.next_functions[0][0].__class__.__name__)
h = x.half()
print(h.dtype, type(h.grad_fn).__name__)
