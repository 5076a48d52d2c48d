# An optimizer built before a module conversion still holds the same Parameter objects.
import torch
import torch.nn as nn

m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
m.double()
print([p.dtype for p in opt.param_groups[0]['params']])
print(all(a is b for a, b in zip(opt.param_groups[0]['params'], m.parameters())))
with torch.no_grad():
    m.weight.fill_(1.)
    m.bias.fill_(0.)
m(torch.tensor([[1., 2.]], dtype=torch.float64)).sum().backward()
opt.step()
print(m.weight, m.bias)
print(m.weight.grad.dtype)
