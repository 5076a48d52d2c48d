# Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout and their F. forms against real PyTorch: reprs, eval()
# identity, p=0 and p=1, which elements / channels a mask zeroes (whole channels for the Nd forms, checked
# structurally since random values differ), alpha dropout keeping mean and variance, shape errors.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
for cls in (nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout, nn.FeatureAlphaDropout):
    print(cls(), cls(0.2, inplace=True))

x = torch.ones(4, 6, 5, 5)
print(torch.equal(nn.Dropout2d().eval()(x), x), nn.Dropout2d(0.0)(x) is x, F.dropout2d(x, 0.3, training=False) is x)
print(F.dropout2d(x, 1.0).abs().sum().item(), F.alpha_dropout(x, 1.0, training=True).abs().sum().item())

# channel-wise: each (sample, channel) plane is either all zero or all 1/(1-p)
for f, shape, batched in ((F.dropout1d, (8, 16, 7), True), (F.dropout2d, (8, 16, 3, 3), True),
                          (F.dropout3d, (4, 16, 2, 2, 2), True), (F.dropout1d, (16, 7), False),
                          (F.dropout3d, (16, 2, 2, 2), False)):
    y = f(torch.ones(shape), p=0.5)
    planes = y.reshape(shape[0], shape[1], -1) if batched else y.reshape(16, -1)
    values = sorted(set(round(v, 4) for v in y.flatten().tolist()))
    uniform = bool(((planes == planes[..., :1]).all()))
    print(f.__name__, tuple(y.shape), values, "planes uniform", uniform)

y = F.dropout(torch.ones(64, 64), 0.5)
print("element-wise dropout planes uniform", bool((y == y[:, :1]).all()))

# alpha dropout: dropped values go to -alpha' * a + b, kept ones are scaled; mean ~0 / std ~1 survive on N(0,1)
y = F.alpha_dropout(torch.zeros(1000), 0.5, training=True)
print(sorted(set(round(v, 4) for v in y.tolist())))
z = torch.randn(200000)
y = F.alpha_dropout(z, 0.2, training=True)
print(abs(y.mean().item()) < 0.02, abs(y.std().item() - 1.0) < 0.02)
y = F.feature_alpha_dropout(torch.zeros(8, 32, 4), 0.5, training=True)
print(sorted(set(round(v, 4) for v in y.flatten().tolist())), bool((y == y[..., :1]).all()))
print(nn.AlphaDropout(0.5).eval()(z) is z, F.alpha_dropout(z, 0.5) is z)

# autograd: the gradient is the mask
x = torch.ones(4, 8, 3, requires_grad=True)
y = F.dropout1d(x, 0.5)
y.sum().backward()
print(torch.equal(x.grad, y.detach()))


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: nn.Dropout2d(1.5))
err(lambda: F.dropout1d(torch.ones(2, 3, 4, 5)))
err(lambda: F.alpha_dropout(torch.ones(3), -0.1))
err(lambda: F.feature_alpha_dropout(torch.ones(3), 0.5, training=True))
