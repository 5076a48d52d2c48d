"""Random module trees for the sweep: what each generated module registers, and the class definitions.

ModuleBuilder makes modules on the forward path (Linear, Sequential, custom nn.Module classes with
parameters, buffers, plain attributes, containers) and off it (Conv1d, Embedding, norms, ...), and records
every registered parameter / buffer / submodule / plain attribute with its access path for the program.
"""


class Mod:
    """A module in the generated tree: how to build it and what it registers (paths relative to it)."""

    def __init__(self, ctor, din=None, dout=None, exact=True):
        self.ctor = ctor          # constructor expression
        self.din, self.dout = din, dout  # forward maps (B, din) -> (B, dout); None: not on the forward path
        self.exact = exact        # forward values exact (integers in, integers out)
        self.params = []          # (relative path, ndim)
        self.buffers = []         # (relative path, 'float' | 'long' | 'bool')
        self.children = []        # (relative path, Mod)
        self.plain = []           # relative paths of plain tensor attributes (never converted)
        self.linears = []         # relative paths of Linear modules with their (out, in) shape

    def all_params(self, prefix):
        out = [(prefix + p, nd) for p, nd in self.params]
        for path, child in self.children:
            out += child.all_params(prefix + path)
        return out

    def all_buffers(self, prefix):
        out = [(prefix + p, k) for p, k in self.buffers]
        for path, child in self.children:
            out += child.all_buffers(prefix + path)
        return out

    def all_modules(self, prefix):
        out = []
        for path, child in self.children:
            out.append((prefix + path, child))
            out += child.all_modules(prefix + path)
        return out

    def all_plain(self, prefix):
        out = [prefix + p for p in self.plain]
        for path, child in self.children:
            out += child.all_plain(prefix + path)
        return out


def linear(rng, a, b):
    bias = rng.random() < 0.8
    m = Mod(f"nn.Linear({a}, {b}{'' if bias else ', bias=False'})", a, b)
    m.params = [(".weight", 2)] + ([(".bias", 1)] if bias else [])
    m.linears = [("", (b, a))]
    return m


def norm(rng, a):
    if rng.random() < 0.5:
        affine = rng.random() < 0.8
        track = rng.random() < 0.8
        args = ("" if affine else ", affine=False") + ("" if track else ", track_running_stats=False")
        m = Mod(f"nn.BatchNorm1d({a}{args})", a, a, exact=False)
        m.params = [(".weight", 1), (".bias", 1)] if affine else []
        m.buffers = [(".running_mean", "float"), (".running_var", "float"), (".num_batches_tracked", "long")] \
            if track else []
        return m
    m = Mod(f"nn.LayerNorm({a})", a, a, exact=False)
    m.params = [(".weight", 1), (".bias", 1)]
    return m


def off_path_layer(rng):
    """A layer that is registered and converted but not used in forward."""
    kind = rng.choice(["linear", "conv1d", "embedding", "groupnorm", "bn2d", "relu"])
    if kind == "linear":
        m = linear(rng, rng.randint(1, 4), rng.randint(1, 4))
        m.din = m.dout = None
        return m
    if kind == "conv1d":
        m = Mod(f"nn.Conv1d({rng.randint(1, 3)}, {rng.randint(1, 3)}, {rng.randint(1, 3)})")
        m.params = [(".weight", 3), (".bias", 1)]
    elif kind == "embedding":
        m = Mod(f"nn.Embedding({rng.randint(2, 6)}, {rng.randint(1, 4)})")
        m.params = [(".weight", 2)]
    elif kind == "groupnorm":
        m = Mod(f"nn.GroupNorm(2, {2 * rng.randint(1, 3)})")
        m.params = [(".weight", 1), (".bias", 1)]
    elif kind == "bn2d":
        m = Mod(f"nn.BatchNorm2d({rng.randint(1, 4)})")
        m.params = [(".weight", 1), (".bias", 1)]
        m.buffers = [(".running_mean", "float"), (".running_var", "float"), (".num_batches_tracked", "long")]
    else:
        m = Mod("nn.ReLU()")
    return m


