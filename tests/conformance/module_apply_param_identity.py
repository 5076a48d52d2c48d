# Parameters keep their identity across conversions (param.data = fn(param)); references follow.
import torch
import torch.nn as nn

m = nn.Linear(4, 3)
w = m.weight
b = m.bias
params_before = list(m.parameters())
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m.double()
print(w is m.weight, b is m.bias)
print(w.dtype, b.dtype)
print([p is q for p, q in zip(params_before, m.parameters())])
print(opt.param_groups[0]['params'][0] is m.weight)
print(opt.param_groups[0]['params'][0].dtype)
print(type(m.weight).__name__, m.weight.requires_grad, m.weight.is_leaf)
m.half()
print(w is m.weight, w.dtype)
m.to(torch.float32)
print(w is m.weight, w.dtype, m.weight.shape)
