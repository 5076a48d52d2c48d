# More of torch.nn.functional written in Python by PyTorch, against real PyTorch: local_response_norm /
# nn.LocalResponseNorm (3-D and 4-D input), lp_pool1d / lp_pool2d / nn.LPPool1d / nn.LPPool2d,
# multilabel_soft_margin_loss / nn.MultiLabelSoftMarginLoss, triplet_margin_with_distance_loss /
# nn.TripletMarginWithDistanceLoss, gumbel_softmax (seeded draws, hard straight-through), the *_with_indices
# pooling functions and nn.init.dirac_: values, gradients in float64, top grad_fn names, reprs, errors. Left
# out: local_response_norm's error on 2-D input (1.13's message carries a line continuation's spaces).
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 5) + 0.0 for a in v[:6]] + [round(sum(v), 5) + 0.0]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


def run(label, f, *xs):
    xs = [x.clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    print(label, tuple(y.shape), type(y.grad_fn).__name__, head(y), [head(x.grad) for x in xs])


torch.manual_seed(0)
x3 = torch.randn(2, 6, 7, dtype=torch.float64)
x4 = torch.randn(2, 6, 5, 4, dtype=torch.float64)
run("lrn3", lambda x: F.local_response_norm(x, 3), x3)
run("lrn4", lambda x: F.local_response_norm(x, 4, alpha=1e-2, beta=0.5, k=2.0), x4)
m = nn.LocalResponseNorm(2)
print(m, head(m(x4)))
run("lp1", lambda x: F.lp_pool1d(x, 2, 3), x3)
run("lp1s", lambda x: F.lp_pool1d(x, 1.5, 2, stride=1, ceil_mode=True), x3.abs())
run("lp2", lambda x: F.lp_pool2d(x, 3, (2, 1)), x4)
print(nn.LPPool1d(2, 3), nn.LPPool2d(1, 2, stride=1), head(nn.LPPool2d(2, 2)(x4)), head(nn.LPPool1d(2, 2)(x3)))
t = (torch.rand(4, 5) > 0.5).double()
xin = torch.randn(4, 5, dtype=torch.float64)
run("mlsm", lambda x: F.multilabel_soft_margin_loss(x, t).unsqueeze(0), xin)
run("mlsm_w", lambda x: F.multilabel_soft_margin_loss(x, t, weight=torch.linspace(0.5, 1.5, 5, dtype=torch.float64),
                                                      reduction="none"), xin)
print(nn.MultiLabelSoftMarginLoss(), r(nn.MultiLabelSoftMarginLoss(reduction="sum")(xin, t)))
a, p, n = (torch.randn(4, 3, dtype=torch.float64) for _ in range(3))
run("tmwd", lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n).unsqueeze(0), a, p, n)
run("tmwd_cos", lambda a, p, n: F.triplet_margin_with_distance_loss(
    a, p, n, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5, swap=True,
    reduction="none"), a, p, n)
m = nn.TripletMarginWithDistanceLoss(swap=True)
print(m, r(m(a, p, n)))
torch.manual_seed(3)
logits = torch.randn(3, 4, dtype=torch.float64)
run("gumbel", lambda x: F.gumbel_softmax(x, tau=0.5), logits)
torch.manual_seed(4)
run("gumbel_hard", lambda x: F.gumbel_softmax(x, hard=True, dim=0), logits)
y, i = F.max_pool2d_with_indices(x4, 2)
print(head(y), r(i[0, 0]), [tuple(v.shape) for v in F.max_pool1d_with_indices(x3, 2)],
      [tuple(v.shape) for v in F.adaptive_max_pool2d_with_indices(x4, 2)],
      [tuple(v.shape) for v in F.adaptive_max_pool1d_with_indices(x3, 3)])
w = torch.empty(6, 2, 3, 3)
nn.init.dirac_(w, groups=2)
print(r(w.sum((2, 3))), r(w[2, 0]))
w = torch.empty(3, 4, 5)
print(r(nn.init.dirac_(w).sum(2)), r(w[1, 1]))
err(lambda: nn.init.dirac_(torch.empty(3, 3)))
err(lambda: nn.init.dirac_(torch.empty(3, 3, 3), groups=2))
