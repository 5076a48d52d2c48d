# nn.Parameter: subclass of Tensor sharing its data's storage; repr; results of ops are plain tensors.
import torch
import torch.nn as nn

t = torch.tensor([1., 2.])
p = nn.Parameter(t)
print(p)
print(isinstance(p, torch.Tensor), isinstance(p, nn.Parameter), type(p).__name__)
print(p.requires_grad, p.is_leaf, p.grad, p.grad_fn)
print(p.data_ptr() == t.data_ptr(), p is t)
t[0] = 10.
print(p)
print(type(p * 2).__name__, type(p.data).__name__, type(p.detach()).__name__, type(p[0]).__name__)
q = nn.Parameter(torch.zeros(2), requires_grad=False)
print(q, q.requires_grad)
print(nn.Parameter())
print(torch.typename(p), p.type(), p.dtype, p.shape)
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(repr(nn.Parameter(torch.tensor(3.))))
print(nn.Parameter(torch.ones(2, dtype=torch.float64)))
