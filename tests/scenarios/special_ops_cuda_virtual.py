# The special pointwise ops (erfc, lgamma, digamma, polygamma, sinc, logit, xlogy, hypot, logaddexp, logaddexp2) on
# a simulated CUDA device and on virtual (shape-only) tensors: results stay on the device with the CPU's values,
# the kernels' dtype refusals name the CUDA kernel ("hypot_cuda", as ATen's CUDA dispatch does), and a virtual
# operand of an integer dtype is refused too, although no value is computed for it.
import torch

import devicescope

x = torch.tensor([0.25, 0.5, 0.75, 0.9])
xc = x.to("cuda")
for name in ("erfc", "lgamma", "digamma", "sinc", "logit"):
    y = getattr(torch, name)(xc)
    print(name, y.device, torch.equal(y.cpu(), getattr(torch, name)(x)))
print("polygamma", torch.equal(torch.polygamma(2, xc).cpu(), torch.polygamma(2, x)))
for name in ("xlogy", "hypot", "logaddexp", "logaddexp2"):
    y = getattr(torch, name)(xc, xc.flip(0))
    print(name, y.device, torch.equal(y.cpu(), getattr(torch, name)(x, x.flip(0))))
print("xlogy with a cpu 0-dim", torch.xlogy(xc, torch.tensor(2.0)).device)
i = torch.tensor([1, 2], device="cuda")
for name in ("hypot", "logaddexp", "logaddexp2"):
    try:
        getattr(torch, name)(i, i)
    except RuntimeError as e:
        print(name, e)

with devicescope.virtual_mode():
    v = torch.randn(512, 512, device="cuda", requires_grad=True)
    y = (torch.lgamma(v.abs() + 1) + torch.xlogy(v, v.abs()) + torch.polygamma(1, v) + torch.logit(v.sigmoid(), 1e-3)
         + torch.hypot(v, v) + torch.sinc(v) + torch.erfc(v) + torch.logaddexp(v, v) + torch.digamma(v))
    print("virtual", y.shape, y.dtype, y.device, y.grad_fn.name())
    g, = torch.autograd.grad(y.sum(), v, create_graph=True)
    print("virtual grad", g.shape, g.grad_fn.name())
    vi = torch.ones(4, dtype=torch.long, device="cuda")
    for name in ("hypot", "logaddexp2"):
        try:
            getattr(torch, name)(vi, vi)
        except RuntimeError as e:
            print("virtual", name, e)
    print("virtual int promoted", torch.lgamma(vi).dtype, torch.xlogy(vi, vi).dtype)
