# Buffers are rebound to new tensors by _apply; earlier references keep the old tensor.
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(3)
rm = bn.running_mean
rv = bn.running_var
nbt = bn.num_batches_tracked
held = [bn.running_mean, bn.running_var]
bn.double()
print(rm is bn.running_mean, rv is bn.running_var)
print(rm.dtype, bn.running_mean.dtype)
print([t.dtype for t in held])
print(nbt is bn.num_batches_tracked, nbt.dtype)
print(bn.weight.dtype, bn.bias.dtype)
rm2 = bn.running_mean
bn.to(torch.float64)
print(rm2 is bn.running_mean)
bn.to(torch.float32)
print(rm2 is bn.running_mean, rm2.dtype, bn.running_mean.dtype)
print([name for name, _ in bn.named_buffers()])
print(bn.running_mean)
print(bn.running_var)
print(bn.num_batches_tracked)
