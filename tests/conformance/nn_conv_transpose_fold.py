# Transposed convolutions, Conv3d and unfold/fold against real PyTorch: nn.ConvTranspose1d/2d/3d, nn.Conv3d,
# F.conv_transpose*, F.conv3d, F.unfold/F.fold and nn.Unfold/nn.Fold - parameter shapes and seeded init,
# reprs, values and gradients in float64 (strides, padding, output_padding, dilation, groups, unbatched
# inputs, output_size), grad_fn names, their inputs' nodes and what ConvolutionBackward0 saves
# (transposed=True), double backward, and argument errors in PyTorch's words.
# Left out (1.13 vs 2.x): Im2ColBackward0's saved input (1.13 keeps self; 2.x its last two sizes).
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()]


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 6) + 0.0 for a in v[:5]] + [round(sum(v), 6) + 0.0, round(sum(a * a for a in v), 5) + 0.0]


def names(y):
    fn = y.grad_fn
    return type(fn).__name__, [None if n[0] is None else type(n[0]).__name__ for n in fn.next_functions]


def saved(fn):
    out = []
    for name in sorted(a for a in dir(fn) if a.startswith("_saved_") and a != "_saved_self"):
        v = getattr(fn, name)
        out.append((name, tuple(v.shape) if isinstance(v, torch.Tensor) else v))
    return out


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


def weights(y):
    return torch.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape).sin()


torch.manual_seed(0)
print("--- modules: repr, parameter shapes, seeded init")
for m in [nn.ConvTranspose2d(4, 6, 3), nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1,
                                                           groups=2, bias=False, dilation=2),
          nn.ConvTranspose1d(3, 5, 4, stride=2), nn.ConvTranspose3d(2, 4, 2, stride=(1, 2, 2)),
          nn.Conv3d(2, 4, 3, padding=1, stride=(1, 2, 1)), nn.Conv3d(4, 4, (1, 3, 3), groups=2, bias=False),
          nn.Unfold((2, 3), padding=1, stride=2), nn.Fold((5, 6), (2, 3), padding=1, stride=2)]:
    print(m)
    for name, p in m.named_parameters():
        print(" ", name, tuple(p.shape), r(p.flatten()[:4]))
err(lambda: nn.ConvTranspose2d(4, 6, 3, padding_mode="reflect"))
err(lambda: nn.ConvTranspose2d(4, 6, 3, groups=4))

print("--- conv_transpose2d values, gradients, graph")
cases = [dict(stride=2, padding=1, output_padding=1), dict(), dict(stride=3, padding=2, dilation=2, output_padding=1),
         dict(stride=2, groups=2), dict(stride=(2, 1), padding=(0, 1), dilation=(1, 2), output_padding=(1, 0)),
         dict(stride=1, dilation=2, output_padding=1)]
