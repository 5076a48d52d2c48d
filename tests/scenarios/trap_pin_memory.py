# SEMANTICS 2 and 8: pin_memory() returns a NEW tensor on the CPU in page-locked memory (or the tensor itself
# if already pinned); it never moves anything to a GPU, and pinned host memory is not counted by
# memory_allocated(). CUDA tensors are never pinned.
import torch

t = torch.arange(4.)
print(t.is_pinned())
p = t.pin_memory()
print(p is t, p.device, p.is_pinned(), t.is_pinned())
print(p.pin_memory() is p, torch.equal(p, t), p.data_ptr() != t.data_ptr())
print(torch.cuda.memory_allocated())
c = p.to('cuda', non_blocking=True)
print(c.device, c.is_pinned())
torch.cuda.synchronize()
print(c)
print(torch.cuda.memory_allocated())
e = torch.empty(3, pin_memory=True)
print(e.is_pinned(), e.device)
z = torch.zeros(2, 2).pin_memory()
print(z.device, z.is_pinned(), z.t().is_pinned(), z[0].is_pinned())
print(t.cuda(non_blocking=True).device, c.cpu().is_pinned(), c.to('cpu', non_blocking=True).is_pinned())
