# pack_padded_sequence's node as ATen makes it: PackPaddedSequenceBackward0 takes the caller's tensor itself (the
# batch_first transpose happens inside the op, so no TransposeBackward0 sits between them), saves batch_first,
# the input's own sizes and batch_sizes; its gradient is zeros of the input's size with each step's rows copied
# in (transposed back for batch_first), and the gradient of that gradient is the packing again under a CopySlices.
# Against real PyTorch: data, batch sizes, node names and next nodes, saved values, gradients and double backward,
# time-major and batch_first, sorted and enforce_sorted=False.
import torch
from torch import nn


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


def saved(fn):
    return sorted((a.replace("_sym_", "_"), str(getattr(fn, a))) for a in dir(fn) if a.startswith("_saved_"))


torch.manual_seed(1)
for batch_first in (False, True):
    for enforce_sorted, lengths in ((True, [4, 3, 3, 1]), (False, [2, 4, 1, 3])):
        x = torch.randn(4, 4, 3, requires_grad=True)
        p = nn.utils.rnn.pack_padded_sequence(x, torch.tensor(lengths), batch_first=batch_first,
                                              enforce_sorted=enforce_sorted)
        fn = p.data.grad_fn
        print(batch_first, enforce_sorted, r(p.data), p.batch_sizes.tolist(), tuple(p.data.shape), p.data.stride())
        print("  node", type(fn).__name__, [type(n).__name__ for n, _ in fn.next_functions], saved(fn))
        g = torch.randn(p.data.shape, requires_grad=True)
        gx, = torch.autograd.grad(p.data, x, g, create_graph=True)
        print("  grad", r(gx), tuple(gx.shape), type(gx.grad_fn).__name__ if gx.grad_fn else None)
        gg, = torch.autograd.grad((gx * torch.arange(48.0).reshape(4, 4, 3)).sum(), g)
        print("  double", r(gg))
with torch.no_grad():
    p = nn.utils.rnn.pack_padded_sequence(torch.ones(3, 2, 2, requires_grad=True), torch.tensor([3, 2]))
    print("no_grad", p.data.grad_fn, p.data.requires_grad, tuple(p.data.shape))
