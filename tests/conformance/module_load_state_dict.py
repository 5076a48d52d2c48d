# load_state_dict copies values into the existing tensors (identity kept); strict errors name the keys.
import torch
import torch.nn as nn

src = nn.Linear(2, 2)
dst = nn.Linear(2, 2)
with torch.no_grad():
    src.weight.copy_(torch.tensor([[1., 2.], [3., 4.]]))
    src.bias.copy_(torch.tensor([0.5, -0.5]))
w = dst.weight
result = dst.load_state_dict(src.state_dict())
print(result)
print(w is dst.weight)
print(dst.weight)
print(dst.bias)
sd = src.state_dict()
del sd['bias']
try:
    dst.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)
sd = src.state_dict()
sd['extra'] = torch.zeros(1)
try:
    dst.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)
r = dst.load_state_dict(sd, strict=False)
print(r.missing_keys, r.unexpected_keys)
sd = {'weight': torch.zeros(3, 2), 'bias': torch.zeros(2)}
try:
    dst.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)
d64 = nn.Linear(2, 2).double()
d64.load_state_dict(src.state_dict())
print(d64.weight.dtype, d64.weight)
