# copy.deepcopy of a module: new Parameter objects with equal values; tied weights stay tied in the copy.
import copy
import torch
import torch.nn as nn

m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
m[1].weight = m[0].bias
c = copy.deepcopy(m)
print(c is m, c[0] is m[0], c[0].weight is m[0].weight)
print(torch.equal(c[0].weight, m[0].weight), c[0].weight.data_ptr() == m[0].weight.data_ptr())
print(type(c[0].weight).__name__, c[0].weight.requires_grad)
print(c[1].weight is c[0].bias)
print(torch.equal(c[1].running_mean, m[1].running_mean), c[1].running_mean is m[1].running_mean)
c.double()
print(m[0].weight.dtype, c[0].weight.dtype)
print(c)
t = torch.tensor([1., 2.], requires_grad=True)
tc = copy.deepcopy(t)
print(tc, tc is t, tc.requires_grad, tc.is_leaf)
