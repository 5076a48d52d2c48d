# .data, .detach() and views taken from a parameter keep the old storage and dtype after a conversion.
import torch
import torch.nn as nn

m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(6.).reshape(2, 3))
p = m.weight
d = p.data
det = p.detach()
row = p[0]
sl = p[:, 1:]
old_ptr = p.data_ptr()
m.double()
print(p.dtype, d.dtype, det.dtype, row.dtype, sl.dtype)
print(p.data_ptr() == old_ptr, d.data_ptr() == old_ptr, det.data_ptr() == old_ptr)
print(row.requires_grad, row.grad_fn is not None, sl.is_leaf)
with torch.no_grad():
    p.add_(100)
print(d)
print(det)
print(row.detach())
print(p)
d.fill_(-1)
print(det[0], p[0].detach())