class ModuleBuilder:
    """Builds module trees from one random stream; custom classes are collected in self.classes."""

    def __init__(self, rng, uid):
        self.rng = rng
        self.uid = uid
        self.classes = []   # class definitions (lists of lines), innermost first
        self.n_classes = 0

    # --- module trees -----------------------------------------------------------------------------
    def stage(self, a, b, depth):
        """A module mapping (B, a) -> (B, b) on the forward path."""
        rng = self.rng
        r = rng.random()
        if depth > 0 and r < 0.25:
            return self.custom(a, b, depth - 1)
        if depth > 0 and r < 0.5:
            return self.sequential(a, b, depth - 1)
        return linear(rng, a, b)

    def sequential(self, a, b, depth):
        rng = self.rng
        parts, dims = [], [a]
        for _ in range(rng.randint(1, 3)):
            dims.append(rng.randint(1, 5))
        dims[-1] = b
        for i in range(len(dims) - 1):
            parts.append(self.stage(dims[i], dims[i + 1], depth))
            if rng.random() < 0.3:
                parts.append(Mod("nn.ReLU()", dims[i + 1], dims[i + 1]))
            if rng.random() < 0.15:
                parts.append(norm(rng, dims[i + 1]))
        m = Mod("nn.Sequential(" + ", ".join(p.ctor for p in parts) + ")", a, b,
                exact=all(p.exact for p in parts))
        m.children = [(f"[{i}]", p) for i, p in enumerate(parts)]
        return m

    def custom(self, a, b, depth):
        rng = self.rng
        self.n_classes += 1
        name = f"M{self.n_classes}"
        m = Mod(f"{name}()", a, b)
        init, fwd = [], []
        # forward path: one or two stages, then optional scale / shift / plain-attribute terms
        mid = rng.randint(1, 5) if rng.random() < 0.5 else b
        stages = [(a, mid), (mid, b)] if mid != b else [(a, b)]
        for i, (x, y) in enumerate(stages):
            if depth >= 0 and rng.random() < 0.25 and x == y:
                n = rng.randint(1, 3)
                init.append(f"self.layers{i} = nn.ModuleList([nn.Linear({x}, {x}) for _ in range({n})])")
                fwd += [f"for layer in self.layers{i}:", "    x = layer(x)"]
                lst = Mod("nn.ModuleList()")
                for k in range(n):
                    lin = Mod(f"nn.Linear({x}, {x})", x, x)
                    lin.params = [(".weight", 2), (".bias", 1)]
                    lin.linears = [("", (x, x))]
                    lst.children.append((f"[{k}]", lin))
                m.children.append((f".layers{i}", lst))
            else:
                s = self.stage(x, y, depth)
                init.append(f"self.stage{i} = {s.ctor}")
                fwd.append(f"x = self.stage{i}(x)")
                m.children.append((f".stage{i}", s))
                m.exact = m.exact and s.exact
        if rng.random() < 0.4:
            init.append(f"self.scale = nn.Parameter(torch.ones({b}))")
            fwd.append("x = x * self.scale")
            m.params.append((".scale", 1))
        if rng.random() < 0.4:
            persistent = rng.random() < 0.6
            init.append(f"self.register_buffer('shift', torch.zeros({b}){'' if persistent else ', persistent=False'})")
            fwd.append("x = x + self.shift")
            m.buffers.append((".shift", "float"))
        if rng.random() < 0.3:
            init.append(f"self.plain = torch.ones({b})")  # a plain attribute: never converted, promotes in ops
            fwd.append("x = x + self.plain")
            m.plain.append(".plain")
        # registered but off the forward path
        extras = rng.sample(["long_buf", "bool_buf", "none_buf", "none_param", "plist", "pdict", "mdict",
                             "mlist", "tensor_list", "module_list", "off_layer", "own_param"], rng.randint(0, 4))
        for e in extras:
            if e == "long_buf":
                init.append("self.register_buffer('count', torch.zeros(2, dtype=torch.long))")
                m.buffers.append((".count", "long"))
            elif e == "bool_buf":
                init.append("self.register_buffer('mask', torch.ones(3, dtype=torch.bool))")
                m.buffers.append((".mask", "bool"))
            elif e == "none_buf":
                init.append("self.register_buffer('empty_slot', None)")
            elif e == "none_param":
                init.append("self.register_parameter('no_weight', None)")
            elif e == "plist":
                init.append("self.plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1, 2))])")
                pl = Mod("nn.ParameterList()")
                pl.params = [("[0]", 1), ("[1]", 2)]
                m.children.append((".plist", pl))
            elif e == "pdict":
                init.append("self.pdict = nn.ParameterDict({'u': nn.Parameter(torch.ones(3))})")
                pd = Mod("nn.ParameterDict()")
                pd.params = [("['u']", 1)]
                m.children.append((".pdict", pd))
            elif e == "mdict":
                layer = off_path_layer(rng)
                init.append(f"self.table = nn.ModuleDict({{'k': {layer.ctor}}})")
                md = Mod("nn.ModuleDict()")
                md.children = [("['k']", layer)]
                m.children.append((".table", md))
            elif e == "mlist":
                layers = [off_path_layer(rng) for _ in range(rng.randint(1, 2))]
                init.append("self.extra = nn.ModuleList([" + ", ".join(l.ctor for l in layers) + "])")
                ml = Mod("nn.ModuleList()")
                ml.children = [(f"[{i}]", l) for i, l in enumerate(layers)]
                m.children.append((".extra", ml))
            elif e == "tensor_list":
                init.append("self.tensors = [torch.ones(2), torch.arange(3)]")
                m.plain.append(".tensors[0]")
            elif e == "module_list":
                init.append("self.helpers = [nn.Linear(2, 2)]")  # a plain list: not registered, not converted
                m.plain.append(".helpers[0].weight")
            elif e == "off_layer":
                layer = off_path_layer(rng)
                init.append(f"self.side = {layer.ctor}")
                m.children.append((".side", layer))
            elif e == "own_param":
                init.append("self.alpha = nn.Parameter(torch.full((2, 2), 3.0))")
                m.params.append((".alpha", 2))
        rng.shuffle(init)  # registration order varies; forward order does not depend on it
        lines = [f"class {name}(nn.Module):", "    def __init__(self):", "        super().__init__()"]
        lines += ["        " + l for l in init]
        lines += ["", "    def forward(self, x):"] + ["        " + l for l in fwd] + ["        return x"]
        self.classes.append(lines)
        return m

    # --- the program ---------------------------------------------------------------------------------
