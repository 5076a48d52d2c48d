# Seeded random values are PyTorch's, bit for bit (CPU generator: mt19937 and ATen's CPU sampling kernels):
# every factory and in-place sampler, both Box-Muller paths of randn (the AVX2 one for >= 16 float32 values,
# the cached-pair one below), strided fills (memory order), generator objects, get/set_rng_state bytes,
# module initialisers, dropout masks, DataLoader shuffling and random_split.
import torch


def show(tag, v):
    print(tag, v.tolist() if isinstance(v, torch.Tensor) else v)


torch.manual_seed(0)
show("rand", torch.rand(5))
show("randn3", torch.randn(3))
show("randn20", torch.randn(20))
show("randn64", torch.randn(17, dtype=torch.float64))
show("randint", torch.randint(0, 100, (6,)))
show("randint_wide", torch.randint(-5, 2 ** 40, (4,)))
show("randperm", torch.randperm(12))
show("normal", torch.normal(2.0, 3.0, size=(4,)))
show("normal_tensors", torch.normal(torch.zeros(3), torch.ones(3)))
print(torch.randn(2, 3))
for seed in (1, 7, 2 ** 40 + 3):
    torch.manual_seed(seed)
    for n in (1, 2, 15, 16, 17, 33, 100):
        show(f"{seed} {n} randn", torch.randn(n))
        show(f"{seed} {n} randn64", torch.randn(n, dtype=torch.float64))
        show(f"{seed} {n} rand64", torch.rand(n, dtype=torch.float64))
        show(f"{seed} {n} normal_", torch.empty(n).normal_(0.5, 2.0))
        show(f"{seed} {n} uniform_", torch.empty(n).uniform_(-0.1, 0.3))
x = torch.empty(3, 4).t()
x.uniform_(-1, 1)
show("strided", x)
show("random_", torch.empty(4, dtype=torch.int64).random_())
show("random_float", torch.empty(3).random_())
show("random_to", torch.empty(5, dtype=torch.int32).random_(7))
show("bernoulli_p", torch.empty(9).bernoulli_(0.3))
show("bernoulli", torch.bernoulli(torch.full((8,), 0.4)))
show("bernoulli64", torch.bernoulli(torch.full((5,), 0.5, dtype=torch.float64)))
show("rand_like", torch.rand_like(torch.zeros(2, 2)))
show("randn_like", torch.randn_like(torch.zeros(2, 2)))
g = torch.Generator().manual_seed(42)
show("generator", torch.rand(3, generator=g))
show("generator_randn", torch.randn(4, generator=g))
print("initial_seed", g.initial_seed())

state = torch.get_rng_state()
print("state", state.dtype, state.shape, state[:24].tolist(), state[-40:].tolist())
a = torch.randn(5)
torch.set_rng_state(state)
print("replayed", torch.equal(a, torch.randn(5)))
torch.randn(1)  # leaves the second normal of its pair cached: the state carries it
show("cached_state", torch.get_rng_state()[-40:])
for bad in (torch.zeros(10, dtype=torch.uint8), torch.zeros(5056, dtype=torch.uint8), torch.zeros(5056)):
    try:
        torch.set_rng_state(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)

torch.manual_seed(3)
show("linear.weight", torch.nn.Linear(4, 3).weight.detach())
show("conv.weight", torch.nn.Conv2d(2, 3, 3).weight.detach()[0])
show("embedding", torch.nn.Embedding(10, 4).weight.detach()[:2])
lstm = torch.nn.LSTM(4, 5)
show("lstm", [p.detach().sum().item() == p.detach().sum().item() for p in lstm.parameters()])
show("lstm.weight_hh_l0", lstm.weight_hh_l0.detach()[0])
show("dropout", torch.nn.functional.dropout(torch.ones(12), 0.3))
show("dropout2d", torch.nn.functional.dropout2d(torch.ones(2, 4, 1, 1), 0.5))
show("alpha_dropout", torch.nn.functional.alpha_dropout(torch.ones(6), 0.5, training=True))

torch.manual_seed(5)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(20)), batch_size=6, shuffle=True)
show("shuffled", [batch[0].tolist() for batch in loader])
left, right = torch.utils.data.random_split(range(10), [7, 3])
show("random_split", list(right))

torch.manual_seed(8)
show("exponential", torch.empty(6).exponential_(1.5))
show("exponential64", torch.empty(4, dtype=torch.float64).exponential_())
probs = torch.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]])
show("multinomial1", torch.multinomial(probs, 1))
show("multinomial_no_replacement", torch.multinomial(probs, 3))
show("multinomial_replacement", torch.multinomial(probs, 6, replacement=True))
show("multinomial_1d", torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2))
show("multinomial64", torch.multinomial(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), 5, True))
for p, n, r in ((probs[0], 0, False), (probs[0], 5, False), (torch.ones(2, 2, 2), 1, False), (torch.tensor([1, 2]), 1, False),
                (torch.tensor([-1.0, 2.0]), 1, False), (torch.tensor([0.0, 0.0]), 1, False), (torch.tensor([0.0, 0.0]), 2, True),
                (torch.tensor([float("nan"), 1.0]), 2, True), (torch.tensor([float("inf"), 1.0]), 2, True)):
    try:
        torch.multinomial(p, n, r)
    except RuntimeError as e:
        print(type(e).__name__, e)

torch.manual_seed(4)
for dt in (torch.float32, torch.float64, torch.int64):
    show(f"geometric {dt}", torch.empty(20, dtype=dt).geometric_(0.3))
    if dt.is_floating_point:
        show(f"cauchy {dt}", torch.empty(20, dtype=dt).cauchy_(1.0, 2.0))
        show(f"log_normal {dt}", torch.empty(5, dtype=dt).log_normal_(0.5, 2.0))
        show(f"log_normal17 {dt}", torch.empty(17, dtype=dt).log_normal_())
for f in (lambda: torch.empty(2).geometric_(0), lambda: torch.empty(2).geometric_(1.5),
          lambda: torch.empty(2).log_normal_(1, 0.0), lambda: torch.empty(2).exponential_(-0.5),
          lambda: torch.empty(2, dtype=torch.int64).cauchy_()):
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)
