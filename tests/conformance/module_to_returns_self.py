# Module conversions (to/float/double/half/bfloat16/type/cpu) all go through _apply and return self.
import torch
import torch.nn as nn

m = nn.Linear(3, 2)
alias = m
print(m.double() is m)
print(m.weight.dtype, alias.bias.dtype)
print(m.float() is m)
print(m.weight.dtype)
print(m.half() is m)
print(m.weight.dtype, m.bias.dtype)
print(m.bfloat16() is m)
print(m.weight.dtype)
print(m.to(torch.float64) is m)
print(m.weight.dtype)
print(m.to(dtype=torch.float32) is m)
print(m.weight.dtype)
print(m.to('cpu') is m)
print(m.to(torch.device('cpu')) is m)
print(m.to('cpu', torch.float64) is m)
print(m.weight.dtype, m.weight.device)
print(m.cpu() is m)
print(m.type(torch.float32) is m)
print(m.weight.dtype)
print(m.to(torch.zeros(1, dtype=torch.float16)) is m)
print(m.weight.dtype)
print(m.train() is m, m.eval() is m, m.requires_grad_(False) is m)
print(m.training, m.weight.requires_grad, m.bias.requires_grad)
