# Module.to only accepts floating point or complex dtypes.
import torch
import torch.nn as nn

m = nn.Linear(2, 2)
for dt in (torch.int64, torch.int32, torch.bool, torch.uint8, torch.int8, torch.int16):
    try:
        m.to(dt)
        print(dt, 'ok')
    except TypeError as e:
        print(type(e).__name__, e)
try:
    m.to('cpu', torch.long)
except TypeError as e:
    print(type(e).__name__, e)
try:
    m.to(dtype=torch.long)
except TypeError as e:
    print(type(e).__name__, e)
print(m.weight.dtype)
# a tensor argument supplies dtype and device; an integer tensor is refused the same way
try:
    m.to(torch.zeros(1, dtype=torch.long))
except TypeError as e:
    print(type(e).__name__, e)
print(m.to(torch.zeros(1, dtype=torch.float64)) is m, m.weight.dtype)
