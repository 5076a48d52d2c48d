# torch.pow(tensor, number) for float and double: ATen's special cases (** 0.5 is sqrt: -0.0 stays -0.0 and -inf
# gives nan; ** -0.5 is 1 / sqrt; ** -1 the reciprocal; ** 1 a copy (nan and -0.0 kept); ** 2, ** 3 and ** -2
# products), other integer powers (float's taken in double, within an ulp of ATen's vector pow: compared to 6
# significant digits) and their gradients.
import torch
import torch.nn.functional as F

specials = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e-30, 4.0, -2.5, 0.3])
for dtype in (torch.float32, torch.float64):
    x = specials.to(dtype)
    for e in (0.5, -0.5, -1, -1.0, -2, 1, 1.0, 2, 3):
        r = torch.pow(x, e)
        print(dtype, e, [float(v).hex() for v in r.tolist()])  # (hex keeps the sign of zero)
    torch.manual_seed(0)
    y = torch.randn(1000, dtype=dtype) * 3
    for e in (4, 5, 7, 10, -3, -4, 1.5, 4.0):
        r = torch.pow(y, e)
        print(dtype, e, " ".join(f"{v:.6g}" for v in r[:12].tolist()), f"{float(r.nansum()):.6g}")
    z = (torch.rand(50, dtype=dtype) + 0.5).requires_grad_()
    for e in (0.5, -0.5, -1, -2, 2, 4):  # (** 2's gradient takes ** 1)
        z.grad = None
        (z ** e).sum().backward()
        print(dtype, "grad", e, f"{float(z.grad.sum()):.6g}")
    zero = torch.tensor([0.0, -0.0, 1.5, -2.0], dtype=dtype, requires_grad=True)
    (zero ** 0).sum().backward()  # pow_backward's exponent 0: zeros_like(self), no nan at 0
    print(dtype, "grad ** 0", zero.grad.tolist())
