# SEMANTICS 3: buffers are rebound to new tensors by Module.to (old references stay on the CPU), while
# parameters keep their identity; num_batches_tracked (int64) moves too - a device move moves every dtype.
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(3)
rm = bn.running_mean
w = bn.weight
saved = [bn.running_mean, bn.running_var, bn.num_batches_tracked]
bn.to('cuda')
print(bn.running_mean.device, rm.device, rm is bn.running_mean)
print(w is bn.weight, w.device)
print([str(t.device) for t in saved])
print(bn.num_batches_tracked.device, bn.num_batches_tracked.dtype)
print([str(b.device) for b in bn.buffers()])
bn(torch.ones(4, 3, device='cuda'))
print(bn.num_batches_tracked, rm)
bn.half()
print(bn.running_mean.dtype, bn.num_batches_tracked.dtype, bn.running_mean.device)
