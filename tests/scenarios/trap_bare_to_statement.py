# SEMANTICS 2: `x.to('cuda')` as a bare statement changes nothing about x; the copy it makes is freed at once
# (its 512-byte block goes back to the cache, which keeps the 2 MiB segment reserved).
import torch

x = torch.arange(4.)
x.to('cuda')
print(x.device)
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
x.cuda()
x.to('cuda', non_blocking=True)
print(x.device, torch.cuda.memory_allocated())
x = x.to('cuda')
print(x.device, torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
print(x)
