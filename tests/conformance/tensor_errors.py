# Common shape errors of elementwise and matrix ops.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, 'ok')
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(label, type(e).__name__, e)

a = torch.ones(2, 3)
attempt('broadcast', lambda: a + torch.ones(2, 4))
attempt('broadcast3', lambda: torch.ones(2, 3, 4) * torch.ones(3, 3, 4))
attempt('mm', lambda: a.mm(a))
attempt('matmul', lambda: a @ torch.ones(2, 5))
attempt('mm 1d', lambda: a.mm(torch.ones(3)))
attempt('index', lambda: a[5])
attempt('index dim', lambda: a[0, 0, 0])
attempt('cat', lambda: torch.cat([a, torch.ones(3, 2)]))
attempt('stack', lambda: torch.stack([a, torch.ones(3, 2)]))
attempt('view', lambda: a.view(4))
attempt('sum dim', lambda: a.sum(2))
attempt('linear', lambda: torch.nn.Linear(4, 2)(a))
attempt('tensor ragged', lambda: torch.tensor([[1, 2], [3]]))
attempt('inplace broadcast', lambda: torch.ones(3).add_(torch.ones(2, 3)))
