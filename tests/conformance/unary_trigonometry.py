# Inverse and hyperbolic trigonometry (asin, acos, atan, sinh, cosh, asinh, acosh, atanh, exp2 and the arc*
# aliases): values, gradients, grad_fn names, dtypes, out=, in-place and the integer errors, against real PyTorch.
import torch
x = torch.tensor([-0.9, -0.3, 0.0, 0.4, 0.8], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.2, 1.5, 2.0, 3.0, 10.0], dtype=torch.float64, requires_grad=True)
for name in ("asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh", "exp2", "arcsin", "arctanh"):
    x.grad = None
    r = getattr(torch, name)(x)
    r.sum().backward()
    print(name, [round(v, 6) for v in r.tolist()], [round(v, 6) for v in x.grad.tolist()], r.grad_fn.name())
y.grad = None
r = torch.acosh(y); r.sum().backward(); print("acosh", [round(v, 6) for v in r.tolist()], [round(v, 6) for v in y.grad.tolist()])
i = torch.tensor([0, 1, 2])
print(torch.asin(torch.tensor([0.5])).dtype, torch.atan(i), torch.sinh(i.float()).dtype)
print(torch.asin(torch.tensor([2.0])), torch.atanh(torch.tensor([1.0, -1.0])))
t = torch.tensor([0.1, 0.2]); t.atan_(); print(t, t.arcsin())
o = torch.empty(2); torch.cosh(torch.tensor([0.5, 1.0]), out=o); print(o)
try:
    torch.asin(i, out=torch.empty(3, dtype=torch.long))
except RuntimeError as e:
    print(e)
try:
    i.asin_()
except RuntimeError as e:
    print(e)
