# Non-reentrant checkpoint frees a region's memory when its graph goes, with the cyclic collector off, as PyTorch
# does: the frame and the nodes it drops the saved tensors of hold each other weakly (strong references made a
# cycle, and 16 KiB per step waited for the collector).
import gc

import torch
from torch.utils.checkpoint import checkpoint

gc.disable()
lin = torch.nn.Linear(64, 64, device="cuda")


def block(x):
    return torch.relu(lin(x)).sin()


held = []
for step in range(4):
    x = torch.randn(32, 64, device="cuda", requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False)
    y.sum().backward()
    del x, y
    held.append(torch.cuda.memory_allocated())
print("growth per step after the first:", [b - a for a, b in zip(held, held[1:])])
x = torch.randn(32, 64, device="cuda", requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
before = torch.cuda.memory_allocated()
del y  # dropped before backward: the region's graph and saves go at once
print("freed by dropping the output:", before - torch.cuda.memory_allocated())
