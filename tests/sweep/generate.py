#!/usr/bin/python3
"""Random but valid PyTorch programs for the conformance sweep (tests/sweep/run_sweep.py).

Each program builds a random module tree (custom modules, Sequential / ModuleList / ModuleDict /
ParameterList, parameters, persistent and non-persistent buffers, int and bool buffers, plain tensor
attributes, tensors and modules in plain lists, tied weights, aliased submodules), takes handles
(references, .data, .detach(), views, state_dict entries), maybe trains a step, converts the dtype (the
stand-in for a device move: same Module._apply / Tensor.to paths), and prints what every handle sees.
Tensor snippets cover views, in-place ops, .to / .data assignment and autograd through a conversion.

Only behaviour PyTorch 1.13 (the reference here) and 2.x (what DeviceScope follows) agree on is printed:
no random values (weights are overwritten with small integers, so printed values are exact), no grad_fn
names that changed, zero_grad always with an explicit set_to_none, no SGD state without momentum.

    generate.py --seed S --index I      prints program I of seed S as a standalone script
    generate.py --seed S --count N      prints N programs as one batch script (what run_sweep.py runs)
"""
import argparse
import random

PRELUDE = '''import torch
import torch.nn as nn


def _ds_init(m):
    # small integers (-1..1), so printed values are exact in float32 and float64
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_((torch.arange(p.numel()) % 3 - 1 + i % 2).reshape(p.shape))


def _ds_show(label, t):
    if t is None:
        print(label, None)
    else:
        print(label, t.dtype, tuple(t.shape), t.requires_grad, t.is_leaf, t.grad is None)


def _ds_vals(t):
    # + 0 turns -0.0 into 0.0: the sign of a zero from a BLAS matmul is not part of PyTorch's contract.
    # Values stay exact while every sum is a small integer; deep random chains can outgrow float32's
    # 24-bit mantissa, where summation order (BLAS vs numpy) decides the last bits: print only the size.
    t = t.detach() + 0
    if t.numel() and float(t.abs().max()) >= 4096:
        return 'large'
    return t.tolist()


def _ds_run(name, fn):
    print('### ' + name, flush=True)
    try:
        fn()
    except Exception as e:
        print('!!! uncaught %s: %s' % (type(e).__name__, e))
'''

FLOAT_CONVERSIONS = [  # (statement template, resulting float dtype or None when unchanged); {m} is the module
    ("r = {m}.double()", "float64"), ("r = {m}.to(torch.float64)", "float64"), ("r = {m}.half()", "float16"),
    ("r = {m}.float()", "float32"), ("r = {m}.to(dtype=torch.float64)", "float64"),
    ("r = {m}.bfloat16()", "bfloat16"), ("r = {m}.to('cpu', torch.float64)", "float64"),
    ("r = {m}.to(torch.zeros(1, dtype=torch.float64))", "float64"), ("r = {m}.cpu()", None),
    ("r = {m}.to('cpu')", None), ("r = {m}.to(torch.float32)", "float32"),
]


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


