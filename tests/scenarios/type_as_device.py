# Tensor.type_as(other) is self.to(other.options()): it takes other's dtype and device (index included), and
# returns self when both already match.
import torch

idx = torch.zeros(2, dtype=torch.int64, device="cuda:1")
a = torch.ones(1, 1).type_as(idx)
print(a, a.dtype, a.device)
b = torch.ones(3, device="cuda:0").type_as(torch.zeros(1, dtype=torch.float16))
print(b.device, b.dtype)
c = torch.ones(2)
print(c.type_as(torch.zeros(1)) is c)
