# no_grad / enable_grad / set_grad_enabled, requires_grad_ rules and their errors.
import torch

x = torch.ones(2, requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x + 1).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())

@torch.no_grad()
def f(t):
    return t * 2

print(f(x).requires_grad)
y = x * 2
for label, fn in [('nonleaf requires_grad_(False)', lambda: y.requires_grad_(False)),
                  ('int requires_grad', lambda: torch.tensor([1, 2], requires_grad=True)),
                  ('set on nonleaf', lambda: setattr(y, 'requires_grad', False))]:
    try:
        fn()
        print(label, 'ok')
    except RuntimeError as e:
        print(label, type(e).__name__, e)
t = torch.zeros(2)
print(t.requires_grad_() is t, t.requires_grad, t.is_leaf)
t.requires_grad = False
print(t.requires_grad)
print(y.requires_grad_(True) is y)
d = x.detach()
print(d.requires_grad, d.requires_grad_().requires_grad, x.requires_grad)