class Gen:
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
    def program(self):
        rng = self.rng
        if rng.random() < 0.2:
            return self.tensor_program()
        L = [f"torch.manual_seed({self.uid % 1000})"]
        din, dout = rng.randint(1, 4), rng.randint(1, 4)
        root = self.custom(din, dout, rng.randint(0, 2)) if rng.random() < 0.75 else self.sequential(din, dout, 1)
        for c in self.classes:
            L += c + [""]
        L.append(f"m = {root.ctor}")
        L.append("_ds_init(m)")
        params = root.all_params("m")
        buffers = root.all_buffers("m")
        mods = root.all_modules("m")
        linears = [(p + (lp if lp else ""), shape) for p, mod in [("m", root)] + mods for lp, shape in mod.linears]
        exact = root.exact

        # edits after construction: tied weights, an aliased submodule, a module in a plain list
        if rng.random() < 0.3:
            by_shape = {}
            for path, shape in linears:
                by_shape.setdefault(shape, []).append(path)
            pairs = [v for v in by_shape.values() if len(v) >= 2]
            if pairs:
                a, b = rng.sample(rng.choice(pairs), 2)
                L.append(f"{a}.weight = {b}.weight  # tied")
                L.append(f"print('tied', {a}.weight is {b}.weight, len(list(m.parameters())))")
        custom_root = root.ctor.startswith("M")  # a Sequential root would call an alias in forward
        if mods and custom_root and rng.random() < 0.3:
            path, _ = rng.choice(mods)
            L.append(f"m.alias = {path}  # one module registered under two names")
            L.append("print('alias', m.alias is " + path + ")")
        L.append("print('params', [n for n, _ in m.named_parameters()])")
        L.append("print('buffers', [n for n, _ in m.named_buffers()])")
        if rng.random() < 0.5:
            L.append("print('modules', [n for n, _ in m.named_modules()])")
        if rng.random() < 0.3 and not any("ModuleList" in l or "ParameterList" in l or "ParameterDict" in l
                                          for c in self.classes for l in c):
            L.append("print(m)")  # (2.x compresses repeated ModuleList items; Parameter container reprs changed)

        # forward / backward before the conversion, maybe an optimizer
        x_dim_dt = "torch.float32"
        fwd_expr = f"(torch.arange({2 * din}, dtype={{dt}}).reshape(2, {din}) % 3 - 1)"
        opt = None
        if rng.random() < 0.5:
            opt = rng.choice(["sgd", "sgd_m", "adam", "adamw"])
            ctor = {"sgd": "torch.optim.SGD(m.parameters(), lr=0.5)",
                    "sgd_m": "torch.optim.SGD(m.parameters(), lr=0.5, momentum=0.5)",
                    "adam": "torch.optim.Adam(m.parameters(), lr=0.1)",
                    "adamw": "torch.optim.AdamW(m.parameters(), lr=0.1)"}[opt]
            L.append(f"opt = {ctor}")
        trained = False
        if rng.random() < 0.5:
            L.append(f"out = m({fwd_expr.format(dt=x_dim_dt)})")
            L.append("out.sum().backward()")
            L.append("_ds_show('out', out)")
            if exact:
                L.append("print('out', _ds_vals(out))")
            trained = True
            if opt in ("sgd", "sgd_m") and rng.random() < 0.5:
                L.append("opt.step()")

        # handles taken before the conversion
        handles = []  # (var, current-path expr or None, kind)
        for i in range(rng.randint(2, 6)):
            choice = rng.random()
            if params and choice < 0.35:
                path, nd = rng.choice(params)
                how = rng.choice(["ref", "data", "detach", "view", "row", "sd"])
                v = f"h{i}"
                if how == "ref":
                    L.append(f"{v} = {path}")
                    handles.append((v, path, "param"))
                elif how == "data":
                    L.append(f"{v} = {path}.data")
                    handles.append((v, None, "data"))
                elif how == "detach":
                    L.append(f"{v} = {path}.detach()")
                    handles.append((v, None, "data"))
                elif how == "view":
                    L.append(f"{v} = {path}.view(-1)")
                    handles.append((v, None, "view"))
                elif how == "row":
                    L.append(f"{v} = {path}[0]")
                    handles.append((v, None, "view"))
                else:
                    key = path[2:].replace("[", ".").replace("]", "").replace("'", "")
                    L.append(f"{v} = m.state_dict()['{key}']")
                    handles.append((v, None, "data"))
                if trained and how == "ref":
                    L.append(f"g{i} = {path}.grad")
                    handles.append((f"g{i}", f"{path}.grad", "grad"))
            elif buffers and choice < 0.6:
                path, kind = rng.choice(buffers)
                L.append(f"h{i} = {path}")
                handles.append((f"h{i}", path, "buffer"))
            elif mods and choice < 0.75:
                path, _ = rng.choice(mods)
                L.append(f"h{i} = {path}")
                handles.append((f"h{i}", path, "module"))
            else:
                plain = root.all_plain("m")
                if plain:
                    path = rng.choice(plain)
                    L.append(f"h{i} = {path}")
                    handles.append((f"h{i}", path, "plain"))
        L += self.module_api_before(params, mods, root.ctor.startswith("M"))
        if rng.random() < 0.3:
            L.append("m2 = m  # a second name for the same model")
        name = "m2" if "m2 = m  # a second name for the same model" in L else "m"

        # the conversion(s)
        result_dt = "float32"
        for _ in range(rng.choice([1, 1, 1, 2])):
            stmt, dt = rng.choice(FLOAT_CONVERSIONS)
            if rng.random() < 0.05:
                stmt, dt = "r = {m}.type(torch.float64)", "float64+ints"
            L.append(stmt.format(m=name))
            L.append("print('returns self', r is m)")
            if dt is not None:
                result_dt = dt

        # what every handle sees afterwards
        for v, path, kind in handles:
            if kind == "module":
                L.append(f"print('{v}', {v} is {path}, [p.dtype for p in {v}.parameters()])")
            elif kind == "grad":
                L.append(f"print('{v}', {v} is {path}, {v}.dtype if {v} is not None else None)")
            elif path is not None:
                L.append(f"print('{v}', {v} is {path}, {v}.dtype, {path}.dtype)")
            else:
                L.append(f"print('{v}', {v}.dtype, {v}.requires_grad)")
        L.append("print('param dtypes', [(n, p.dtype) for n, p in m.named_parameters()])")
        L.append("print('buffer dtypes', [(n, b.dtype) for n, b in m.named_buffers()])")
        L.append("print('state_dict', [(k, v.dtype) for k, v in m.state_dict().items()])")
        if trained:
            L.append("print('grads', [None if p.grad is None else p.grad.dtype for p in m.parameters()])")
        L += self.module_api_after(result_dt)
        data_handles = [v for v, path, kind in handles if kind == "data"]
        if data_handles and exact and result_dt in ("float32", "float64") and rng.random() < 0.5:
            v = rng.choice(data_handles)
            L.append(f"{v}.add_(100)  # old storage: the model does not see it")
            L.append("print('after add', [_ds_vals(p.sum()) for p in m.parameters()])")

        # forward / backward / step after the conversion (float32 / float64 only: 1.13 has no CPU half matmul)
        if result_dt in ("float32", "float64") and rng.random() < 0.7:
            L.append(f"m.zero_grad(set_to_none={rng.choice(['True', 'False'])})")
            L.append(f"out = m({fwd_expr.format(dt='torch.' + result_dt)})")
            L.append("if out.requires_grad:  # not when requires_grad_(False) froze the whole path")
            L.append("    out.sum().backward()")
            L.append("_ds_show('out2', out)")
            L.append("print('grads2', [None if p.grad is None else p.grad.dtype for p in m.parameters()])")
            if exact:
                L.append("print('out2', _ds_vals(out))")
            if opt:
                L.append("opt.step()")
                L.append("print('opt params', all(a is b for a, b in zip(opt.param_groups[0]['params'], m.parameters())))")
                if opt in ("sgd", "sgd_m") and exact:
                    L.append("print('after step', [_ds_vals(p) for p in m.parameters()])")
                if opt in ("adam", "adamw"):
                    L.append("for p0 in list(opt.state)[:1]:  # no state when no parameter got a gradient")
                    L.append("    print('adam state', sorted(opt.state[p0]), opt.state[p0]['exp_avg'].dtype, "
                             "opt.state[p0]['step'])")
                if opt == "sgd_m":
                    L.append("print('momentum', [s['momentum_buffer'].dtype for s in opt.state.values()])")
        if rng.random() < 0.25:
            L += self.error_snippet(params, mods)
        return L

    def module_api_before(self, params, mods, custom_root):
        """Module API calls whose effects the conversion must respect; notes what to print afterwards."""
        rng = self.rng
        L, self.after = [], []
        if rng.random() < 0.25:
            L.append("sd_vars = m.state_dict(keep_vars=True)")
            self.after.append("print('keep_vars', [v is p for (k, v), p in zip(sd_vars.items(), m.parameters()) "
                              "if isinstance(v, nn.Parameter)][:4])")
        if rng.random() < 0.2:
            L.append("import copy")
            L.append("twin = copy.deepcopy(m)")
            self.after.append("print('deepcopy', [p.dtype for p in twin.parameters()], "
                              "any(a is b for a, b in zip(twin.parameters(), m.parameters())))")
        if params and rng.random() < 0.2:
            path, _ = rng.choice(params)
            L.append(f"{path}.grad = torch.ones_like({path})  # a gradient set by hand")
            self.after.append(f"print('manual grad', {path}.grad.dtype, {path}.grad.shape == {path}.shape)")
        if mods and rng.random() < 0.2:
            path, _ = rng.choice(mods)
            L.append(f"{path}.requires_grad_(False)")
            L.append(f"{path}.train(False)")
            self.after.append("print('requires_grad', [p.requires_grad for p in m.parameters()])")
            self.after.append("print('training', [mod.training for mod in m.modules()])")
        if mods and rng.random() < 0.2:
            path, _ = rng.choice(mods)
            target = path[2:].replace("[", ".").replace("]", "").replace("'", "")
            L.append(f"print('get_submodule', m.get_submodule('{target}') is {path})")
        if params and rng.random() < 0.2:
            path, _ = rng.choice(params)
            if "[" not in path:
                self.after.append(f"print('get_parameter', m.get_parameter('{path[2:]}') is {path})")
        if rng.random() < 0.2:
            L.append("raw = torch.ones(3)")
            L.append("m.extra_w = nn.Parameter(raw)  # shares raw's storage until the conversion")
            L.append("raw.add_(1)")
            L.append("print('shared', m.extra_w.tolist())")
            self.after.append("print('raw', raw.dtype, m.extra_w.dtype, raw.data_ptr() == m.extra_w.data_ptr())")
        if rng.random() < 0.15:
            L.append("m.register_buffer('gone', torch.zeros(2))")
            L.append("m.gone = None  # a buffer set to None stays registered, and is skipped")
            L.append("m.register_buffer('later', torch.ones(1))")
            L.append("del m.later")
            self.after.append("print('none buffer', 'gone' in m._buffers, m.gone, [n for n, _ in m.named_buffers()][:3])")
        if rng.random() < 0.2:  # last, so that every state_dict key exists when it is loaded back
            L.append("saved = {k: v.clone() for k, v in m.state_dict().items()}")
            self.after.append("print('load', m.load_state_dict(saved))")
            self.after.append("print('loaded dtypes', [(k, v.dtype) for k, v in m.state_dict().items()])")
        if custom_root and rng.random() < 0.15:  # (a Sequential root would call it in forward)
            self.after.append("m.late = nn.Linear(2, 2)  # created after the conversion: keeps the default dtype")
            self.after.append("_ds_init(m.late)")
            self.after.append("m.register_buffer('late_buf', torch.zeros(1))")
            self.after.append("print('late', m.late.weight.dtype, m.late_buf.dtype)")
        if rng.random() < 0.15:
            L.append("print('children', [n for n, _ in m.named_children()], len(list(m.parameters(recurse=False))))")
            L.append("print('apply', m.apply(lambda mod: None) is m)")
        return L

    def module_api_after(self, result_dt):
        return list(self.after)

    def error_snippet(self, params, mods):
        """Errors PyTorch 1.13 and 2.x word the same way (vetted in tests/conformance)."""
        rng = self.rng
        options = ["to_int"]
        if params:
            options.append("tensor_to_param")
        if mods:
            options.append("tensor_to_child")
        what = rng.choice(options)
        L = ["try:"]
        if what == "to_int":
            L.append(f"    m.to({rng.choice(['torch.int64', 'torch.int32', 'torch.bool'])})")
        elif what == "tensor_to_param":
            path, _ = rng.choice(params)
            if "[" in path.rsplit(".", 1)[-1]:
                return []
            owner, attr = path.rsplit(".", 1)
            L.append(f"    setattr({owner}, '{attr}', torch.zeros(2, dtype={rng.choice(['torch.float64', 'torch.float32'])}))")
        else:
            path, _ = rng.choice(mods)
            if "[" in path.rsplit(".", 1)[-1]:
                return []
            owner, attr = path.rsplit(".", 1)
            L.append(f"    setattr({owner}, '{attr}', torch.zeros(1))")
        L += ["except Exception as e:", "    print('error', type(e).__name__, e)"]
        return L

    def tensor_program(self):
        """Views, in-place ops, .to identity, .data assignment and autograd through a conversion."""
        rng = self.rng
        a, b = rng.randint(1, 4), rng.randint(2, 4)
        dt = rng.choice(["torch.float32", "torch.float64"])
        other = "torch.float64" if dt == "torch.float32" else "torch.float32"
        L = [f"base = torch.arange({a * b}, dtype={dt}).reshape({a}, {b})"]
        views = {"v0": "base[0]", "v1": "base[:, 1:]", "v2": "base.view(-1)", "v3": "base.t()",
                 "v4": "base.transpose(0, 1)", "v5": f"base.split(1, dim=1)[0]", "v6": "base.unsqueeze(0)",
                 "v7": "base.detach()", "v8": "base.data", "v9": "base.reshape(-1)",
                 "v10": "base.permute(1, 0)", "v11": "base.flatten()", "v12": "base.chunk(2, dim=1)[-1]",
                 "v13": "base.unsqueeze(1).squeeze(1)", "v14": "base.narrow(1, 1, 1)", "v15": "base.unbind(0)[-1]"}
        chosen = rng.sample(sorted(views), rng.randint(1, 4))
        for v in chosen:
            L.append(f"{v} = {views[v]}")
        steps = rng.randint(2, 6)
        for _ in range(steps):
            r = rng.random()
            v = rng.choice(chosen)
            if r < 0.25:
                L.append(f"{v}.add_({rng.randint(1, 9)})")
                L.append("print(base.tolist(), base._version)")
            elif r < 0.4:
                L.append(f"{v}.mul_(2)")
                L.append(f"print({v}.tolist())")
            elif r < 0.55:
                conv = rng.choice([f"base.to({other})", f"base.to({dt})", "base.to('cpu')", "base.double()",
                                   "base.float()", f"base.to({dt}, copy=True)", "base.cpu()",
                                   f"base.to(torch.zeros(1, dtype={other}))"])
                L.append(f"c = {conv}")
                L.append("print('same object', c is base, c.dtype, base.dtype)")
                L.append(f"c.add_(1)")
                L.append("print(base.tolist())")
            elif r < 0.7:
                L.append(f"base.data = torch.ones({a}, {b}, dtype={other})")
                L.append(f"print(base.dtype, {v}.dtype, base.tolist(), {v}.tolist())")
                L.append(f"base.data = torch.zeros({a}, {b}, dtype={dt})")
            elif r < 0.85:
                L.append(f"w = torch.ones({b}, dtype={dt}, requires_grad=True)")
                L.append(f"y = w.to({other})")
                L.append("print(type(y.grad_fn).__name__, y.is_leaf, w.to(w.dtype) is w)")
                L.append("(y * 2).sum().backward()")
                L.append("print(w.grad.dtype, w.grad.tolist(), y.grad is None)")
            elif r < 0.9:
                L.append(f"print({v}.stride(), {v}.storage_offset(), {v}.is_contiguous(), "
                         f"{v}.contiguous() is {v}, {v}.shape)")
                L.append(f"k = {v}.clone()")
                L.append("k.add_(1)")
                L.append(f"print(k.is_contiguous(), base.tolist())")
            elif r < 0.95:
                L.append("a = base.numpy()  # shares memory with base")
                L.append("a[0, 0] = -5")
                L.append("print(base.tolist(), base._version)")
                L.append(f"n = torch.from_numpy(a.copy())")
                L.append("n.add_(1)")
                L.append("print(n.dtype, base.tolist())")
            else:
                L.append(f"d = {v}.clone()")
                L.append(f"d.copy_(torch.full(d.shape, 7, dtype={other}))")
                L.append(f"{v}.copy_(d)")
                L.append(f"print(base.tolist(), {v}.dtype, d.dtype)")
        L.append("print([(" + ", ".join(f"{v}.dtype" for v in chosen) + ")])")
        return L


def program_lines(seed, index):
    uid = seed * 100003 + index
    return Gen(random.Random(uid), uid).program()


def program_name(seed, index):
    return f"program {seed}:{index}"


def batch_script(seed, indices):
    """One script running many programs; each prints a header and survives the others' failures."""
    out = [PRELUDE]
    for i in indices:
        out.append(f"\ndef _ds_program_{i}():")
        out += ["    " + l if l else "" for l in program_lines(seed, i)]
        out.append(f"\n_ds_run('{program_name(seed, i)}', _ds_program_{i})")
    return "\n".join(out) + "\n"


def standalone(seed, index):
    return batch_script(seed, [index])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--index", type=int, help="print this one program as a standalone script")
    ap.add_argument("--count", type=int, default=1, help="programs in the batch script (from index 0)")
    args = ap.parse_args()
    if args.index is not None:
        print(standalone(args.seed, args.index), end="")
    else:
        print(batch_script(args.seed, range(args.count)), end="")


if __name__ == "__main__":
    main()
