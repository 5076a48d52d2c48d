# .grad is converted with its parameter and keeps its identity.
import torch
import torch.nn as nn

m = nn.Linear(2, 1)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1., 2.]]))
    m.bias.fill_(0.5)
out = m(torch.tensor([[1., 1.], [2., 3.]])).sum()
out.backward()
g = m.weight.grad
gb = m.bias.grad
print(g)
print(gb)
m.double()
print(g is m.weight.grad, gb is m.bias.grad)
print(m.weight.grad.dtype, g.dtype)
print(m.weight.grad)
print(m.weight.grad.requires_grad, m.weight.grad.is_leaf)
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.weight.grad is g)
m.zero_grad(set_to_none=True)
print(m.weight.grad, m.bias.grad)
