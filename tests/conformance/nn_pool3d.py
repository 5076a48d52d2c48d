# 3-D pooling against real PyTorch: F.max_pool3d / nn.MaxPool3d (stride, padding, dilation, ceil_mode,
# return_indices, unbatched input, NaN) and F.avg_pool3d / nn.AvgPool3d (count_include_pad, divisor_override,
# ceil_mode): values, indices and gradients in float64, the nodes and what they save, reprs and errors.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()]


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 6) + 0.0 for a in v[:6]] + [round(sum(v), 6) + 0.0]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


torch.manual_seed(0)
x0 = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64)
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=(2, 3, 2), stride=(1, 2, 3)),
           dict(kernel_size=2, stride=2, ceil_mode=True), dict(kernel_size=3, dilation=2, padding=1)]:
    x = x0.clone().requires_grad_(True)
    y, idx = F.max_pool3d(x, return_indices=True, **kw)
    fn = y.grad_fn
    print(kw, tuple(y.shape), type(fn).__name__, fn._saved_kernel_size, fn._saved_stride, fn._saved_padding,
          fn._saved_dilation, fn._saved_ceil_mode, fn._saved_result1.dtype, idx.dtype)
    print("  y", head(y), head(idx.double()))
    (y * torch.linspace(-1, 1, y.numel(), dtype=torch.float64).reshape(y.shape)).sum().backward()
    print("  grad", head(x.grad))
for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=3, stride=2, padding=1,
                                                                               count_include_pad=False),
           dict(kernel_size=(2, 3, 2), stride=2, ceil_mode=True), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                                                                      count_include_pad=False),
           dict(kernel_size=2, divisor_override=3)]:
    x = x0.clone().requires_grad_(True)
    y = F.avg_pool3d(x, **kw)
    fn = y.grad_fn
    print(kw, tuple(y.shape), type(fn).__name__, fn._saved_kernel_size, fn._saved_stride, fn._saved_padding,
          fn._saved_ceil_mode, fn._saved_count_include_pad, fn._saved_divisor_override)
    print("  y", head(y))
    (y * torch.linspace(-1, 1, y.numel(), dtype=torch.float64).reshape(y.shape)).sum().backward()
    print("  grad", head(x.grad))
m, a = nn.MaxPool3d(3, stride=2, padding=1, return_indices=True), nn.AvgPool3d((2, 2, 3), stride=1)
print(m, a)
y, i = m(x0[0])
print(tuple(y.shape), head(y), tuple(a(x0[0]).shape), head(a(x0[0])))
xn = x0[:1, :1, :2, :2, :2].clone()
xn[0, 0, 1, 0, 1] = float("nan")
print(r(F.max_pool3d(xn, 2)), r(F.max_pool3d(xn, 2, return_indices=True)[1].double()))
print(r(F.max_pool3d(torch.full((1, 1, 2, 2, 2), float("-inf"), dtype=torch.float64), 2, return_indices=True)[1]))
err(lambda: F.max_pool3d(x0, (2, 2)))
err(lambda: F.max_pool3d(x0, 2, stride=(1, 2)))
err(lambda: F.max_pool3d(x0, 2, padding=(1, 2)))
err(lambda: F.max_pool3d(x0, 2, dilation=(1, 2)))
err(lambda: F.max_pool3d(x0[0, 0, 0], 2))
err(lambda: F.max_pool3d(x0, 9))
err(lambda: F.avg_pool3d(x0, 2, divisor_override=0))
err(lambda: F.avg_pool3d(x0, 9))
err(lambda: F.avg_pool3d(x0, (2, 2)))
err(lambda: F.avg_pool3d(x0, 2, stride=(1, 2)))
err(lambda: F.avg_pool3d(x0, 2, padding=(1, 2)))
err(lambda: F.max_pool3d(x0, 3, padding=2))
err(lambda: F.avg_pool3d(x0, 3, padding=2))
err(lambda: F.max_pool3d(x0, 3, stride=0))
err(lambda: F.max_pool3d(x0, (2, 7, 2)))
print(F.max_pool3d(x0.clone().requires_grad_(), 2, stride=[2]).grad_fn._saved_stride,
      F.avg_pool3d(x0.clone().requires_grad_(), 2, stride=2).grad_fn._saved_stride)
