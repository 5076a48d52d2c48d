# Python operators with operands that are not tensors or numbers (issue 17's small gaps): PyTorch's operators
# decline lists, tuples, strings and None, so Python raises its own TypeError (or compares by identity for
# ==); a floating alpha cannot scale an integral result; torch.rsub exists.
import torch

x = torch.ones(2)
for op in ['x * [1, 2]', 'x - (1, 2)', '[1, 2] + x', 'x + None', 'x + "a"', 'x == [1, 2]', 'x != (1,)', 'x < [1, 2]',
           'x ** None', 'x @ [1, 2]', 'torch.rsub(x, 2, alpha=3)', 'torch.rsub(x, torch.ones(2) * 5)', 'x - True',
           'torch.ones(3, dtype=torch.int32).sub(1, alpha=0.5)', 'torch.ones(3, dtype=torch.int64).add(2, alpha=0.5)',
           'torch.ones(3, dtype=torch.int32).add(torch.ones(3), alpha=0.5)',
           'torch.ones(3, dtype=torch.bool).add(torch.ones(3, dtype=torch.bool), alpha=2)',
           'torch.ones(2, 3).t() + torch.ones(2, 3).t()', 'torch.relu(torch.tensor([-0.0]))']:
    try:
        r = eval(op)
        print(op, '->', r, r.stride() if isinstance(r, torch.Tensor) else '')
    except Exception as e:
        print(op, '->', type(e).__name__, e)
