# SEMANTICS 3 and 9: handles taken from a parameter before the move (.data, .detach(), views) keep pointing at
# the old CPU storage; views of a tensor do not follow a copy of it to the GPU.
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
d = lin.weight.data
det = lin.weight.detach()
row = lin.weight[0]
lin.cuda()
print(lin.weight.device, d.device, det.device, row.device)
print(d.data_ptr() == det.data_ptr(), d.data_ptr() != lin.weight.data_ptr())
base = torch.arange(6.).reshape(2, 3).clone()
view = base[0]
moved = base.to('cuda')
print(moved.device, base.device, view.device, view._base is base)
view.fill_(-1)
print(base[0], moved[0])
