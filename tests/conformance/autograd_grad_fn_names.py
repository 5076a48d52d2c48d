# Leaf status, requires_grad propagation and grad_fn class names of common ops.
import torch
import torch.nn.functional as F

a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)
c = torch.tensor([[1., 1.], [1., 1.]])
print(a.is_leaf, a.requires_grad, a.grad_fn, c.is_leaf, c.requires_grad)
ops = {
    'add': a + b, 'sub': a - b, 'mul': a * b, 'div': a / b, 'neg': -a, 'pow': a ** 2,
    'add_scalar': a + 1, 'mul_scalar': a * 3, 'rsub': 1 - a, 'exp': a.exp(), 'log': a.log(),
    'sqrt': a.sqrt(), 'abs': a.abs(), 'tanh': a.tanh(), 'sigmoid': a.sigmoid(), 'relu': a.relu(),
    'F.relu': F.relu(a), 'softmax': F.softmax(a, dim=1), 'log_softmax': F.log_softmax(a, dim=1),
    'sum': a.sum(), 'sum_dim': a.sum(dim=0), 'mean': a.mean(), 'max': a.max(), 'amax': a.amax(dim=1),
    'mm': a.mm(b), 'matmul': a @ b, 't': a.t(), 'view': a.view(4), 'transpose': a.transpose(0, 1),
    'permute': a.permute(1, 0), 'unsqueeze': a.unsqueeze(0), 'expand': a[0:1].expand(3, 2),
    'select': a[0], 'slice': a[:, 1:], 'index': a[torch.tensor([1, 0])], 'clone': a.clone(),
    'cat': torch.cat([a, b]), 'stack': torch.stack([a, b]), 'where': torch.where(c > 0, a, b),
    'clamp': a.clamp(min=2.), 'linear': F.linear(a, b), 'linear_nobias': F.linear(a, b, None),
    'linear_bias': F.linear(a, b, torch.ones(2)), 'mixed': a * c, 'to_double': a.double(),
}
for name, t in ops.items():
    print(name, type(t.grad_fn).__name__, t.requires_grad, t.is_leaf)
print([type(t.grad_fn).__name__ for t in a.split(1)], [type(t.grad_fn).__name__ for t in a.unbind()])
print(type((c + c).grad_fn).__name__, (c + c).requires_grad)
with torch.no_grad():
    print((a * 2).grad_fn, (a * 2).requires_grad)
print((a * b).grad_fn.next_functions[0][0].__class__.__name__, len((a * b).grad_fn.next_functions))
print(a.grad_fn is None, (a * 2).sum().grad_fn.name())
