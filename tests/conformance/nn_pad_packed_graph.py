# pad_packed_sequence as ATen's _pad_packed_sequence builds it: a full() output and one slice copy per run of steps
# with the same batch size, so the result's history is a chain of CopySlices nodes, each over the previous one and
# the block's ViewBackward0 -> SliceBackward0 of the packed data. Against real PyTorch: the padded values and
# lengths, the node chain, gradients reaching the packed data (and the padded input), batch_first, total_length,
# enforce_sorted=False (the index_select back to the caller's order), a padding value, no_grad and double backward.
import torch
from torch import nn


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


def chain(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 12:
        return out
    out.append("  " * depth + type(fn).__name__)
    for n, _ in fn.next_functions:
        chain(n, depth + 1, out)
    return out


torch.manual_seed(2)
for batch_first, total, sort, lengths in ((False, None, True, [4, 3, 3, 1]), (True, 6, True, [3, 3, 2, 2]),
                                          (False, None, False, [2, 4, 1, 3]), (True, None, False, [1, 1, 1, 1])):
    x = torch.randn(4, 4, 2, requires_grad=True)
    inp = x.transpose(0, 1) if batch_first else x
    p = nn.utils.rnn.pack_padded_sequence(inp, torch.tensor(lengths), batch_first=batch_first, enforce_sorted=sort)
    y, ln = nn.utils.rnn.pad_packed_sequence(p, batch_first=batch_first, padding_value=-1.5, total_length=total)
    print(batch_first, total, sort, r(y), tuple(y.shape), y.stride(), ln.tolist(), ln.dtype)
    print("\n".join(chain(y.grad_fn)))
    w = torch.arange(float(y.numel())).reshape(y.shape)
    (y * w).sum().backward()
    print("  grad", r(x.grad))
    pd = p.data.detach().requires_grad_()
    y2, _ = nn.utils.rnn.pad_packed_sequence(nn.utils.rnn.PackedSequence(pd, p.batch_sizes, p.sorted_indices,
                                                                         p.unsorted_indices), batch_first=batch_first)
    g = torch.randn(y2.shape, requires_grad=True)
    gd, = torch.autograd.grad(y2, pd, g, create_graph=True)
    print("  data grad", r(gd))
    gg, = torch.autograd.grad((gd * torch.arange(float(gd.numel())).reshape(gd.shape)).sum(), g)
    print("  double", r(gg))
with torch.no_grad():
    p = nn.utils.rnn.pack_padded_sequence(torch.ones(3, 2, 2, requires_grad=True), torch.tensor([3, 2]))
    y, _ = nn.utils.rnn.pad_packed_sequence(p)
    print("no_grad", y.grad_fn, y.requires_grad, r(y))
