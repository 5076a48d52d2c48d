"""Op programs for the sweep (run_sweep.py --kind ops): random calls over the op registry
(engine/python/torch/_ops/op_table.py) in every form (torch.NAME, Tensor.NAME, Tensor.NAME_, out=), on
operands of random dtypes, shapes (broadcasting, 0-dim, empty), views (transposed, strided, expanded, diagonal,
unfolded, ...) and Python scalars, plus view/stride queries, copies of non-dense views, overlapping writes,
factories with out= and known error cases. Valid and invalid calls alike: each call prints its result
(dtype, shape, values, and for views/outs the strides) or its error (type and first line) and warnings.

Values are small integers (halves for floats), so every printed value is exact; transcendental results are
printed at 5 significant digits. Only what PyTorch 1.13 (the reference) and 2.x agree on is generated: see
tests/conformance/README.md for the differences left out.
"""
import os
import sys

from gen_indexing import INDEX_PRELUDE, IndexStmts

_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engine", "python", "torch", "_ops",
                      "op_table.py")


def _load_table():
    ns = {}
    with open(_TABLE) as f:
        exec(compile(f.read(), _TABLE, "exec"), ns)  # pure data (see its header)
    return ns["OPS"]


def _ops_by_kind():
    out = {}
    for schema, _kernel, kind, out_rule, variants, promote in _load_table():
        name = schema.split("(", 1)[0]
        out.setdefault(kind, []).append((name, schema, out_rule, variants.split(), promote))
    return out


OPS = _ops_by_kind()

PRELUDE = '''import torch
import warnings as _ds_w


_ds_digits = [5]  # significant digits of printed floats (FEWER_DIGITS below)


def _ds_fmt(v):
    if isinstance(v, float):
        if v != v:
            return 'nan'
        if v in (float('inf'), float('-inf')):
            return str(v)
        return '%.*g' % (_ds_digits[0], v + 0.0)
    if isinstance(v, list):
        return '[' + ', '.join(_ds_fmt(x) for x in v) + ']'
    return repr(v)


def _ds_t(t):
    if isinstance(t, torch.Tensor):
        return '%s %s %s' % (t.dtype, tuple(t.shape), _ds_fmt(t.tolist()))
    if isinstance(t, (tuple, list)):
        return '(' + ', '.join(_ds_t(x) for x in t) + ')'
    return _ds_fmt(t)


def _ds_layout(t):
    return '%s %s %s' % (tuple(t.shape), t.stride(), t.storage_offset())


def _ds_first(msg):
    return msg.split('\\n')[0].split(' (Triggered')[0]


_ds_err = ['']  # the last error's first line


def _ds_do(label, fn, layout=False):
    with _ds_w.catch_warnings(record=True) as ws:
        _ds_w.simplefilter('always')
        r = None
        _ds_err[0] = ''
        try:
            r = fn()
            print(label, _ds_t(r), _ds_layout(r) if layout and isinstance(r, torch.Tensor) else '')
        except Exception as e:
            _ds_err[0] = _ds_first(str(e))
            print(label, 'error', type(e).__name__, _ds_err[0])
        seen = []  # 1.13 repeats the resize warning for some ops: each distinct warning once
        for w in ws:
            line = w.category.__name__ + ' ' + _ds_first(str(w.message))
            if line not in seen:
                seen.append(line)
                print(label, 'warning', line)
    return r


def _ds_run(name, fn):
    print('### ' + name, flush=True)
    try:
        fn()
    except Exception as e:
        print('!!! uncaught %s: %s' % (type(e).__name__, e))
''' + INDEX_PRELUDE

DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.int16", "torch.uint8",
          "torch.bool"]
FLOATS = {"torch.float32", "torch.float64"}
# ops whose float32 values 1.13 and 2.x compute by other formulas (logaddexp: log(1 + exp(-|a - b|)) in 1.13,
# log1p(exp(-|a - b|)) in 2.x, DeviceScope's), a last-ulp difference: their values print at 4 digits
FEWER_DIGITS = {"logaddexp", "logaddexp2"}
# unary ops whose values are exact (printed as is); the others go through %.5g, which hides last-bit noise
TRANSCENDENTAL = {"exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
                  "sigmoid", "erf", "reciprocal"}


