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
# A fresh tensor made by a copy starts at version 0 (ATen's _to_copy / clone copy below the autograd layer); copy_
# into an existing tensor is an in-place write
z = torch.randn(3, 4)
print(z.float()._version, z.double()._version, z.int().float()._version, z.t().contiguous()._version,
      z.clone()._version, z.t().clone()._version, (z > 0).float()._version, z.to(torch.float16)._version)
w = torch.zeros(3, 4)
print(w.copy_(z)._version, w.t().copy_(z.t())._version, w._version)
