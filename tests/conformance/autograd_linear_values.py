# A Linear layer with fixed weights: forward values, loss, backward values.
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 0., -1.], [0.5, 0.5, 0.5]]))
    lin.bias.copy_(torch.tensor([0.25, -0.25]))
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
out = lin(x)
print(out)
loss = ((out - torch.tensor([[0., 1.], [1., 0.]])) ** 2).mean()
print(loss)
loss.backward()
print(lin.weight.grad)
print(lin.bias.grad)
print(x.grad)
x.requires_grad_()
lin.zero_grad(set_to_none=False)
print(lin.weight.grad)
out2 = lin(x).sum()
out2.backward()
print(x.grad)
print(lin.weight.grad, lin.bias.grad)
