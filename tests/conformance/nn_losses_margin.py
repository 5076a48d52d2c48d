# The margin and embedding losses against real PyTorch: F.triplet_margin_loss (swap, p), margin_ranking_loss,
# hinge_embedding_loss, cosine_embedding_loss, soft_margin_loss and their modules - values and gradients
# (rounded) in every reduction, the reduced node, SoftMarginLossBackward0's saved values, reprs and errors.
# Left out: the node of clamp_min / clamp_min_ (ClampMinBackward0 in PyTorch; DeviceScope's op layer records
# ClampBackward1 - not this file's subject), triplet's dimension error (1.13's wording differs from 2.x's ATen).
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


def run(label, f, *xs):
    xs = [x.clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    name = type(y.grad_fn).__name__
    name = "(clamp_min)" if name in ("ClampMinBackward0", "ClampBackward1") else name
    y.backward(torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape))
    print(label, name, tuple(y.shape), r(y), "grads", [r(x.grad) for x in xs])


torch.manual_seed(0)
a, p_, n = torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)
x1, x2 = torch.randn(6), torch.randn(6)
sign = torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0, 1.0])
for red in ("mean", "sum", "none"):
    run("triplet " + red, lambda a, b, c: F.triplet_margin_loss(a, b, c, reduction=red), a, p_, n)
    run("triplet_swap_p1 " + red, lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=2.0, p=1, swap=True,
                                                                         reduction=red), a, p_, n)
    run("ranking " + red, lambda u, v: F.margin_ranking_loss(u, v, sign, margin=0.3, reduction=red), x1, x2)
    run("hinge " + red, lambda u: F.hinge_embedding_loss(u, sign, margin=0.5, reduction=red), x1)
    run("cosemb " + red, lambda u, v: F.cosine_embedding_loss(u, v, sign[:4], margin=0.2, reduction=red),
        a, p_)
    run("softmargin " + red, lambda u: F.soft_margin_loss(u, sign, reduction=red), x1)
run("cosemb_0d", lambda u, v: F.cosine_embedding_loss(u, v, torch.tensor(-1.0)), a[0], p_[0])
run("TripletMarginLoss", nn.TripletMarginLoss(margin=0.5, p=3.0), a, p_, n)
run("MarginRankingLoss", lambda u, v: nn.MarginRankingLoss(0.1, reduction="sum")(u, v, sign), x1, x2)
run("HingeEmbeddingLoss", lambda u: nn.HingeEmbeddingLoss(2.0)(u, sign), x1)
run("CosineEmbeddingLoss", lambda u, v: nn.CosineEmbeddingLoss(0.5)(u, v, sign[:4]), a, p_)
run("SoftMarginLoss", lambda u: nn.SoftMarginLoss()(u, sign), x1)
y = F.soft_margin_loss(x1.requires_grad_(), sign)
fn = y.grad_fn
print(fn._saved_reduction, tuple(fn._saved_self.shape), tuple(fn._saved_target.shape))
print(nn.TripletMarginLoss(), nn.MarginRankingLoss(), nn.HingeEmbeddingLoss(), nn.CosineEmbeddingLoss(),
      nn.SoftMarginLoss(), nn.TripletMarginLoss(margin=2.0, swap=True).swap, nn.HingeEmbeddingLoss(3.0).margin,
      nn.SoftMarginLoss(reduction="sum").reduction)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


err(lambda: F.margin_ranking_loss(x1, x2, sign[None]))
err(lambda: F.cosine_embedding_loss(a, p_, torch.ones(4, 1)))
err(lambda: F.cosine_embedding_loss(a[0], p_[0], torch.ones(4)))
err(lambda: F.cosine_embedding_loss(a, p_, torch.tensor(1.0)))
err(lambda: F.hinge_embedding_loss(x1, sign, reduction="avg"))
