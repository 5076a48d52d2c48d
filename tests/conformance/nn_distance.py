# Distances against real PyTorch: F.cosine_similarity / nn.CosineSimilarity, F.pairwise_distance /
# nn.PairwiseDistance, torch.dist, torch.cdist (the direct kernel and, above 25 rows, the matmul form),
# F.pdist, torch.linalg.matrix_power: values and gradients (rounded), grad_fn names and their inputs' nodes,
# what the nodes save, zero distances (gradient 0, not nan), broadcasting, reprs and argument errors.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]  # (+ 0.0: the sign of a zero is noise)


def names(y):
    fn = y.grad_fn
    return type(fn).__name__, [type(n[0]).__name__ for n in fn.next_functions]


def saved(fn):
    out = []
    for name in sorted(a for a in dir(fn) if a.startswith("_saved_") and a != "_saved_dim"):
        v = getattr(fn, name)
        out.append((name, tuple(v.shape) if isinstance(v, torch.Tensor) else v))
    return out


def run(label, f, *xs, graph=True):
    xs = [x.clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    info = (names(y), saved(y.grad_fn)) if graph else None
    y.backward(torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape))
    print(label, info, tuple(y.shape), r(y), "grads", [r(x.grad) for x in xs])


torch.manual_seed(0)
a = torch.randn(4, 5)
b = torch.randn(4, 5)
c = torch.randn(2, 3, 5)

run("cos", F.cosine_similarity, a, b)
run("cos_dim0", lambda x, y: F.cosine_similarity(x, y, dim=0), a, b)
run("cos_bcast", lambda x, y: F.cosine_similarity(x, y, dim=-1), c, b[:1])
run("cos_zero", F.cosine_similarity, torch.zeros(2, 3), a[:2, :3])
run("CosineSimilarity", nn.CosineSimilarity(dim=1, eps=1e-6), a, b)
run("pair", F.pairwise_distance, a, b)
run("pair_p1_keep", lambda x, y: F.pairwise_distance(x, y, p=1, keepdim=True), a, b)
run("pair_p3", lambda x, y: F.pairwise_distance(x, y, 3.0), a, b)
run("pair_same", F.pairwise_distance, a, a)
run("pair_1d", F.pairwise_distance, a[0], b[0])
run("PairwiseDistance", nn.PairwiseDistance(p=2.0, eps=1e-3), c, b[:3])
run("dist", torch.dist, a, b)
run("dist_p1", lambda x, y: torch.dist(x, y, 1), a, b)
run("dist_p3", lambda x, y: torch.dist(x, y, 3), a, b)
run("dist_bcast", torch.dist, c, b[:1])
run("cdist", torch.cdist, a, b[:3])
run("cdist_p1", lambda x, y: torch.cdist(x, y, p=1), a, b[:3])
run("cdist_pinf", lambda x, y: torch.cdist(x, y, p=float("inf")), a, b[:3])
run("cdist_self", torch.cdist, a, a)
run("cdist_batch", torch.cdist, c, torch.randn(2, 4, 5))
run("cdist_bcast", torch.cdist, c, torch.randn(1, 4, 5))
big = torch.randn(30, 5)
run("cdist_mm", torch.cdist, big, b)
run("cdist_mm_mode", lambda x, y: torch.cdist(x, y, compute_mode="use_mm_for_euclid_dist"), a, b)
run("cdist_no_mm", lambda x, y: torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist"), big, b)
run("pdist", F.pdist, a)
run("pdist_p1", lambda x: F.pdist(x, p=1), a)
run("pdist_dup", F.pdist, torch.cat([a[:2], a[:1]]))
run("mp2", lambda m: torch.linalg.matrix_power(m, 2), a[:3, :3])
run("mp3", lambda m: torch.linalg.matrix_power(m, 3), a[:3, :3])
run("mp5", lambda m: torch.linalg.matrix_power(m, 5), a[:3, :3] / 2)
run("mp1", lambda m: torch.linalg.matrix_power(m, 1), a[:3, :3])
run("mp0", lambda m: torch.matrix_power(m, 0), a[:3, :3])
# (batched matmul's own graph - UnsafeViewBackward0 over bmm in ATen - is not this file's subject)
run("mp_batch", lambda m: torch.linalg.matrix_power(m, 4), torch.randn(2, 3, 3) / 2, graph=False)
for name, f in [("cos", lambda t: F.cosine_similarity(t, t.flip(0) + 1, dim=0)),
                ("pair", lambda t: F.pairwise_distance(t, t * 0.5)), ("dist", lambda t: torch.dist(t, t.flip(0)))]:
    x = torch.linspace(-2, 2, 6, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g * torch.arange(6.0, dtype=torch.float64)).sum(), x)
    print("double", name, r(g), r(gg))
print(r(torch.linalg.matrix_power(torch.tensor([[2.0, 1.0], [0.0, 1.0]]), -2)))
t = torch.tensor([[1.0, -0.2], [0.3, 2.0]])  # the Tensor-method forms
print(r(t.dist(torch.zeros(2, 2))), r(t.dist(torch.ones(2, 2), 1)), r(t.hardshrink()), r(t.hardshrink(0.25)),
      r(t.matrix_power(2)), r(t.prelu(torch.tensor([0.5, 0.1]))))
print(F.pdist(torch.ones(1, 3)).shape, F.pdist(torch.ones(0, 3)).shape, torch.cdist(torch.ones(0, 3), a[:, :3]).shape)
print(nn.CosineSimilarity(), nn.PairwiseDistance(), nn.PairwiseDistance(1.0, 1e-3, True).norm,
      nn.PairwiseDistance(1.0, 1e-3, True).keepdim, nn.CosineSimilarity(0, 1e-4).eps)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


x = torch.randn(2, 3)
err(lambda: torch.cdist(x, torch.ones(2, 4)))
err(lambda: torch.cdist(torch.ones(3), x))
err(lambda: torch.cdist(x, torch.ones(3)))
err(lambda: torch.cdist(x, x, p=-1))
err(lambda: F.pdist(torch.ones(3)))
err(lambda: F.pdist(x, p=-1))
err(lambda: torch.dist(x, torch.ones(3, 3)))
err(lambda: F.cosine_similarity(x, torch.ones(4, 3)))
err(lambda: F.cosine_similarity(torch.ones(2, 3, dtype=torch.int64), torch.ones(2, 3, dtype=torch.int64)))
err(lambda: F.pairwise_distance(x, torch.ones(3, 3)))
err(lambda: torch.linalg.matrix_power(x, 2))
err(lambda: torch.linalg.matrix_power(torch.ones(3), 2))
