# nn.RNN / GRU / LSTM take each layer's initial state from hx.unbind(0) as ATen's rnn entry points do (LSTM: h's
# pieces, then c's): one UnbindBackward0 behind every layer and direction, not a SelectBackward0 per layer. Against
# real PyTorch: the nodes that consume the initial state's pieces (their names and the unbind's saved dim), the
# gradient reaching hx, padded and packed input, 1-2 layers, one or two directions, batch_first.
import torch
from torch import nn


def consumers(roots):
    """Sorted (consumer name, producer name, saved dim) for every edge into an Unbind/Select node."""
    seen, found, stack = set(), [], [r for r in roots if r is not None]
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            name = type(nxt).__name__
            if name in ("UnbindBackward0", "SelectBackward0"):
                found.append((type(fn).__name__, name, getattr(nxt, "_saved_dim", None)))
            stack.append(nxt)
    return sorted(found)


torch.manual_seed(0)
for cls in (nn.RNN, nn.GRU, nn.LSTM):
    for layers, bidir, batch_first, packed in ((1, False, False, False), (2, False, False, False),
                                               (2, True, False, True), (1, True, True, False)):
        m = cls(3, 4, layers, bidirectional=bidir, batch_first=batch_first)
        d = 2 if bidir else 1
        x = torch.randn(3, 2, 3)
        if batch_first:
            x = x.transpose(0, 1).contiguous()
        h = torch.randn(layers * d, 2, 4, requires_grad=True)
        c = torch.randn(layers * d, 2, 4, requires_grad=True)
        state = (h, c) if cls is nn.LSTM else h
        inp = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([3, 2])) if packed else x
        y, st = m(inp, state)
        out = y.data if packed else y
        finals = list(st) if isinstance(st, tuple) else [st]
        print(cls.__name__, layers, bidir, batch_first, packed,
              consumers([out.grad_fn] + [f.grad_fn for f in finals]))
        (out.sum() + sum(f.sum() for f in finals)).backward()
        print("  hx grad", [round(v, 4) + 0.0 for v in h.grad.flatten().tolist()[:6]],
              [round(v, 4) + 0.0 for v in c.grad.flatten().tolist()[:6]] if cls is nn.LSTM else None)
        unb = [fn for fn in [h.grad_fn] if fn is not None]
        print("  hx stays a leaf", h.is_leaf, h.grad.shape)
