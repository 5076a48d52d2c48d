# The training-step fast paths (issue 23) against real PyTorch: nll_loss / cross_entropy with weights, ignored
# targets and each reduction (float32 and float64; values, gradients, node names and saved values), log_softmax
# over each dim of a 3-D tensor and its backward, nn.Linear's addmm forward and backward (input, weight and bias
# gradients, the weight's gradient contiguous), x.sum() of whole tensors of many sizes, and the composite paths
# these fall back to (a 1-D input, a non-contiguous input, an out-of-range target). Runs under real PyTorch and
# DeviceScope.
import torch
import torch.nn as nn
import torch.nn.functional as F


def r(t, digits=4):
    return [round(v, digits) for v in t.detach().reshape(-1).tolist()]


x0 = torch.linspace(-3, 2, 35).reshape(7, 5)
target = torch.tensor([0, 4, 2, -100, 1, 3, 4])
weight = torch.linspace(0.5, 1.5, 5)
for dtype in (torch.float32, torch.float64):
    for reduction in ("mean", "sum", "none"):
        for w in (None, weight.to(dtype)):
            x = x0.to(dtype).clone().requires_grad_()
            loss = F.cross_entropy(x, target, weight=w, reduction=reduction)
            node = loss.grad_fn
            print(dtype, reduction, w is not None, node.name(), node.next_functions[0][0].name(), r(loss),
                  r(node._saved_total_weight), node._saved_reduction, tuple(node._saved_self.shape))
            (loss.sum() if reduction == "none" else loss).backward()
            print(" grad", r(x.grad))

# nll_loss directly on log-probabilities that require grad, ignore_index other than -100
lp = torch.log_softmax(x0, 1).detach().requires_grad_()
loss = F.nll_loss(lp, torch.tensor([1, 1, 0, 2, 3, 4, 0]), ignore_index=1)
loss.backward()
print("nll", r(loss), r(lp.grad))

# log_softmax over every dim of a 3-D tensor, forward and backward
x3 = torch.linspace(-1, 1, 24).reshape(2, 3, 4)
for dim in (0, 1, 2, -1):
    x = x3.clone().requires_grad_()
    y = torch.log_softmax(x, dim)
    (y * torch.linspace(0, 1, 24).reshape(2, 3, 4)).sum().backward()
    print("log_softmax", dim, y.grad_fn.name(), r(y, 3), r(x.grad, 3))  # (linspace's last bits differ)

# nn.Linear: addmm forward and backward
torch.manual_seed(0)
lin = nn.Linear(6, 3)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-1, 1, 18).reshape(3, 6))
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
inp = torch.linspace(0, 1, 24).reshape(4, 6).requires_grad_()
out = lin(inp)
print("linear", out.grad_fn.name(), r(out))
(out * torch.linspace(1, 2, 12).reshape(4, 3)).sum().backward()
print(" grads", r(inp.grad), r(lin.weight.grad), r(lin.bias.grad), lin.weight.grad.is_contiguous(),
      lin.weight.grad.stride())
print(" addmm", r(torch.addmm(torch.ones(3), inp.detach(), lin.weight.detach().t())))

# whole-tensor sums
for n in (1, 7, 8, 9, 100, 129, 1000, 8193, 20000):
    v = torch.linspace(-1, 3, n)
    print("sum", n, round(v.sum().item(), 3), round(torch.sum(v.double()).item(), 3), v.sum().dtype)
print("sum 2-D", round(torch.linspace(0, 1, 600).reshape(20, 30).sum().item(), 4), torch.ones(3, 4).sum())

# the composite paths: a 1-D input, a transposed input, an out-of-range target
print("1-D", r(F.cross_entropy(x0[0], torch.tensor(2))))
print("transposed", r(F.cross_entropy(x0.t().contiguous().t(), target)))
try:
    F.cross_entropy(x0, torch.tensor([0, 1, 2, 3, 4, 5, 0]))
except IndexError as e:
    print("IndexError", e)
