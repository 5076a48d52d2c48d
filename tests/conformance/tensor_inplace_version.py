# In-place ops bump the version counter shared by views; in-place on tensors needed for backward fails.
import torch

x = torch.zeros(3)
v = x[1:]
print(x._version, v._version)
x.add_(1)
print(x._version, v._version)
v.mul_(2)
print(x._version, v._version, x)
x[0] = 5
print(x._version, x)
x.zero_()
print(x._version)
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
c = b.pow(2)
b.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(';')[0])
y = torch.ones(2)
r = y.add_(1)
print(r is y, y.add(1) is y, y.clamp_(max=1.5) is y, y)
print(y.fill_(3) is y, y.zero_() is y, y.copy_(torch.ones(2)) is y, y.mul_(4) is y, y)
