# F.ctc_loss / nn.CTCLoss against real PyTorch: padded (B x S) and concatenated targets, list and tensor
# lengths, reductions (mean divides by the target lengths), blank, zero_infinity, impossible alignments (inf
# loss, nan gradients unless zero_infinity), values and gradients (ATen's CPU formula) in float64, the
# CtcLossBackward0 node under the reductions, and argument errors.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 5) + 0.0 for a in v[:6]] + [round(sum(v), 5) + 0.0]


torch.manual_seed(0)
T, B, Cn = 12, 3, 5
lp0 = torch.randn(T, B, Cn, dtype=torch.float64).log_softmax(2)
targets = torch.tensor([[1, 2, 2, 3], [4, 4, 0, 0], [2, 1, 3, 1]])
for kw in [dict(), dict(reduction="sum"), dict(reduction="none"), dict(blank=4), dict(zero_infinity=True)]:
    for il, tl in [((12, 10, 7), (4, 2, 3)), (torch.tensor([12, 10, 7]), torch.tensor([4, 2, 3])), ((12, 2, 12), (4, 2, 4))]:
        lp = lp0.clone().requires_grad_(True)
        tg = targets.clone()
        if kw.get("blank") == 4:
            tg = tg.clamp(max=3)
        loss = F.ctc_loss(lp, tg, il, tl, **kw)
        fn = loss.grad_fn
        print(kw, type(il).__name__, type(fn).__name__, r(loss))
        (loss.sum() if loss.dim() else loss).backward()
        print("  grad", head(lp.grad), head(lp.grad[:, 1]))
flat = torch.tensor([1, 2, 2, 3, 4, 4, 2, 1, 3])
lp = lp0.clone().requires_grad_(True)
loss = F.ctc_loss(lp, flat, (12, 10, 7), (4, 2, 3), reduction="none")
print(r(loss))
loss.sum().backward()
print(head(lp.grad))
m = nn.CTCLoss(blank=0, zero_infinity=True)
print(m, m.blank, m.zero_infinity)
print(r(m(lp0, targets, torch.tensor([12, 10, 7]), torch.tensor([4, 2, 3]))))


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


err(lambda: F.ctc_loss(lp0, targets, (12, 10), (4, 2, 3)))
err(lambda: F.ctc_loss(lp0, targets, (12, 10, 13), (4, 2, 3)))
err(lambda: F.ctc_loss(lp0, targets, (12, 10, 7), (4, 2, 5)))
err(lambda: F.ctc_loss(lp0, targets, (12, 10, 7), (4, 2, 3), blank=5))
err(lambda: F.ctc_loss(lp0, flat, (12, 10, 7), (4, 2, 4)))
err(lambda: F.ctc_loss(lp0, targets, torch.tensor([12., 10, 7]), torch.tensor([4, 2, 3])))
