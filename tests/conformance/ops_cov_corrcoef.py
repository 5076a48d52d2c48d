# torch.cov / torch.corrcoef against real PyTorch: values and gradients (rounded), nodes, Tensor forms, fweights /
# aweights, integer input, the degrees-of-freedom warning (its first words: 1.13's is shorter) and errors.
import torch, warnings
def r(t): return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]
torch.manual_seed(0)
x = torch.randn(3, 6, requires_grad=True)
c = torch.cov(x)
print("cov", r(c), type(c.grad_fn).__name__, type(c.grad_fn.next_functions[0][0]).__name__)
c.sum().backward(); print(r(x.grad))
print(r(torch.cov(x, correction=0)), r(x.cov()), r(torch.cov(x[0])), torch.cov(x[0]).shape)
fw = torch.tensor([1, 2, 1, 3, 1, 1]); aw = torch.tensor([0.5, 1.0, 2.0, 0.1, 0.3, 1.0])
print(r(torch.cov(x, fweights=fw)), r(torch.cov(x, aweights=aw)), r(torch.cov(x, fweights=fw, aweights=aw)))
print("corrcoef", r(torch.corrcoef(x)), r(x.corrcoef()), r(torch.corrcoef(x[0])), type(torch.corrcoef(x).grad_fn).__name__)
print(r(torch.cov(torch.arange(6).reshape(2, 3))), torch.cov(torch.arange(6).reshape(2, 3)).dtype)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(r(torch.cov(torch.ones(2, 1))), [str(m.message)[:33] for m in w])
for bad in (lambda: torch.cov(torch.zeros(2, 2, 2)), lambda: torch.cov(x, fweights=aw), lambda: torch.cov(x, aweights=fw),
            lambda: torch.cov(x, fweights=torch.tensor([1, 2])), lambda: torch.cov(x, fweights=-fw)):
    try: bad()
    except RuntimeError as e: print(type(e).__name__, e)
