# torch.nn.utils.parametrize and parametrizations against real PyTorch: register_parametrization (a custom
# parametrization with right_inverse, chained ones, several originals), the Parametrized<Class> subclass, the
# property's values and gradients, assignment through right_inverse, cached(), remove_parametrizations (both
# ways), type_before_parametrizations, state_dict keys, errors; parametrizations.spectral_norm (seeded _u / _v,
# the power iteration in training, eval). parametrizations.weight_norm is 2.1+: under 1.13 the same numbers
# come from the hook-based weight_norm, printed under the 2.x names.
import warnings

import torch
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils import parametrizations as P

warnings.simplefilter("ignore")


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def forward(self, X):
        return 2 * X


class Split(nn.Module):
    def forward(self, A, B):
        return A + B

    def right_inverse(self, X):
        return X * 0.25, X * 0.75


torch.manual_seed(0)
m = nn.Linear(3, 3).double()
w0 = m.weight.detach().clone()
parametrize.register_parametrization(m, "weight", Symmetric())
print(type(m).__name__, parametrize.type_before_parametrizations(m).__name__, parametrize.is_parametrized(m),
      parametrize.is_parametrized(m, "weight"), parametrize.is_parametrized(m, "bias"))
print(list(m.state_dict().keys()), [n for n, _ in m.named_parameters()])
print(r(m.weight), r(m.parametrizations.weight.original))
x = torch.randn(2, 3, dtype=torch.float64)
m(x).pow(2).sum().backward()
print(r(m.parametrizations.weight.original.grad))
m.weight = torch.arange(9.0, dtype=torch.float64).reshape(3, 3)
print(r(m.parametrizations.weight.original), r(m.weight))
parametrize.register_parametrization(m, "weight", Scale())
print(len(m.parametrizations.weight), r(m.weight))
with parametrize.cached():
    a, b = m.weight, m.weight
    print(a is b)
print(m.weight is m.weight)
err(lambda: setattr(m, "weight", torch.ones(3, 3, dtype=torch.float64)))
parametrize.remove_parametrizations(m, "weight")
print(type(m).__name__, list(m.state_dict().keys()), r(m.weight), type(m.weight).__name__)

m = nn.Linear(2, 2).double()
parametrize.register_parametrization(m, "bias", Split())
print(list(m.state_dict().keys()), r(m.parametrizations.bias.original0), r(m.bias))
err(lambda: parametrize.remove_parametrizations(m, "bias", leave_parametrized=False))
parametrize.remove_parametrizations(m, "bias")
print(list(m.state_dict().keys()), r(m.bias))
m = nn.Linear(2, 2).double()
parametrize.register_parametrization(m, "weight", Scale())
parametrize.remove_parametrizations(m, "weight", leave_parametrized=False)
print(r(m.weight))
err(lambda: parametrize.remove_parametrizations(m, "weight"))
err(lambda: parametrize.register_parametrization(m, "nope", Scale()))
err(lambda: parametrize.register_parametrization(nn.Linear(2, 3), "weight", Symmetric()))

print("--- spectral_norm")
torch.manual_seed(1)
s = P.spectral_norm(nn.Linear(5, 4).double())
print(type(s).__name__, list(s.state_dict().keys()))
print(r(s.parametrizations.weight[0]._u), r(s.parametrizations.weight[0]._v))
x = torch.randn(3, 5, dtype=torch.float64)
for _ in range(2):
    y = s(x)
    y.pow(2).sum().backward()
print(r(y), r(s.parametrizations.weight.original.grad), r(s.parametrizations.weight[0]._u))
s.eval()
print(r(s(x)))
t = P.spectral_norm(nn.ConvTranspose2d(3, 2, 2).double())
print(t.parametrizations.weight[0].dim, tuple(t.parametrizations.weight[0]._u.shape), r(t.weight.flatten()[:4]))
b = P.spectral_norm(nn.Linear(3, 3).double(), name="bias")
print(r(b.bias), [n for n, _ in b.named_buffers()])
err(lambda: P.spectral_norm(nn.Linear(2, 2), name="nope"))
err(lambda: P.spectral_norm(nn.Linear(2, 2), dim=2))
err(lambda: P.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))

print("--- weight_norm")
torch.manual_seed(2)
lin = nn.Linear(4, 3).double()
if hasattr(P, "weight_norm"):
    P.weight_norm(lin)
    g, v = lin.parametrizations.weight.original0, lin.parametrizations.weight.original1
    keys = list(lin.state_dict().keys())
else:  # 1.13: the hook-based one computes the same
    nn.utils.weight_norm(lin)
    g, v = lin.weight_g, lin.weight_v
    keys = ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
print(keys, tuple(g.shape), r(g), r(lin.weight))
y = lin(torch.ones(2, 4, dtype=torch.float64))
y.pow(2).sum().backward()
print(r(g.grad), r(v.grad))
