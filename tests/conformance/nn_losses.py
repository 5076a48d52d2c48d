# Loss functions on fixed inputs with exactly representable results.
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([[1., 2.], [3., 4.]])
target = torch.tensor([[1., 0.], [5., 4.]])
print(nn.MSELoss()(pred, target), F.mse_loss(pred, target, reduction='sum'))
print(F.mse_loss(pred, target, reduction='none'))
print(F.l1_loss(pred, target))
logits = torch.zeros(2, 4)
labels = torch.tensor([1, 3])
print(nn.CrossEntropyLoss()(logits, labels))
print(F.cross_entropy(torch.tensor([[0., 0.]]), torch.tensor([0]), reduction='sum'))
print(F.nll_loss(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([1, 0])))
x = torch.tensor([[2., 0.]], requires_grad=True)
loss = F.mse_loss(x, torch.zeros(1, 2))
loss.backward()
print(loss, x.grad)
print(type(loss.grad_fn).__name__)