class OpsGen(IndexStmts):
    def __init__(self, rng):
        self.rng = rng
        self.L = []
        self.n = 0
        self.tensors = []  # (name, dtype, shape)

    # ------------------------------------------------------------------ operands
    def label(self):
        self.n += 1
        return f"'{self.n}'"

    def values(self, dtype, shape):
        rng = self.rng
        if not shape:
            return self.scalar_value(dtype)
        return [self.values(dtype, shape[1:]) for _ in range(shape[0])]

    def scalar_value(self, dtype):
        rng = self.rng
        if dtype == "torch.bool":
            return rng.choice([True, False])
        if dtype == "torch.uint8":
            return rng.randint(0, 4)
        if dtype in FLOATS:
            return rng.choice([-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0])
        return rng.randint(-3, 3)

    def shape(self):
        rng = self.rng
        nd = rng.choice([0, 1, 1, 2, 2, 2, 3])
        return tuple(rng.choice([1, 2, 3, 3, 2, 0] if rng.random() < 0.1 else [1, 2, 3]) for _ in range(nd))

    def new_tensor(self, dtype=None, shape=None):
        dtype = dtype or self.rng.choice(DTYPES)
        shape = self.shape() if shape is None else shape
        name = f"t{len(self.tensors)}"
        if 0 in shape:
            self.L.append(f"{name} = torch.zeros({shape}, dtype={dtype})")
        else:
            self.L.append(f"{name} = torch.tensor({self.values(dtype, shape)!r}, dtype={dtype})")
        self.tensors.append((name, dtype, shape))
        return name, dtype, shape

    def broadcast_partner(self, shape):
        """A shape that broadcasts with `shape` (mostly), or one that does not."""
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return shape
        if r < 0.6:
            return shape[rng.randint(0, len(shape)):] if shape else ()
        if r < 0.85:
            return tuple(1 if rng.random() < 0.5 else s for s in shape)
        if r < 0.93:
            return (rng.choice([2, 3]),) + shape
        return tuple(s + 1 for s in shape) or (2,)

    def operand(self, like_shape):
        """A second operand: a tensor of a broadcastable shape, a 0-dim tensor or a Python number."""
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            name, _, _ = self.new_tensor(shape=self.broadcast_partner(like_shape))
            return name
        if r < 0.7:
            name, _, _ = self.new_tensor(shape=())
            return name
        return repr(rng.choice([2, -1, 0, 1.5, -0.5, 2.0, True, False, 3]))

    def view_of(self, name, shape):
        """Maybe a view of tensor `name` (a non-contiguous operand), returned with its shape."""
        rng = self.rng
        if rng.random() < 0.6 or not shape:
            return name, shape
        nd = len(shape)
        options = []
        if nd >= 2:
            options.append((f"{name}.t()" if nd == 2 else f"{name}.transpose(0, 1)",
                            (shape[1], shape[0]) + shape[2:]))
            options.append((f"{name}.permute({', '.join(str(i) for i in reversed(range(nd)))})", shape[::-1]))
        if shape[0] >= 2:
            options.append((f"{name}[::2]", ((shape[0] + 1) // 2,) + shape[1:]))
            options.append((f"{name}[1:]", (shape[0] - 1,) + shape[1:]))
        if shape[-1] == 1:
            options.append((f"{name}.expand({', '.join(str(s) for s in shape[:-1])}{', ' if nd > 1 else ''}3)",
                            shape[:-1] + (3,)))
        options.append((f"{name}.unsqueeze(0)", (1,) + shape))
        if not options:
            return name, shape
        expr, vshape = rng.choice(options)
        v = f"v{len(self.tensors)}"
        self.L.append(f"{v} = {expr}")
        self.tensors.append((v, None, vshape))
        return v, vshape

    # ------------------------------------------------------------------ out tensors
    def out_tensor(self, result_dtype_hint, result_shape, exact_dtype=False):
        """An out= tensor: usually right, sometimes of another dtype, shape (non-empty: a warning), empty."""
        rng = self.rng
        r = rng.random()
        dtype = result_dtype_hint if r < 0.5 or exact_dtype else rng.choice(DTYPES[:6])
        if rng.random() < 0.7:
            shape = result_shape
        elif rng.random() < 0.5:
            shape = (0,)
        else:
            shape = (rng.randint(1, 4),)
        self.L.append(f"o = torch.full({tuple(shape)}, 9, dtype={dtype})")
        return "o"

    def show_out(self, lab):
        self.L.append(f"if r is not None: print({lab}, 'out', r is o, _ds_t(o), _ds_layout(o))")

    # ------------------------------------------------------------------ statements
    def binary_stmt(self):
        rng = self.rng
        name, schema, out_rule, variants, promote = rng.choice(OPS["binary"])
        if name in FEWER_DIGITS:
            self.L.append("_ds_digits[0] = 4")
            self._binary_stmt(name, schema, variants)
            self.L.append("_ds_digits[0] = 5")
        else:
            self._binary_stmt(name, schema, variants)

    def _binary_stmt(self, name, schema, variants):
        rng = self.rng
        a, adt, ashape = self.new_tensor()
        a, ashape = self.view_of(a, ashape)
        b = self.operand(ashape)
        tensor_only = "Tensor other" in schema
        if tensor_only and not b.startswith(("t", "v")):
            b = f"torch.tensor({b})"
        extra = ""
        if name in ("add", "sub") and rng.random() < 0.3:
            extra = f", alpha={rng.choice([2, -1])}"
        if name == "div" and rng.random() < 0.4:
            extra = f", rounding_mode={rng.choice(['trunc', 'floor'])!r}"
        lab = self.label()
        form = rng.random()
        if form < 0.3:
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}, {b}{extra}))")
        elif form < 0.45:
            self.L.append(f"r = _ds_do({lab}, lambda: {a}.{name}({b}{extra}))")
        elif form < 0.7 and "inplace" in variants and not (name in ("div", "floor_divide", "remainder", "fmod")
                                                           and adt not in FLOATS):
            # (integer division by zero raises after writing part of self: not part of PyTorch's contract)
            self.L.append(f"r = _ds_do({lab}, lambda: {a}.{name}_({b}{extra}))")
            # (after an error the tensor is not compared: a kernel may have written part of it)
            self.L.append(f"if r is not None: print({lab}, 'self', r is {a}, _ds_t({a}), "
                          f"[_ds_t(x) for x in {self.bases()}])")
        elif form < 0.8:
            kw = "input" if rng.random() < 0.5 else None
            second = schema.split(",")[1].split()[-1]
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}(input={a}, {second}={b}{extra}))")
        else:
            o = self.out_tensor(adt or "torch.float32", ashape)
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}, {b}{extra}, out={o}))")
            self.show_out(lab)

    def bases(self):
        return "[" + ", ".join(n for n, dt, _ in self.tensors if dt is not None) + "]"

    def unary_stmt(self):
        rng = self.rng
        name, schema, out_rule, variants, promote = rng.choice(OPS["unary"])
        # clamp_ of bool or of integers with float bounds, relu of bool: 1.13 words these errors its own way
        a, adt, ashape = self.new_tensor(dtype=rng.choice(DTYPES[:6]) if name.startswith(("clamp", "relu")) else None)
        a, ashape = self.view_of(a, ashape)
        extra = ""
        if name == "clamp":
            bounds = [("-1", "1"), ("0", "None"), ("None", "2"), ("2", "1")]
            lo, hi = rng.choice(bounds + ([("0.5", "None")] if adt in FLOATS else []))
            extra = f"{lo}, {hi}" if rng.random() < 0.5 else f"min={lo}, max={hi}"
            if extra == "None, None" or extra == "min=None, max=None":
                extra = "0"
        if name in ("clamp_min", "clamp_max"):
            extra = rng.choice(["0", "1", "-1"]) if rng.random() < 0.95 else ""
        if name == "round" and rng.random() < 0.3 and adt in FLOATS:
            extra = "decimals=1"
        if name == "logit" and rng.random() < 0.3:
            extra = rng.choice(["0.25", "eps=0.25", "0"])
        lab = self.label()
        form = rng.random()
        sep = ", " if extra else ""
        if form < 0.3:
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}{sep}{extra}))")
        elif form < 0.45 and "method" in variants:
            self.L.append(f"r = _ds_do({lab}, lambda: {a}.{name}({extra}))")
        elif form < 0.7 and "inplace" in variants:
            self.L.append(f"r = _ds_do({lab}, lambda: {a}.{name}_({extra}))")
            # (after an error the tensor is not compared: a kernel may have written part of it)
            self.L.append(f"if r is not None: print({lab}, 'self', r is {a}, _ds_t({a}), "
                          f"[_ds_t(x) for x in {self.bases()}])")
        elif out_rule != "none":
            o = self.out_tensor(adt or "torch.float32", ashape)
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}{sep}{extra}, out={o}))")
            self.show_out(lab)
        else:
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}))")

    def reduction_stmt(self):
        rng = self.rng
        name, schema, out_rule, variants, promote = rng.choice(OPS["reduction"])
        a, adt, ashape = self.new_tensor(dtype=rng.choice(DTYPES[:4] + ["torch.bool"]))
        nd = len(ashape)
        dim = rng.choice([None, 0, -1, 1, (0, -1), 5]) if nd else rng.choice([None, 0, -1, 1])
        if isinstance(dim, tuple) and nd < 2:
            dim = 0
        keep = rng.choice(["", ", keepdim=True", ", True"]) if dim is not None else ""
        dtype = ""
        if name in ("sum", "prod", "mean") and rng.random() < 0.2:
            dtype = f", dtype={rng.choice(['torch.float64', 'torch.int64', 'torch.float32'])}"
        lab = self.label()
        dim_s = "" if dim is None else f", {dim!r}"
        if rng.random() < 0.35 and dim is not None:
            rshape = self.reduced_shape(ashape, dim, "True" in keep)
            o = self.out_tensor(adt, rshape or (), exact_dtype=name == "mean")
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}{dim_s}{keep}{dtype}, out={o}))")
            self.show_out(lab)
        elif rng.random() < 0.5:
            margs = ", ".join(x for x in (dim_s[2:], keep[2:], dtype[2:]) if x)
            self.L.append(f"r = _ds_do({lab}, lambda: {a}.{name}({margs}))")
        else:
            self.L.append(f"r = _ds_do({lab}, lambda: torch.{name}({a}{dim_s}{keep}{dtype}))")

    @staticmethod
    def reduced_shape(shape, dim, keep):
        nd = len(shape)
        dims = dim if isinstance(dim, tuple) else (dim,)
        try:
            wrapped = {d % max(nd, 1) for d in dims if -max(nd, 1) <= d < max(nd, 1)}
        except ZeroDivisionError:
            wrapped = set()
        return tuple((1 if i in wrapped else s) for i, s in enumerate(shape) if keep or i not in wrapped)

    def other_stmt(self):
        rng = self.rng
        which = rng.choice(["where", "mm", "matmul", "bmm", "index_select", "cat", "stack"])
        lab = self.label()
        dt = rng.choice(["torch.float32", "torch.float64", "torch.int64"])
        use_out = rng.random() < 0.5
        if which == "where":
            shape = self.shape()
            c, _, _ = self.new_tensor(dtype="torch.bool", shape=shape)
            x, xdt, _ = self.new_tensor(dtype=dt, shape=self.broadcast_partner(shape))
            y, _, _ = self.new_tensor(dtype=dt, shape=self.broadcast_partner(shape))
            call = f"torch.where({c}, {x}, {y}"
            odt = xdt
        elif which in ("mm", "matmul", "bmm"):
            n, k, m = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
            if which == "bmm":
                sa, sb = (2, n, k), (2, k if rng.random() < 0.9 else k + 1, m)
            elif which == "matmul" and use_out:  # (1.13 resizes out= through 2-D shapes for 1-D operands)
                sa, sb = (n, k), (k, m)
            elif which == "matmul":
                sa = rng.choice([(k,), (n, k), (2, n, k)])
                sb = rng.choice([(k,), (k, m), (2, k, m)])
            else:
                sa, sb = (n, k), (k if rng.random() < 0.9 else k + 1, m)
            x, _, _ = self.new_tensor(dtype=dt, shape=sa)
            if len(sa) == 2 and not use_out:  # a view keeping the shape (transposed)
                vx, vshape = self.view_of(x, sa)
                x = vx if tuple(vshape) == tuple(sa) else x
            y, _, _ = self.new_tensor(dtype=dt, shape=sb)
            call = f"torch.{which}({x}, {y}"
            odt = dt
        elif which == "index_select":
            shape = self.shape() or (2,)
            x, _, _ = self.new_tensor(dtype=dt, shape=shape)
            d = rng.randrange(len(shape))
            idx = [rng.randrange(max(shape[d], 1)) for _ in range(rng.randint(0, 3))]
            call = f"torch.index_select({x}, {d}, torch.tensor({idx!r}, dtype=torch.int64)"
            odt = dt
        else:
            shape = self.shape() or (2,)
            x, _, _ = self.new_tensor(dtype=dt, shape=shape)
            # (stack into out= with mixed input dtypes: 1.13 checks out before resizing, 2.x after)
            ydt = dt if which == "stack" and use_out else rng.choice([dt, "torch.float32", "torch.int32"])
            y, _, _ = self.new_tensor(dtype=ydt, shape=shape)
            d = rng.randrange(-len(shape), len(shape))
            call = f"torch.{which}([{x}, {y}], {d}"
            odt = dt
        if use_out:
            # (where: 1.13 asserts on another dtype; stack: 1.13 resizes before checking it on some paths)
            o = self.out_tensor(odt, (), exact_dtype=which in ("where", "stack"))
            self.L.append(f"r = _ds_do({lab}, lambda: {call}, out={o}))")
            self.show_out(lab)
        else:
            self.L.append(f"r = _ds_do({lab}, lambda: {call}))")

    def view_stmt(self):
        rng = self.rng
        a, adt, shape = self.new_tensor(dtype=rng.choice(["torch.float32", "torch.int64", "torch.float64"]))
        nd = len(shape)
        opts = ["X.unsqueeze(0)", "X[None]", "X.flatten()", "X.view(-1)", "X.reshape(-1)", "X.squeeze()"]
        if nd >= 1:
            opts += ["X[1:, None]", "X.narrow(0, 1, -1)", "X.narrow(0, 0, 1)", "X.unfold(0, 2, 1)",
                     "X.unfold(0, 1, 2)", "X.unfold(-1, 4, 1)", "X[::2]", "X.select(0, 0)", "X.diagonal()",
                     "X.tril()", "X.triu(1)", "X.as_strided((2,), (2,))", "X.view(torch.int32)",
                     "X.view(torch.uint8)", "X.expand(2, *X.shape)", "X.split(1)[-1]", "X.chunk(2)[0]",
                     "X.movedim(0, -1)"]
        if nd >= 2:
            opts += ["X.t()", "X.diagonal(1)", "X.diagonal(-1)", "X.diagonal(0, 1, 0)", "X[:, 1:]",
                     "X[:, ::2]", "X.transpose(0, 1)[1:]", "X.unfold(1, 2, 1)", "X[1:, None, :1]",
                     "X.permute(1, 0)[:, None]", "X.tril()", "X.triu(-1)",
                     # diag of 3-D input: 1.13 and 2.x word the error differently (conformance README)
                     "X.diag()" if nd == 2 else "X.diagonal(1, 0, 1)"]
        if nd >= 3:
            opts += ["X.diagonal(0, 0, 2)", "X.permute(2, 0, 1)", "X[:, :, ::2]", "X.transpose(0, 2)[1:]"]
        if nd == 0:
            opts += ["X.sum(0)", "X.sum(-1)", "X.unsqueeze(1)", "X.flip(0)", "X.cumsum(0)", "X.amax(0)",
                     "X.tril()", "X.diagonal()"]
        expr = rng.choice(opts).replace("X", a)
        lab = self.label()
        self.L.append(f"w = _ds_do({lab}, lambda: {expr}, layout=True)")
        r = rng.random()
        if r < 0.35:
            self.L.append(f"if w is not None: _ds_do({lab} + 'fill_', lambda: w.fill_(7)); print({lab}, 'base', _ds_t({a}))")
        elif r < 0.55:
            self.L.append(f"if w is not None: print({lab}, 'copy', _ds_layout(w.clone()), _ds_layout(w.contiguous()), "
                          f"_ds_layout(w.to(torch.float64)), _ds_layout(torch.empty_like(w)))")
        elif r < 0.7 and "unfold" not in expr:  # (overlapping windows: PyTorch adds element by element)
            self.L.append(f"if w is not None: _ds_do({lab} + 'add_', lambda: w.add_(1)); print({lab}, 'base', _ds_t({a}))")

    def overlap_stmt(self):
        rng = self.rng
        lab = self.label()
        stmts = ["torch.zeros(1).expand(3).add_(1)", "a[1:].copy_(a[:-1])", "a[:-1].copy_(a[1:])",
                 "torch.add(a[1:], 1, out=a[:-1])", "torch.neg(a, out=a[:2])", "a.add_(a)", "a.add_(a[:])",
                 "torch.zeros(2, 1).expand(2, 2).mul_(2)", "torch.exp(a, out=a)", "a[:2].add_(a[1:])",
                 "torch.zeros(3, 3).add_(1).t().add_(torch.ones(3))", "a.copy_(a)",
                 "torch.ones(2, 1).expand(2, 3).copy_(torch.ones(2, 3))", "torch.zeros(3, 3).diagonal().add_(1)"]
        self.L.append("a = torch.arange(4.)")
        self.L.append(f"r = _ds_do({lab}, lambda: {rng.choice(stmts)})")
        self.L.append(f"print({lab}, _ds_t(a))")

    def factory_stmt(self):
        rng = self.rng
        lab = self.label()
        f = rng.choice(["torch.zeros(2, 3, out=o)", "torch.ones(4, out=o)", "torch.full((2,), 1.5, out=o)",
                        "torch.arange(5, out=o)", "torch.arange(1, 4, out=o)", "torch.linspace(0, 1, 3, out=o)",
                        "torch.empty(3, out=o).shape", "torch.rand(2, 2, out=o).shape", "torch.randn(3, out=o).shape",
                        "torch.ones(2, out=o, dtype=torch.float64)", "torch.zeros(3, out=o, dtype=torch.int64)",
                        "torch.eye(2, out=o)"])
        dtype = rng.choice(["torch.float32", "torch.float64", "torch.int64"])
        shape = rng.choice([(0,), (2,), (5,), (2, 3), (4,)])
        self.L.append(f"o = torch.full({shape}, 9, dtype={dtype})")
        self.L.append(f"r = _ds_do({lab}, lambda: {f})")
        self.L.append(f"print({lab}, 'out', _ds_t(o) if not {'rand' in f or 'empty' in f} else (o.dtype, o.shape), _ds_layout(o))")

    def error_stmt(self):
        rng = self.rng
        lab = self.label()
        e = rng.choice(["torch.ones(3).tril()", "torch.tensor([3., 4.]).norm(dim=2)", "torch.tensor(5).sum(0)",
                        "torch.tensor(5).sum(1)", "torch.arange(4.).narrow(0, 2, -1)", "torch.ones(2, 3).sum(dim=5)",
                        "torch.tensor([1, 2]).mean()", "torch.ones(3).diagonal()", "torch.ones(2, 3).unfold(1, 4, 1)",
                        "torch.ones(2, 3).unfold(1, 2, 0)", "torch.ones(2, 3).t().view(torch.int8)",
                        "torch.ones(3, dtype=torch.int8).view(torch.int32)", "torch.ones(2, 3).view(torch.float64)",
                        "torch.tensor([1, 2]).exp_()", "torch.tensor([1, 2]).add_(1.5)", "torch.tensor([1, 2]).div_(2)",
                        "torch.exp(torch.tensor([1, 2]), out=torch.zeros(2, dtype=torch.long))",
                        "torch.add(torch.ones(3, requires_grad=True), 1, out=torch.zeros(3))",
                        "torch.exp(torch.ones(2), out=3)", "torch.add(torch.ones(2), 'a')", "torch.exp(3)",
                        "torch.add(torch.ones(2), torch.ones(2), 2)", "torch.exp(torch.ones(2), foo=1)",
                        "torch.tensor([[0, 1], [1, 1]]).nonzero()", "torch.ones(2, 2).resize_(3)",
                        "torch.ones(2, 2).resize_(1, 1)", "torch.arange(6.).resize_(2, 3)",
                        "torch.tensor([True]).neg_()", "torch.ones(2).tril(1)"])
        self.L.append(f"r = _ds_do({lab}, lambda: {e}, layout=True)")

    def program(self, mixed=False):
        rng = self.rng
        weights = [(self.binary_stmt, 30), (self.unary_stmt, 20), (self.reduction_stmt, 12), (self.other_stmt, 10),
                   (self.view_stmt, 15), (self.overlap_stmt, 4), (self.factory_stmt, 4), (self.error_stmt, 5)]
        if mixed:  # the op statements above plus indexing, expand, 0-dim views, growing outs, module moves
            weights += [(self.getitem_stmt, 30), (self.setitem_stmt, 30), (self.expand_stmt, 15),
                        (self.zero_dim_stmt, 15), (self.growing_out_stmt, 6), (self.module_stmt, 6),
                        (self.setitem_grad_stmt, 8)]
        total = sum(w for _, w in weights)
        for _ in range(rng.randint(3, 8)):
            x = rng.random() * total
            for fn, w in weights:
                x -= w
                if x < 0:
                    fn()
                    break
        return self.L


def ops_program(rng):
    return OpsGen(rng).program()


def mixed_program(rng):
    """Op programs with indexing and index assignment, expand, 0-dim views, growing out= views and module
    dtype moves mixed in (gen_indexing.py)."""
    return OpsGen(rng).program(mixed=True)


if __name__ == "__main__":
    import random
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    print(PRELUDE)
    print("\n".join(ops_program(random.Random(seed))))
