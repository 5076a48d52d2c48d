# F.poisson_nll_loss / nn.PoissonNLLLoss (log_input, full's Stirling term, eps, reductions, legacy size_average)
# and F.gaussian_nll_loss / nn.GaussianNLLLoss (heteroscedastic and homoscedastic var shapes, full, eps clamp)
# against real PyTorch: values and gradients in float64, grad_fn names, reprs and errors.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


torch.manual_seed(0)
x = torch.randn(4, 3, dtype=torch.float64)
t = torch.tensor([[3., 2, 3], [2, 3, 3], [5, 1, 3], [1, 4, 0]], dtype=torch.float64)
print("target", r(t))
for kw in [dict(), dict(log_input=False), dict(full=True), dict(log_input=False, full=True, eps=1e-3),
           dict(reduction="sum"), dict(reduction="none"), dict(size_average=False)]:
    inp = (x.abs() + 0.1 if kw.get("log_input") is False else x).clone().requires_grad_(True)
    y = F.poisson_nll_loss(inp, t, **kw)
    (y.sum() if y.dim() else y).backward()
    print(kw, type(y.grad_fn).__name__, r(y), r(inp.grad))
m = nn.PoissonNLLLoss(log_input=False, full=True)
print(m, r(m(x.abs() + 0.5, t)))
err(lambda: F.poisson_nll_loss(x, t, reduction="avg"))

mu = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
y_ = torch.randn(5, 2, dtype=torch.float64)
for var in [torch.rand(5, 2, dtype=torch.float64) + 0.1, torch.rand(5, dtype=torch.float64) + 0.1,
            torch.rand(5, 1, dtype=torch.float64), torch.zeros(5, 2, dtype=torch.float64)]:
    for kw in [dict(), dict(full=True, reduction="sum"), dict(reduction="none", eps=1e-2)]:
        v = var.clone().requires_grad_(True)
        mu.grad = None
        loss = F.gaussian_nll_loss(mu, y_, v, **kw)
        (loss.sum() if loss.dim() else loss).backward()
        print(tuple(var.shape), kw, type(loss.grad_fn).__name__, r(loss), r(mu.grad), r(v.grad))
m = nn.GaussianNLLLoss(full=True, eps=1e-3)
print(m, m.full, m.eps, m.reduction)
err(lambda: F.gaussian_nll_loss(mu, y_, torch.ones(5, 3)))
err(lambda: F.gaussian_nll_loss(mu, y_, torch.ones(5, 2), reduction="avg"))
err(lambda: F.gaussian_nll_loss(mu, y_, -torch.ones(5, 2)))
