# PixelShuffle / PixelUnshuffle / ChannelShuffle and nn.Bilinear against real PyTorch: the shuffles' values,
# gradients, node names and saved factors, round trips, reprs and errors; Bilinear's seeded initialisation,
# values and gradients over leading dims.
# Left out (1.13 vs 2.x): channel_shuffle's autograd (1.13's CPU kernel has none; 2.x ChannelShuffleBackward0).
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


x = torch.arange(32.0).reshape(1, 8, 2, 2).requires_grad_()
y = F.pixel_shuffle(x, 2)
print(type(y.grad_fn).__name__, y.grad_fn._saved_upscale_factor, tuple(y.shape), y.is_contiguous(),
      [type(n[0]).__name__ for n in y.grad_fn.next_functions], r(y))
z = F.pixel_unshuffle(y, 2)
print(type(z.grad_fn).__name__, z.grad_fn._saved_downscale_factor, tuple(z.shape), torch.equal(z, x))
(z * torch.arange(32.0).reshape(z.shape)).sum().backward()
print(r(x.grad))
torch.manual_seed(0)
x = torch.randn(2, 3, 8, 3, 3, requires_grad=True)
y = nn.PixelShuffle(2)(x)
y.backward(torch.linspace(-1, 1, y.numel()).reshape(y.shape))
print(tuple(y.shape), r(y)[:12], r(x.grad)[:12], torch.equal(nn.PixelUnshuffle(2)(y), x))
print(tuple(torch.pixel_shuffle(torch.arange(8.0).reshape(2, 2, 2), 1).shape),
      r(F.pixel_unshuffle(torch.arange(16.0).reshape(1, 4, 4), 2)), r(torch.pixel_unshuffle(torch.ones(1, 3, 3), 3)))
x = torch.arange(24.0).reshape(1, 6, 2, 2)
print(r(F.channel_shuffle(x, 3)[0, :, 0, 0]), r(nn.ChannelShuffle(2)(x)[0, :, 0, 0]),
      r(torch.channel_shuffle(torch.arange(12.0).reshape(2, 6, 1), 2)))
print(nn.PixelShuffle(3), nn.PixelUnshuffle(2), nn.ChannelShuffle(2), nn.PixelShuffle(3).upscale_factor)
err(lambda: F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2))
err(lambda: F.pixel_shuffle(torch.ones(3, 2), 2))
err(lambda: F.pixel_unshuffle(torch.ones(1, 1, 3, 2), 2))
err(lambda: F.pixel_unshuffle(torch.ones(1, 1, 2, 3), 2))
err(lambda: F.channel_shuffle(x, 4))
err(lambda: F.channel_shuffle(x, 0))

torch.manual_seed(0)
b = nn.Bilinear(3, 4, 5)
print(b, [n for n, _ in b.named_parameters()], tuple(b.weight.shape), r(b.weight)[:6], r(b.bias))
x1, x2 = torch.randn(2, 6, 3), torch.randn(2, 6, 4)
y = b(x1, x2)
y.sum().backward()
print(tuple(y.shape), r(y)[:8], r(b.weight.grad)[:8], r(b.bias.grad))
b2 = nn.Bilinear(2, 2, 1, bias=False)
print(b2, b2.bias, tuple(b2(torch.ones(4, 2), torch.ones(4, 2)).shape))
x1 = torch.randn(4, 3, requires_grad=True)
y = F.bilinear(x1, torch.randn(4, 4), b.weight, b.bias)
y.sum().backward()
print(r(y)[:6], r(x1.grad)[:6])

# init.orthogonal_ (the super-resolution example's initialiser): PyTorch's draws, Q's signs fixed by R
torch.manual_seed(0)
w = torch.empty(4, 6)
nn.init.orthogonal_(w, nn.init.calculate_gain("relu"))
print(r(w))
w = torch.empty(6, 2, 2)
nn.init.orthogonal_(w)
print(r(w), torch.rand(1).tolist(), r((w.reshape(6, 4).t() @ w.reshape(6, 4) - torch.eye(4)).abs() < 1e-5))
err(lambda: nn.init.orthogonal_(torch.empty(3)))
