# F.embedding / nn.Embedding options against real PyTorch: max_norm (rows renormalised in place before the
# lookup, any norm_type), a negative padding_idx (wrapped; no gradient for its entries), scale_grad_by_freq
# (a row's gradient divided by its count in the batch): values, the weight after renorm, gradients, saved
# padding_idx.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


torch.manual_seed(0)
w = torch.randn(6, 3, dtype=torch.float64)
idx = torch.tensor([[1, 2, 1], [5, 0, 1]])
y = F.embedding(idx, w, max_norm=1.0)
print(r(y), r(w))
e = nn.Embedding(6, 3, max_norm=0.5, norm_type=1.0).double()
print(r(e(torch.tensor([0, 3, 3]))), r(e.weight))
e = nn.Embedding(6, 3, padding_idx=-2)
y = e(torch.tensor([4, 1, 4]))
print(e.padding_idx, y.grad_fn._saved_padding_idx)
y.sum().backward()
print(r(e.weight.grad))
w = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
y = F.embedding(torch.tensor([4, 1, 4]), w, padding_idx=-2)
print(y.grad_fn._saved_padding_idx)
(y * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum().backward()
print(r(w.grad))
w.grad = None
y = F.embedding(torch.tensor([[4, 1, 4], [1, 1, 0]]), w, scale_grad_by_freq=True)
print(y.grad_fn._saved_scale_grad_by_freq)
(y * torch.arange(18.0, dtype=torch.float64).reshape(2, 3, 3)).sum().backward()
print(r(w.grad))
w.grad = None
y = F.embedding(torch.tensor([[4, 1, 4], [1, 1, 0]]), w, padding_idx=1, scale_grad_by_freq=True)
(y * torch.arange(18.0, dtype=torch.float64).reshape(2, 3, 3)).sum().backward()
print(r(w.grad))