for kw in cases:
    x = torch.randn(2, 4, 5, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 6 // kw.get("groups", 1), 3, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(6, dtype=torch.float64, requires_grad=True)
    y = F.conv_transpose2d(x, w, b, **kw)
    print(kw, tuple(y.shape), names(y), saved(y.grad_fn))
    print(" y", head(y))
    (y * weights(y)).sum().backward()
    print(" grads", head(x.grad), head(w.grad), r(b.grad))

print("--- unbatched, no bias, 1-D and 3-D")
x = torch.randn(3, 7, dtype=torch.float64, requires_grad=True)
w = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
y = F.conv_transpose1d(x, w, stride=2, padding=1)
print(tuple(y.shape), names(y))
print(" inner", type(y.grad_fn.next_functions[0][0]).__name__,
      [type(n[0]).__name__ for n in y.grad_fn.next_functions[0][0].next_functions if n[0] is not None])
print(" y", head(y))
y.pow(2).sum().backward()
print(" grads", head(x.grad), head(w.grad))
x = torch.randn(2, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(2, 3, 2, 3, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64, requires_grad=True)
y = F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(0, 1, 1), output_padding=(1, 0, 1))
print(tuple(y.shape), names(y), " y", head(y))
(y * weights(y)).sum().backward()
print(" grads", head(x.grad), head(w.grad), r(b.grad))
x = torch.randn(2, 4, 5, 4, 6, dtype=torch.float64, requires_grad=True)
w = torch.randn(6, 2, 3, 2, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
y = F.conv3d(x, w, b, stride=(1, 2, 2), padding=(1, 0, 2), dilation=(2, 1, 1), groups=2)
print("conv3d", tuple(y.shape), names(y), saved(y.grad_fn))
print(" y", head(y))
(y * weights(y)).sum().backward()
print(" grads", head(x.grad), head(w.grad), r(b.grad))
print(tuple(F.conv3d(x, w, None, padding="same", groups=2).shape),
      tuple(F.conv3d(x[0], w[:, :, :1, :1, :1].expand(6, 2, 3, 3, 3), padding="same", groups=2).shape),
      tuple(F.conv3d(x, w, groups=2, padding="valid").shape))

print("--- ConvTranspose2d(output_size=...)")
m = nn.ConvTranspose2d(3, 3, 3, stride=2, padding=1).double()
x = torch.randn(1, 3, 6, 6, dtype=torch.float64)
print(tuple(m(x, output_size=[12, 12]).shape), tuple(m(x, output_size=(1, 3, 11, 11)).shape),
      tuple(m(x[0], output_size=(3, 12, 11)).shape))
err(lambda: m(x, output_size=[14, 12]))
err(lambda: m(x, output_size=[14]))

print("--- double backward")
w = torch.randn(3, 2, 3, 3, dtype=torch.float64, requires_grad=True)
x = torch.randn(1, 3, 4, 4, dtype=torch.float64, requires_grad=True)
b = torch.randn(2, dtype=torch.float64, requires_grad=True)
y = F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)
gx, gw = torch.autograd.grad((y * weights(y)).pow(2).sum(), (x, w), create_graph=True)
(gx.pow(2).sum() + gw.pow(2).sum()).backward()
print(head(w.grad), head(x.grad), r(b.grad))

print("--- unfold / fold")
x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
c = F.unfold(x, (2, 3), padding=1, stride=2)
fn = c.grad_fn
print(tuple(c.shape), names(c), fn._saved_kernel_size, fn._saved_dilation, fn._saved_padding, fn._saved_stride)
print(" c", head(c))
z = F.fold(c, (5, 6), (2, 3), padding=1, stride=2)
print(tuple(z.shape), names(z), saved(z.grad_fn))
print(" z", head(z))
(z * weights(z)).sum().backward()
print(" grad", head(x.grad))
u = F.unfold(x[0], 2, dilation=2)
print("unbatched", tuple(u.shape), names(u), tuple(F.fold(u, (5, 6), 2, dilation=2).shape))
g, = torch.autograd.grad(F.unfold(x, 2).pow(2).sum(), x, create_graph=True)
print("double", names(g), head(torch.autograd.grad(g.pow(2).sum(), x)[0]))
err(lambda: F.unfold(x, 7))
err(lambda: F.unfold(x, 0))
err(lambda: F.unfold(x, 3, stride=0))
err(lambda: F.unfold(x, 3, dilation=0))
err(lambda: F.unfold(x, 3, padding=-1))
err(lambda: F.unfold(x, (2, 3, 4)))
err(lambda: F.unfold(torch.randn(2, 3, 0, 6), (2, 3)))
print(tuple(F.unfold(torch.randn(0, 3, 4, 6), (2, 3)).shape))
cc = torch.randn(2, 12, 6)
err(lambda: F.fold(cc, (4, 5), 2))
err(lambda: F.fold(cc, (4, 5), (2, 3)))
err(lambda: F.fold(cc[0, 0], (4, 5), 2))
err(lambda: F.fold(torch.randn(2, 13, 6), (4, 5), 2))
err(lambda: F.fold(cc, (4, 5, 2), 2))
err(lambda: F.fold(cc, (0, 5), 2))
err(lambda: F.fold(cc, (3, 4), 2, stride=0))

print("--- argument errors")
x = torch.randn(2, 4, 5, 5)
w = torch.randn(4, 3, 3, 3)
b = torch.randn(3)
err(lambda: F.conv_transpose2d(x, w, b, stride=1, output_padding=1))
err(lambda: F.conv_transpose2d(x, w, b, stride=2, output_padding=2))
err(lambda: F.conv_transpose2d(x, w, b, stride=2, output_padding=-1))
err(lambda: F.conv_transpose2d(x, w, b, stride=0))
err(lambda: F.conv_transpose2d(x, w, b, padding=-1))
err(lambda: F.conv_transpose2d(x, w, b, padding=5))
err(lambda: F.conv_transpose2d(x, w, b, dilation=0))
err(lambda: F.conv_transpose2d(x, w, b, dilation=(1, 0)))
err(lambda: F.conv_transpose2d(x[:, :3], w, b))
err(lambda: F.conv_transpose2d(x, w, torch.randn(4)))
err(lambda: F.conv_transpose2d(x, w, b, groups=3))
err(lambda: F.conv_transpose2d(x, w, b, groups=8))
err(lambda: F.conv_transpose2d(x[0, 0], w, b))
err(lambda: F.conv_transpose2d(x, w, b, stride=(1, 1, 1)))
err(lambda: F.conv_transpose2d(x, torch.randn(4, 3, 0, 3)))
print(tuple(F.conv_transpose2d(torch.randn(0, 4, 5, 5), w).shape))
x1, w1 = torch.randn(2, 4, 5), torch.randn(4, 3, 3)
err(lambda: F.conv_transpose1d(x1, w1, stride=1, output_padding=1))
err(lambda: F.conv_transpose1d(x1, w1, dilation=0))
err(lambda: F.conv_transpose1d(x1, w1, padding=5))
x3, w3 = torch.randn(2, 4, 5, 5, 5), torch.randn(4, 3, 3, 3, 3)
err(lambda: F.conv_transpose3d(x3, w3, output_padding=1))
err(lambda: F.conv_transpose3d(x3, w3, dilation=0))
err(lambda: F.conv_transpose3d(x3, w3, padding=5))
err(lambda: F.conv3d(x3, torch.randn(3, 4, 7, 3, 3)))
err(lambda: F.conv3d(x3, torch.randn(3, 4, 3, 3, 3), dilation=0))
err(lambda: F.conv3d(x3, torch.randn(3, 2, 3, 3, 3)))
err(lambda: F.conv3d(x3[0, 0], torch.randn(3, 4, 3, 3, 3)))
