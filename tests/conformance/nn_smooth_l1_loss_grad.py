# F.smooth_l1_loss's gradients bit for bit with PyTorch's CPU kernel (smooth_l1_backward_cpu_kernel: whole pairs
# of AVX2 vectors take norm * (|x| >= beta ? +-1 : x / beta) * grad, the tail the scalar norm * x * grad / beta
# with a double division), for float32 and float64, every reduction, beta 1 and 0.3, sizes around the vector
# width, gradients for self and target, and one double backward. The loss itself to 6 digits (its reduction's
# summation order is not the subject here).
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().reshape(-1).tolist())


for dtype in (torch.float32, torch.float64):
    for n in (5, 8, 16, 17, 37, 100):
        for reduction in ("mean", "sum", "none"):
            for beta in (1.0, 0.3):
                a = (torch.randn(n, dtype=dtype) * 2).requires_grad_()
                b = (torch.randn(n, dtype=dtype) * 2).requires_grad_()
                loss = F.smooth_l1_loss(a, b, reduction=reduction, beta=beta)
                loss.backward(torch.full_like(loss, 0.75) if reduction == "none" else None)
                print(dtype, n, reduction, beta, type(loss.grad_fn).__name__, f"{loss.sum().item():.6g}")
                print("  self", hexes(a.grad))
                print("  target", hexes(b.grad))
x = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, 4)
loss = torch.nn.SmoothL1Loss(beta=0.5)(x, y)
g, = torch.autograd.grad(loss, x, create_graph=True)
g.sum().backward()
print("double", hexes(g), hexes(x.grad))
