# torch.special's aliases against real PyTorch: expit, erf, erfinv, exp2, expm1, log1p, logsumexp, softmax,
# log_softmax give the same values and the same nodes as the ops they name (SigmoidBackward0, ...).
import torch
def r(t): return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]
x = torch.tensor([[0.2, -0.5, 1.5], [0.0, 0.3, -0.9]], requires_grad=True)
for name in ["expit", "erf", "erfinv", "exp2", "expm1", "log1p"]:
    y = getattr(torch.special, name)(x * 0.5)
    print(name, r(y), type(y.grad_fn).__name__)
print(r(torch.special.logsumexp(x, 1)), type(torch.special.logsumexp(x, 1).grad_fn).__name__)
print(r(torch.special.softmax(x, 1)), type(torch.special.softmax(x, -1).grad_fn).__name__,
      torch.special.softmax(x, 1, dtype=torch.float64).dtype)
print(r(torch.special.log_softmax(x, 0)), type(torch.special.log_softmax(x, 0).grad_fn).__name__)
torch.special.expit(x).sum().backward(); print(r(x.grad))
