# Tensor.to never changes the tensor it is called on; a bare statement has no effect.
import torch

x = torch.tensor([1.5, 2.5, -3.5])
x.to(torch.float64)
print(x.dtype)
x.double()
print(x.dtype)
x.int()
print(x)
y = x.to(torch.float64)
print(y, y.dtype)
y[0] = 100
print(x)
print(y.data_ptr() == x.data_ptr())
z = x.to(torch.float32, copy=True)
z[1] = -1
print(x, z)
print(x.to(torch.int32))
print(x.to(torch.int64), x.to(torch.bool))
print(torch.tensor([0.0, -0.0, 0.1]).bool())
print(torch.tensor([255, 256, -1]).to(torch.uint8))
print(torch.tensor([1.7, -1.7]).long())
print(torch.tensor([True, False]).float())
