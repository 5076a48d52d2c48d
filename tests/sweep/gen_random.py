"""Random programs over PyTorch's random numbers (generate.py --kind random): seeds and generators, every CPU
sampler in its factory and in-place forms, dtypes, sizes on both sides of randn's 16-element block, strided
fills, rng state save/replay, module initialisers, dropout and DataLoader shuffles. Seeded values are
PyTorch's bit for bit (torch/_cpu_sampling.py), so every value is printed exactly (repr of floats)."""

DTYPES = ("torch.float32", "torch.float64")


def _shape(rng):
    dims = rng.choice([1, 1, 2, 2, 3])
    sizes = [rng.choice([1, 2, 3, 4, 5, 7, 8, 16, 17]) for _ in range(dims)]
    while _numel(sizes) > 64:
        sizes[rng.randrange(dims)] = 1
    return tuple(sizes)


def _numel(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def _gen_arg(rng, generators):
    return f", generator={rng.choice(generators)}" if generators and rng.random() < 0.3 else ""


def _draw(rng, generators):
    """One statement leaving a tensor in `t` (or printing what it checks itself)."""
    shape, dt = _shape(rng), rng.choice(DTYPES)
    g = _gen_arg(rng, generators)
    what = rng.randrange(16)
    if what == 0:
        return [f"t = torch.rand({shape}, dtype={dt}{g})"]
    if what == 1:
        return [f"t = torch.randn({shape}, dtype={dt}{g})"]
    if what == 2:
        lo = rng.choice([0, -5, 3])
        hi = lo + rng.choice([1, 2, 10, 1000, 2 ** 33])
        return [f"t = torch.randint({lo}, {hi}, {shape}{g})"]
    if what == 3:
        return [f"t = torch.randperm({rng.randint(0, 40)}{g})"]
    if what == 4:
        return [f"t = torch.normal({rng.choice([0.0, 1.5, -2.0])}, {rng.choice([1.0, 0.5, 3.0])}, size={shape}{g})"]
    if what == 5:
        a = rng.choice([-1.0, 0.0, -0.25])
        return [f"t = torch.empty({shape}, dtype={dt}).uniform_({a}, {a + rng.choice([1.0, 2.5, 0.5])}{g})"]
    if what == 6:
        return [f"t = torch.empty({shape}, dtype={dt}).normal_({rng.choice([0.0, 2.0])}, "
                f"{rng.choice([1.0, 0.1])}{g})"]
    if what == 7:
        return [f"t = torch.empty({shape}, dtype={dt}).bernoulli_({rng.choice([0.1, 0.5, 0.9])}{g})"]
    if what == 8:
        return [f"t = torch.bernoulli(torch.full({shape}, {rng.choice([0.3, 0.7])}, dtype={dt}){g})"]
    if what == 9:
        fill = rng.choice([f"exponential_({rng.choice([1.0, 0.5, 4.0])}", f"geometric_({rng.choice([0.2, 0.7])}",
                           f"cauchy_({rng.choice([0.0, 1.5])}, {rng.choice([1.0, 0.5])}",
                           f"log_normal_({rng.choice([0.0, 1.0])}, {rng.choice([0.5, 2.0])}"])
        return [f"t = torch.empty({shape}, dtype={dt}).{fill}{g})"]
    if what == 10:
        base = (rng.choice([2, 3, 5, 8]), rng.choice([4, 6, 9, 17]))
        view = rng.choice(["base.t()", "base[:, ::2]", "base[1:]", "base.t()[::2]"])
        fill = rng.choice(["uniform_(-1, 1)", "normal_()", "bernoulli_(0.5)", "exponential_()"])
        return [f"base = torch.zeros({base}, dtype={dt})", f"view = {view}", f"view.{fill}", "t = base"]
    if what == 11:
        rows, cats = rng.choice([1, 2, 3]), rng.choice([2, 3, 5, 8])
        n = rng.randint(1, cats)
        replacement = rng.random() < 0.5
        if replacement:  # (one sample with replacement: 1.13 searches the cumulative sums, 2.x takes the
            n = rng.randint(2, 10)  # Gumbel path; they draw differently)
        return [f"probs = torch.rand({rows}, {cats}, dtype={dt}) + 0.01",
                f"t = torch.multinomial(probs, {n}, {replacement}{g})"]
    if what == 12:
        layer = rng.choice([f"nn.Linear({rng.randint(1, 6)}, {rng.randint(1, 6)})",
                            f"nn.Conv1d({rng.randint(1, 3)}, {rng.randint(1, 3)}, {rng.randint(1, 3)})",
                            f"nn.Embedding({rng.randint(2, 9)}, {rng.randint(1, 5)})",
                            f"nn.LSTM({rng.randint(1, 4)}, {rng.randint(1, 4)})",
                            f"nn.GRU({rng.randint(1, 4)}, {rng.randint(1, 3)}, num_layers=2)",
                            f"nn.Bilinear(2, 3, {rng.randint(1, 3)})"])
        return [f"layer = {layer}", "t = torch.cat([p.detach().flatten() for p in layer.parameters()])"]
    if what == 13:
        p = rng.choice([0.2, 0.5, 0.8])
        fn = rng.choice([f"F.dropout(torch.ones({shape}, dtype={dt}), {p}, training=True)",
                         f"F.dropout2d(torch.ones(2, 3, 2, 2, dtype={dt}), {p}, training=True)",
                         f"F.alpha_dropout(torch.ones({shape}, dtype={dt}), {p}, training=True)"])
        return [f"t = {fn}"]
    if what == 14:
        ref = rng.choice(["torch.rand_like", "torch.randn_like"])
        return [f"t = {ref}(torch.zeros({shape}, dtype={dt}))"]
    n = rng.randint(1, 30)
    return [f"loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange({n})), "
            f"batch_size={rng.randint(1, 8)}, shuffle=True)",
            "t = torch.cat([b[0] for b in loader])"]


def random_program(rng):
    lines = ["import torch.nn as nn", "import torch.nn.functional as F",
             f"torch.manual_seed({rng.choice([0, 1, 7, 42, 1234, 2 ** 40 + 3, rng.randrange(2 ** 32)])})"]
    generators = []
    if rng.random() < 0.4:
        lines.append(f"g0 = torch.Generator().manual_seed({rng.randrange(2 ** 31)})")
        generators.append("g0")
    for k in range(rng.randint(2, 7)):
        if rng.random() < 0.15:
            lines += ["state = torch.get_rng_state()", "a = torch.randn(5)", "torch.set_rng_state(state)",
                      "print('replay', torch.equal(a, torch.randn(5)))"]
        lines += _draw(rng, generators)
        lines.append(f"print({k}, t.dtype, tuple(t.shape), t.tolist())")
    lines.append("print('state', torch.get_rng_state()[-40:].tolist(), torch.initial_seed())")
    return lines
