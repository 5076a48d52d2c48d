# SEMANTICS 3: Module.to only accepts floating point or complex dtypes; the check happens before anything
# moves, so a failed model.to('cuda', torch.int64) leaves everything on the CPU.
import torch
import torch.nn as nn

model = nn.Linear(2, 2)
try:
    model.to('cuda', torch.int64)
except TypeError as e:
    print(type(e).__name__ + ':', e)
print(model.weight.device, model.weight.dtype)
model.to('cuda', torch.float16)
print(model.weight.device, model.weight.dtype)
model.to(torch.int64)
