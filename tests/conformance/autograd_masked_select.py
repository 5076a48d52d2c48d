# masked_select: values, grad_fn name and the gradient through it (with a broadcast input), against real PyTorch.
import torch
x = torch.arange(6, dtype=torch.float32).reshape(2, 3).requires_grad_(True)
m = torch.tensor([[True, False, True], [False, True, True]])
y = x.masked_select(m)
print(y, y.grad_fn.__class__.__name__)
(y * torch.arange(4.)).sum().backward()
print(x.grad)
b = torch.ones(3, requires_grad=True)
torch.masked_select(b, m).sum().backward()
print(b.grad)
