# Hook-based weight and spectral normalisation against real PyTorch: nn.utils.weight_norm / remove_weight_norm
# (weight_g / weight_v parameters, dim 0, last, None and a middle dim) and nn.utils.spectral_norm /
# remove_spectral_norm (weight_orig parameter, weight_u / weight_v buffers drawn from the seeded generator, the
# power iteration in training, eval, state_dict metadata and reload, ConvTranspose's dim=1): values, gradients,
# parameter and buffer names, errors. Left out (1.13 vs 2.x): weight_norm's node (1.13's CPU build takes the
# composite, MulBackward0; 2.x the fused WeightNormInterfaceBackward0).
import warnings

import torch
from torch import nn

warnings.simplefilter("ignore")  # weight_norm's deprecation warning (2.x) goes to stderr anyway


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()[:6]]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


torch.manual_seed(0)
m = nn.utils.weight_norm(nn.Linear(4, 3).double())
print(m, [(n, tuple(p.shape)) for n, p in m.named_parameters()], list(m.state_dict()))
print(r(m.weight_g), r(m.weight))
x = torch.randn(5, 4, dtype=torch.float64)
y = m(x); y.pow(2).sum().backward()
print(r(y), r(m.weight_g.grad), r(m.weight_v.grad))
for dim in [None, 1, 2]:
    c = nn.utils.weight_norm(nn.Conv2d(2, 3, 3).double(), dim=dim)
    print(dim, tuple(c.weight_g.shape), r(c.weight_g))
    y = c(torch.randn(1, 2, 5, 5, dtype=torch.float64)); y.sum().backward()
    print(r(c.weight_g.grad), r(c.weight_v.grad))
nn.utils.remove_weight_norm(m); print([(n, tuple(p.shape)) for n, p in m.named_parameters()], r(m.weight))
try: nn.utils.remove_weight_norm(m)
except Exception as e: print(type(e).__name__, e)
s = nn.utils.spectral_norm(nn.Linear(5, 4).double())
print([(n, tuple(p.shape)) for n, p in s.named_parameters()], [(n, tuple(p.shape)) for n, p in s.named_buffers()], list(s.state_dict()))
print(r(s.weight_u), r(s.weight_v))
x = torch.randn(3, 5, dtype=torch.float64)
for i in range(3):
    y = s(x); y.pow(2).sum().backward()
print(r(y), r(s.weight_orig.grad), r(s.weight_u), r(s.weight_v), type(s.weight.grad_fn).__name__)
s.eval(); print(r(s(x)))
sd = s.state_dict(); print(sd._metadata[""])
s2 = nn.utils.spectral_norm(nn.Linear(5, 4).double()); print(s2.load_state_dict(sd))
t = nn.utils.spectral_norm(nn.ConvTranspose2d(3, 4, 2)); print(tuple(t.weight_u.shape), tuple(t.weight_v.shape))
nn.utils.remove_spectral_norm(s); print(list(s.state_dict()), r(s.weight))
err(lambda: nn.utils.weight_norm(nn.utils.weight_norm(nn.Linear(2, 2))))
err(lambda: nn.utils.spectral_norm(nn.utils.spectral_norm(nn.Linear(2, 2))))
err(lambda: nn.utils.spectral_norm(nn.Linear(2, 2, bias=False), name="bias"))
err(lambda: nn.utils.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
err(lambda: nn.utils.remove_spectral_norm(nn.Linear(2, 2)))
print("--- two forwards, one backward (GAN pattern)")
d = nn.utils.spectral_norm(nn.Linear(3, 1).double())
a, b = torch.randn(4, 3, dtype=torch.float64), torch.randn(4, 3, dtype=torch.float64)
loss = d(a).mean() - d(b).mean()
loss.backward()
print(r(d.weight_orig.grad), r(d.bias.grad), r(d.weight_u))
