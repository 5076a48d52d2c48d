# Vector norms, F.normalize, gradient clipping and clamp_min/clamp_max, compared with real PyTorch line by line:
# values, gradients (at zero norms and ties too), double backward, allocation-free in-place clipping, errors.
# Node names of torch.norm differ between 1.13 (NormBackward1) and 2.x (LinalgVectorNormBackward0, what
# DeviceScope follows): they are not printed here (README.md's table).
import torch
import torch.nn.functional as F


def show(label, fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the error's type and words are what is compared
        print(label, type(e).__name__, e)
        return
    print(label, r)


torch.manual_seed(0)
x = torch.randn(3, 4, dtype=torch.float64)
for p in [2, 2.0, 1, 3, 0.5, 0, float("inf"), float("-inf"), -1, "fro"]:
    for dim in [None, 1, 0, -1, (0, 1)]:
        for keepdim in [False, True]:
            if dim is None and keepdim:
                continue
            a = x.clone().requires_grad_(True)
            n = a.norm(p, dim, keepdim)
            print("norm", p, dim, keepdim, tuple(n.shape), n.detach())
            n.sum().backward()
            print("  grad", a.grad)

# zero norms (masked to 0, not NaN), ties of the inf norm (shared), NaN entries
w = torch.tensor([[1., -2., 2.], [0., 0., 0.], [3., float("nan"), 1.]], dtype=torch.float64)
for p in [2, 1, 3, 0.5, float("inf"), 0]:
    a = w.clone().requires_grad_(True)
    a.norm(p, 1).sum().backward()
    print("special", p, a.grad)
z = torch.zeros(2, 3, requires_grad=True)
z.norm().backward()
print("zero whole", z.grad)

# linalg.vector_norm's own arguments
v = torch.randn(2, 3, 4, dtype=torch.float64)
print("vector_norm", torch.linalg.vector_norm(v), torch.linalg.vector_norm(v, 3, (0, 2)),
      torch.linalg.vector_norm(v, float("inf"), -1, True))
print("vector_norm dtype", torch.linalg.vector_norm(v.float(), dtype=torch.float64).dtype)
show("vector_norm int", lambda: torch.linalg.vector_norm(torch.tensor([3, 4])))
show("vector_norm empty inf", lambda: torch.linalg.vector_norm(torch.empty(0, 3), float("inf")))
show("vector_norm empty inf dim", lambda: torch.linalg.vector_norm(torch.empty(0, 3), float("inf"), 0))
print("vector_norm empty batch", torch.linalg.vector_norm(torch.empty(0, 3), float("inf"), 1))
print("vector_norm empty 2", torch.linalg.vector_norm(torch.empty(0, 3)))
show("norm bad dim", lambda: torch.randn(2, 3).norm(2, 3))

# double backward (a gradient penalty's path)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(a.norm(dim=1).sum(), a, create_graph=True)
h, = torch.autograd.grad(g.pow(2).sum(), a)
print("double backward", h)

# F.normalize: its graph (norm, clamp_min, expand, div), zero rows, out=
for kw in [{}, {"p": 1.0}, {"p": 3, "dim": 0}, {"dim": -1, "eps": 0.5}, {"p": float("inf")}]:
    a = x.clone().requires_grad_(True)
    y = F.normalize(a, **kw)
    print("normalize", kw, y.detach(), type(y.grad_fn).__name__, type(y.grad_fn.next_functions[1][0]).__name__,
          type(y.grad_fn.next_functions[1][0].next_functions[0][0]).__name__)
    y.pow(3).sum().backward()
    print("  grad", a.grad)
zr = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
yz = F.normalize(zr)
yz.sum().backward()
print("normalize zeros", yz.detach(), zr.grad)
o = torch.empty(3, 4, dtype=torch.float64)
r = F.normalize(x, out=o)
print("normalize out", r is o, o)
print("cosine", F.cosine_similarity(x, x.flip(0)))

# clamp_min / clamp_max nodes and what they save
a = torch.randn(4, requires_grad=True)
for name, fn in [("clamp_min", lambda t: t.clamp_min(0.25)), ("clamp_max", lambda t: t.clamp_max(0.25)),
                 ("clamp", lambda t: t.clamp(min=0.25)), ("clamp both", lambda t: torch.clamp(t, -0.5, 0.5)),
                 ("torch.clamp_min", lambda t: torch.clamp_min(t, 1))]:
    n = fn(a).grad_fn
    print(name, type(n).__name__, sorted(k for k in dir(n) if k.startswith("_saved_") and k != "_saved_self"),
          [getattr(n, k) for k in sorted(dir(n)) if k in ("_saved_min", "_saved_max")])
b = torch.tensor([1.0, -2.0, 3.0, 0.25], requires_grad=True)
b.clamp_min(0.25).sum().backward()
print("clamp_min grad", b.grad)
print("clamp ints", torch.tensor([1, 5, 9]).clamp_max(4), torch.tensor([1, 5, 9]).clamp_min(4.5))
c = torch.randn(4, requires_grad=True).clone()
c.clamp_min_(0.2)
print("clamp_min_", type(c.grad_fn).__name__)

# gradient clipping: total norms and the clipped gradients (rounded: the norm's last bit is the reduction's)
model = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
for norm_type in [2.0, 1, float("inf"), 3]:
    model.zero_grad(set_to_none=True)
    model(torch.randn(3, 5)).pow(2).sum().backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type)
    print("clip", norm_type, round(total.item(), 4), [round(p.grad.sum().item(), 5) for p in model.parameters()])
    print("  grad norm after", round(torch.nn.utils.clip_grad_norm_(model.parameters(), 100.0, norm_type).item(), 4))
print("clip empty", torch.nn.utils.clip_grad_norm_([], 1.0))
p = torch.nn.Parameter(torch.ones(3))
p.grad = torch.tensor([float("nan"), 1., 2.])
show("clip nonfinite", lambda: torch.nn.utils.clip_grad_norm_(p, 1.0, error_if_nonfinite=True))
print("clip nan", torch.nn.utils.clip_grad_norm_(p, 1.0))
model.zero_grad(set_to_none=True)
model(torch.randn(3, 5)).sum().backward()
grads = [q.grad for q in model.parameters()]
torch.nn.utils.clip_grad_value_(model.parameters(), 0.1)
print("clip value", [round(q.grad.abs().max().item(), 5) for q in model.parameters()],
      all(q.grad is g for q, g in zip(model.parameters(), grads)))
