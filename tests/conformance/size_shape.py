# torch.Size behaviour, shape queries and shape errors.
import torch

x = torch.zeros(2, 3, 4)
print(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndim, len(x), x.numel())
print(type(x.shape).__name__, isinstance(x.shape, tuple), x.shape == (2, 3, 4), x.shape[1:], type(x.shape[1:]).__name__)
print(torch.Size([2, 3]), torch.Size(), torch.Size([5]).numel(), list(x.shape))
print(torch.zeros(()).shape, torch.tensor(3.).dim(), torch.zeros(0, 3).shape, torch.zeros(0, 3).numel())
print(x.view(6, 4).shape, x.view(-1).shape, x.view(2, -1).shape, x.reshape(4, -1).shape)
print(x.flatten().shape, x.flatten(1).shape, x.unsqueeze(1).shape, x.unsqueeze(-1).shape)
print(torch.zeros(1, 3, 1).squeeze().shape, torch.zeros(1, 3, 1).squeeze(0).shape)
print(x.transpose(0, 2).shape, x.permute(2, 0, 1).shape, x.t().shape if x.dim() <= 2 else 'n/a')
print(x.expand(3, 2, 3, 4).shape, torch.zeros(3, 1).expand(3, 5).shape, torch.zeros(3, 1).expand(-1, 2).shape)
for fn, label in [(lambda: x.view(5, -1), 'view'), (lambda: x.reshape(7), 'reshape'),
                  (lambda: x.view(-1, -1), 'two -1'), (lambda: torch.zeros(2, 3).t().view(6), 'view non-contig'),
                  (lambda: x.size(3), 'size(3)'), (lambda: x.t(), 't 3d'),
                  (lambda: torch.zeros(2, 3).expand(3, 3), 'expand')]:
    try:
        fn()
        print(label, 'ok')
    except (RuntimeError, IndexError) as e:
        print(label, type(e).__name__, e)
