# torch.diag under autograd (it had none: the result never required grad): gradients of the vector -> matrix
# and matrix -> diagonal forms, offsets, double backward. grad_fn names differ between 1.13 (DiagBackward0) and
# 2.x (DiagEmbedBackward0 / DiagonalBackward0_copy, what DeviceScope names), so they are not printed here.
import torch
x = torch.arange(1., 4., requires_grad=True)
for k in (0, 1, -2):
    d = torch.diag(x, k)
    (d * torch.arange(float(d.numel())).reshape(d.shape)).sum().backward()
    print(k, d.shape, x.grad.tolist()); x.grad = None
m = torch.arange(12.).reshape(3, 4).requires_grad_()
for k in (0, 1, -1, -3):
    y = torch.diag(m, k)
    (y * 2).sum().backward() if y.numel() else None
    print(k, y.tolist(), m.grad.tolist() if m.grad is not None else None); m.grad = None
g, = torch.autograd.grad(torch.diag(x).pow(2).sum(), x, create_graph=True)
print(g.tolist(), torch.autograd.grad(g.sum(), x)[0].tolist())
try:
    torch.diag(torch.ones(2, 2, 2))
except RuntimeError as e:
    print("error")
