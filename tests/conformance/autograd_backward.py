# backward() fills .grad of leaves, accumulates, frees the graph; errors on misuse.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([0.5, -1., 2.], requires_grad=True)
y = (x * w).sum()
print(x.grad, w.grad)
y.backward()
print(x.grad, w.grad)
(x * w).sum().backward()
print(x.grad)
x.grad = None
z = (x ** 2).mean()
z.backward()
print(x.grad)
y2 = (x * 2).sum()
y2.backward(retain_graph=True)
y2.backward()
print(x.grad)
y3 = (x * x).sum()
y3.backward()
try:
    y3.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    (x * 2).backward()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([1., 2.]).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
x.grad = None
(x * 2).backward(torch.tensor([1., 0., -1.]))
print(x.grad)
h = x * 3
h.retain_grad()
h.sum().backward()
print(h.grad, h.is_leaf)
g = torch.autograd.grad((x * x).sum(), x)
print(type(g).__name__, g[0])
