# Seed 004 mentions "torch.nn.Module.to with memory_format=torch.memory_format.AUTO" for automatic device
# inference. No such member exists; the real memory formats are listed below.
import torch
import torch.nn as nn

model = nn.Linear(2, 2)
try:
    model.to(memory_format=torch.memory_format.AUTO)
except AttributeError as e:
    print(type(e).__name__, e)
print(torch.contiguous_format, torch.channels_last, torch.preserve_format, type(torch.channels_last))
print(model.to(memory_format=torch.channels_last) is model, model.weight.device)
conv = nn.Conv2d(2, 4, 3)
conv.to(memory_format=torch.channels_last)
print(conv.weight.is_contiguous(), conv.weight.is_contiguous(memory_format=torch.channels_last))
print(conv.weight.stride())
