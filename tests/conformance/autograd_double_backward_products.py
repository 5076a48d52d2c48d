# Higher-order gradients (create_graph=True) through einsum, prod and cumprod: the first gradient has a graph
# of its own, so Hessian-vector products and gradient penalties reach the inputs. First-order gradients of
# cumprod and prod with zeros in the input (ATen's formulas avoid dividing by them).
import torch


def r(t):
    return [round(v, 5) for v in t.flatten().tolist()]


x = torch.tensor([1.5, -2.0, 0.5], requires_grad=True)
w = torch.tensor([[0.5, 1.0], [-1.0, 2.0], [0.25, -0.5]], requires_grad=True)
cases = [
    ("einsum_dot", lambda: torch.einsum("i,i->", x, x * 2)),
    ("einsum_matvec", lambda: torch.einsum("ij,i->j", w, x).pow(2).sum()),
    ("einsum_outer", lambda: torch.einsum("i,j->ij", x, x).sum()),
    ("einsum_trace_free", lambda: torch.einsum("ik,jk->ij", w, w).sum()),
    ("prod", lambda: x.prod()),
    ("prod_dim", lambda: w.prod(1).sum()),
    ("cumprod", lambda: x.cumprod(0).sum()),
    ("cumprod_2d", lambda: (w.cumprod(0) * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum()),
]
for name, f in cases:
    inputs = [x, w]
    grads = torch.autograd.grad(f(), inputs, create_graph=True, allow_unused=True)
    used = [(t, g) for t, g in zip(inputs, grads) if g is not None]
    second = torch.autograd.grad(sum(g.sum() for _, g in used), [t for t, _ in used], allow_unused=True)
    print(name, [r(g) for _, g in used], [r(h) if h is not None else None for h in second])

for values in ([2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 5.0], [1.0, 2.0, 0.0]):
    z = torch.tensor(values, requires_grad=True)
    z.cumprod(0).sum().backward()
    cum = r(z.grad)
    z.grad = None
    z.prod().backward()
    print("zeros", values, cum, r(z.grad))
