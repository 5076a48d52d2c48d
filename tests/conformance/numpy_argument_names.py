# Keyword forms real scripts use: PyTorch's own parameter names on methods (a.matmul(other=b)) and the NumPy
# names PyTorch's argument parser accepts for every parsed op (axis= for dim, keepdims= for keepdim, x1/x2 for
# input/other). Runs under real PyTorch and DeviceScope; every line must match.
import torch

x = torch.arange(6.).reshape(2, 3)
y = torch.ones(3, 2)
print(x.matmul(other=y), torch.matmul(input=x, other=y))
print(x.mm(mat2=y), torch.mm(x, mat2=y))
print(x.add(other=x, alpha=2), torch.add(input=x, other=x), torch.add(x1=x, x2=x))
print(x.mul(other=x).sum(dim=1), x.sub(other=1))
print(torch.ones(3).dot(tensor=torch.arange(3.)), torch.ones(2).outer(vec2=torch.arange(3.)))
for name in ("sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "std", "var", "any", "all",
             "cumsum", "cumprod", "softmax", "log_softmax", "logsumexp", "nansum", "count_nonzero"):
    for call in (lambda: getattr(x, name)(axis=1), lambda: getattr(torch, name)(x, axis=0)):
        try:
            r = call()
            r = r[0] if isinstance(r, tuple) else r
            print(name, r.shape, [round(float(v), 4) for v in r.flatten()])
        except Exception as e:  # the ops PyTorch refuses must be refused the same way
            print(name, type(e).__name__, str(e).splitlines()[0])
print(x.sum(1, keepdims=True), torch.mean(x, dim=0, keepdims=True), x.sum(axis=1, keepdim=True).shape)
try:
    x.sum(dim=1, axis=0)
except TypeError as e:
    print("TypeError", type(e).__name__)
