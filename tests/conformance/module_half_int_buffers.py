# Dtype conversions only touch floating-point tensors; Module.type() converts everything.
import torch
import torch.nn as nn

bn = nn.BatchNorm2d(2)
bn.register_buffer('mask', torch.tensor([True, False]))
bn.register_buffer('index', torch.tensor([1, 2], dtype=torch.int32))
nbt = bn.num_batches_tracked
mask = bn.mask
bn.half()
for name, buf in bn.named_buffers():
    print(name, buf.dtype)
print(bn.num_batches_tracked is nbt, bn.mask is mask)
bn.to(torch.float64)
print([b.dtype for b in bn.buffers()])
print(bn.num_batches_tracked is nbt, bn.mask is mask)
bn.bfloat16()
print([b.dtype for b in bn.buffers()], bn.weight.dtype)
bn.float()
print([b.dtype for b in bn.buffers()])
bn.type(torch.float64)
print([b.dtype for b in bn.buffers()])
print(bn.num_batches_tracked is nbt, bn.num_batches_tracked)
print(bn.mask)
