# nn.utils.rnn against real PyTorch: pad_sequence, pack_padded_sequence / pad_packed_sequence round trips
# (sorted and enforce_sorted=False, batch_first), pack_sequence, LSTM/GRU over packed input (outputs, final
# states of the shorter sequences, gradients), PackedSequence fields and errors.
import torch
from torch import nn
from torch.nn.utils.rnn import (PackedSequence, pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence, unpack_sequence)


def fill(module):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).sin().reshape(p.shape) * 0.4)


def seq(n, f, k):
    return (torch.arange(n * f, dtype=torch.float32) * 0.61 + k).cos().reshape(n, f)


def show(label, t):
    vals = [f"{v:.4f}" for v in t.detach().flatten().tolist()[:8]]
    print(label, tuple(t.shape), t.dtype, f"{t.detach().sum().item():.3f}", vals)


a, b, c = seq(5, 3, 0), seq(3, 3, 1), seq(2, 3, 2)
padded = pad_sequence([a, b, c])
show("pad_sequence", padded)
show("pad_sequence batch_first", pad_sequence([a, b, c], batch_first=True, padding_value=-1.0))
show("pad_sequence unsorted", pad_sequence([c, a, b], batch_first=True))
# ATen's one at::full then a copy_ per sequence: the version counter (1 + B), the layout, int and 1-D sequences,
# the first sequence's dtype for the padding
for bf in (False, True):
    p = pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])], batch_first=bf,
                     padding_value=9)
    print("pad_sequence int", bf, p.tolist(), p.dtype, p._version, p.stride())
    p = pad_sequence([a, b], batch_first=bf, padding_value=0.25)
    print("pad_sequence 2-D", bf, tuple(p.shape), p._version, p.stride(), p[:, -1].tolist() if bf else p[-1].tolist())

packed = pack_padded_sequence(padded, [5, 3, 2])
print(type(packed).__name__, isinstance(packed, PackedSequence), isinstance(packed, tuple), packed.batch_sizes, packed.sorted_indices,
      packed.unsorted_indices)
show("packed.data", packed.data)
out, lengths = pad_packed_sequence(packed)
show("unpacked", out)
print("lengths", lengths, torch.equal(out, padded))
out, lengths = pad_packed_sequence(packed, batch_first=True, total_length=7, padding_value=9.0)
show("unpacked total_length", out)

# unsorted batch: sorted_indices / unsorted_indices restore the caller's order
bf = pad_sequence([c, a, b], batch_first=True)
packed = pack_padded_sequence(bf, torch.tensor([2, 5, 3]), batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
show("packed unsorted data", packed.data)
out, lengths = pad_packed_sequence(packed, batch_first=True)
print("round trip", torch.equal(out, bf), lengths)
ps = pack_sequence([c, a, b], enforce_sorted=False)
print([tuple(t.shape) for t in unpack_sequence(ps)], ps.batch_sizes)

# LSTM / GRU over packed sequences, gradients back through pack and pad
for cls, kwargs in ((nn.LSTM, dict(num_layers=2, bidirectional=True)), (nn.GRU, dict(batch_first=True)),
                    (nn.RNN, dict(bidirectional=True, batch_first=True))):
    m = cls(3, 4, **kwargs)
    fill(m)
    x = pad_sequence([c, a, b], batch_first=True).requires_grad_(True)
    src = x if m.batch_first else x.transpose(0, 1)
    packed = pack_padded_sequence(src, [2, 5, 3], batch_first=m.batch_first, enforce_sorted=False)
    out, hidden = m(packed)
    print(type(out).__name__, out.batch_sizes)
    unpacked, lengths = pad_packed_sequence(out, batch_first=m.batch_first)
    show(cls.__name__ + " output", unpacked)
    hs = hidden if isinstance(hidden, tuple) else (hidden,)
    for i, h in enumerate(hs):
        show(cls.__name__ + f" state{i}", h)
    loss = unpacked.pow(2).sum() + sum(h.sum() for h in hs)
    loss.backward()
    show(cls.__name__ + " x.grad", x.grad)
    for n, p in list(m.named_parameters())[:3]:
        show(n + ".grad", p.grad)

# packed result equals running each sequence alone
m = nn.GRU(3, 4)
fill(m)
packed = pack_sequence([a, b, c])
out, h = m(packed)
unpacked, _ = pad_packed_sequence(out)
alone = [m(s.unsqueeze(1))[1] for s in (a, b, c)]
print("per-sequence final states match", all(torch.allclose(h[0, i], alone[i][0, 0], atol=1e-6) for i in range(3)))
print("padded steps are zero", unpacked[3:, 1].abs().sum().item(), unpacked[2:, 2].abs().sum().item())


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: pack_padded_sequence(padded, [3, 5, 2]))
err(lambda: pack_padded_sequence(padded, [5, 3, 0]))
err(lambda: pack_padded_sequence(padded, [5, 3]))
err(lambda: pad_packed_sequence(pack_padded_sequence(padded, [5, 3, 2]), total_length=3))
