"""Indexing, expand, 0-dim views, growing out= views and module dtype moves for the op sweep (gen_ops.py).

A mixin of OpsGen (it uses OpsGen's rng, statement list L, label() and new_tensor()). Every statement prints
what PyTorch's contract fixes: the result (dtype, shape, values), its layout (sizes, strides, offset), whether it
shares the indexed tensor's storage (and at which element), what a write through it does to the base, or the
error's type and first line. Index items cover ints (in and out of range), slices (steps, clamped bounds),
None, Ellipsis, True/False, int64 tensors (0-dim: a select, n-dim: advanced indexing), bool masks (matching and
not), lists of ints and bools; assignments take Python numbers, 0-dim tensors and tensors of the indexed
shape, of a broadcastable one or of a wrong one, of the same or another dtype.

Left out because 1.13 and 2.x differ (tests/conformance/README.md): int32 and float index tensors (2.x accepts
int32 and words the error "long, int, byte or bool"), uint8 masks (deprecation warning text), `expand` of a
0-dim tensor with -1 (1.13: "numel: integer multiplication overflow"), strings as indices, `.mT` of a 0-dim
tensor (1.13: the tensor; 2.x warns).
"""
import math

# helpers the programs call; appended to gen_ops.PRELUDE
INDEX_PRELUDE = '''

def _ds_root(t):
    # the address of element 0 of t's storage: two tensors share storage when their roots are equal
    return t.data_ptr() - t.storage_offset() * t.element_size()


def _ds_shares(r, x):
    # 'shares N' (r starts at element N of x's storage, in r's element size) or 'own'; empty tensors say nothing
    if not isinstance(r, torch.Tensor) or r.numel() == 0 or x.numel() == 0:
        return ''
    return 'shares %d' % r.storage_offset() if _ds_root(r) == _ds_root(x) else 'own'


def _ds_value(x, idx, mode, dtype):
    # a value for x[idx] = value: of the indexed shape, a broadcastable one, or a wrong one
    shape = list(x[idx].shape)
    if mode == 'bcast':
        shape = [1 if i % 2 == 0 else s for i, s in enumerate(shape)][1:]
    elif mode == 'bad':
        shape = shape[:-1] + [shape[-1] + 1] if shape else [2]
    elif mode == 'more':
        shape = [2] + shape
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n) % 4 + 1).to(dtype).reshape(shape)


def _ds_value_or_one(x, idx, mode, dtype):
    # _ds_value, or a one-element value when x[idx] itself is an error (the assignment then reports it)
    try:
        return _ds_value(x, idx, mode, dtype)
    except Exception:
        return torch.ones(1, dtype=dtype)


def _ds_set(x, idx, value):
    x[idx] = value
    return x
'''

INDEX_DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.uint8", "torch.bool"]


class IndexStmts:
    # ------------------------------------------------------------------ index expressions
    def index_items(self, shape, subscript=True):
        """A random index for a tensor of `shape`: the Python text of it inside [] (subscript) or as a value.
        Mostly valid: items index the leading dims, after an Ellipsis the trailing ones; now and then one more
        item than dims (too many indices)."""
        rng = self.rng
        nd = len(shape)
        ellipsis = rng.random() < 0.2
        n_front = rng.randint(0, nd) if ellipsis or not nd else rng.randint(1, nd)
        n_back = rng.randint(0, nd - n_front) if ellipsis else 0
        if rng.random() < 0.05:
            n_front += 1
        items = self.index_run(shape, 0, n_front, subscript)
        if ellipsis:
            items.append("..." if subscript else "Ellipsis")
            items += self.index_run(shape, nd - n_back, n_back, subscript)
        if not items:
            items = ["None"]
        text = ", ".join(items) + ("," if len(items) == 1 else "")  # a tuple, even of one item
        if len(items) == 1 and rng.random() < 0.7:
            text = items[0]
        return text if subscript else f"({text})"

    def index_run(self, shape, d, n, subscript):
        """Items indexing dims d .. d+n-1 of `shape` (masks may take two at once), with None and bools between."""
        rng = self.rng
        nd, items, end = len(shape), [], d + n
        while d < end:
            r = rng.random()
            size = shape[d] if d < nd else 1
            if r < 0.08:
                items.append("None")
                continue
            if r < 0.12:
                items.append(rng.choice(["True", "False"]))
                continue
            if r < 0.35:
                lo, hi = (-size, size - 1) if rng.random() < 0.9 else (-size - 1, size)
                items.append(str(rng.randint(lo, hi)))
            elif r < 0.6:
                bounds = [None, None, 0, 1, -1, size, size + 2, -size - 1]
                start, stop = rng.choice(bounds), rng.choice(bounds)
                step = rng.choice([None, None, 1, 2, 3] + ([-1] if rng.random() < 0.05 else []))
                s = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
                s += "" if step is None else f":{step}"
                # (outside a subscript the same slice is written as a slice object)
                items.append(s if subscript else f"slice({start}, {stop}, {step})")
            elif r < 0.78:
                items.append(self.long_index(size))
            elif r < 0.9:
                k = 2 if end - d >= 2 and rng.random() < 0.4 else 1
                mshape = [shape[i] if i < nd else 1 for i in range(d, d + k)]
                if rng.random() < 0.15:
                    mshape[-1] += 1
                items.append(f"torch.tensor({self.values('torch.bool', tuple(mshape))!r})")
                d += k
                continue
            elif rng.random() < 0.7:
                items.append(repr([rng.randint(-size, max(size - 1, 0)) for _ in range(rng.randint(1, 3))]))
            else:
                items.append(repr([rng.random() < 0.5 for _ in range(size)]))
            d += 1
        return items

    def long_index(self, size):
        rng = self.rng
        hi = size - 1 if rng.random() < 0.9 else size
        lo = -size
        val = lambda: rng.randint(lo, max(hi, lo))  # noqa: E731
        r = rng.random()
        if r < 0.3:
            return f"torch.tensor({val()})"
        if r < 0.8:
            return f"torch.tensor({[val() for _ in range(rng.randint(0, 3))]!r}, dtype=torch.int64)"
        return f"torch.tensor({[[val()] for _ in range(rng.randint(1, 2))]!r})"

    def indexed_tensor(self):
        rng = self.rng
        shape = tuple(rng.choice([1, 2, 3, 3]) for _ in range(rng.choice([0, 1, 2, 2, 3])))
        base, dtype, shape = self.new_tensor(dtype=rng.choice(INDEX_DTYPES), shape=shape)
        name = base
        if rng.random() < 0.3:  # a view as the indexed tensor: strides and offset carry through
            name, shape = self.view_of(base, shape)
        return name, dtype, shape, base

    # ------------------------------------------------------------------ statements
    def getitem_stmt(self):
        rng = self.rng
        x, _, shape, _ = self.indexed_tensor()
        idx = self.index_items(shape)
        lab = self.label()
        self.L.append(f"r = _ds_do({lab}, lambda: {x}[{idx}], layout=True)")
        self.L.append(f"print({lab}, _ds_shares(r, {x}))")
        if rng.random() < 0.4:  # a write through the result reaches x only when the result is a view
            self.L.append(f"if r is not None and r.numel(): r.fill_(1); print({lab}, 'base', _ds_t({x}))")

    def setitem_stmt(self):
        rng = self.rng
        x, xdt, shape, base = self.indexed_tensor()
        idx = self.index_items(shape, subscript=False)
        r = rng.random()
        if r < 0.3:
            value = repr(rng.choice([0, 1, 2, -1, 1.5, True, False]))
        elif r < 0.4:
            value = f"torch.tensor({rng.choice([2, 1.5, True])})"
        else:
            mode = rng.choice(["same", "same", "bcast", "bad", "more"])
            vdt = xdt if rng.random() < 0.7 else rng.choice(INDEX_DTYPES)
            value = f"_ds_value({x}, {idx}, {mode!r}, {vdt})"
        lab = self.label()
        self.L.append(f"r = _ds_do({lab}, lambda: _ds_set({x}, {idx}, {value}))")
        # (not after an index out of range: the kernel refuses it mid-way, having written part of x)
        self.L.append(f"if r is not None or 'out of bounds' not in _ds_err[0]: "
                      f"print({lab}, 'after', _ds_t({x}){', _ds_t(' + base + ')' if base != x else ''})")

    def setitem_grad_stmt(self):
        """An assignment autograd records: the gradient reaching x's past (zero where written) and the value."""
        rng = self.rng
        shape = tuple(rng.choice([1, 2, 3]) for _ in range(rng.choice([1, 2, 2, 3])))
        dt = rng.choice(["torch.float32", "torch.float64"])
        n = math.prod(shape)
        idx = self.index_items(shape, subscript=False)
        lab = self.label()
        L = self.L
        L.append(f"xg = torch.arange({n}, dtype={dt}).reshape({shape}).requires_grad_()")
        L.append("y = xg * 2")
        if rng.random() < 0.3:
            L.append(f"vg = torch.tensor({rng.choice([1.5, -2.0])}, dtype={dt}, requires_grad=True)")
        else:
            mode = rng.choice(["same", "same", "bcast"])
            L.append(f"vg = _ds_value_or_one(y.detach(), {idx}, {mode!r}, {dt}).requires_grad_()")
        value = "vg" if rng.random() < 0.85 else repr(rng.choice([0, 2.5]))
        L.append(f"r = _ds_do({lab}, lambda: _ds_set(y, {idx}, {value}))")
        L.append("if r is not None:")
        L.append(f"    print({lab}, type(y.grad_fn).__name__, _ds_t(y.detach()))")
        L.append(f"    (y * torch.arange({n}, dtype={dt}).reshape({shape})).sum().backward()")
        L.append(f"    print({lab}, 'grads', _ds_t(xg.grad), None if vg.grad is None else _ds_t(vg.grad))")

    def expand_stmt(self):
        rng = self.rng
        shape = tuple(rng.choice([1, 1, 2, 3]) for _ in range(rng.choice([0, 1, 1, 2, 2, 3])))
        x, _, shape = self.new_tensor(dtype=rng.choice(INDEX_DTYPES[:3]), shape=shape)
        nd = len(shape)
        r = rng.random()
        if r < 0.15:
            sizes = [rng.choice([2, 3]) for _ in range(max(nd - 1, 0))] or [2]  # too few (or wrong) sizes
        else:
            lead = [rng.choice([1, 2, 0]) for _ in range(rng.choice([0, 0, 1, 2]))]
            if lead and nd and rng.random() < 0.1:
                lead[0] = -1  # -1 in a new leading dimension: an error
            body = []
            for s in shape:
                c = rng.random()
                if c < 0.3:
                    body.append(-1)
                elif c < 0.8:
                    body.append(rng.choice([2, 3]) if s == 1 else s)
                else:
                    body.append(rng.choice([0, 1, 2, 3, 4]))  # sometimes wrong
            sizes = lead + body
        args = ", ".join(str(s) for s in sizes)
        form = rng.random()
        if form < 0.45:
            expr = f"{x}.expand({args})"
        elif form < 0.6:
            expr = f"{x}.expand(({args}{',' if len(sizes) == 1 else ''}))"
        elif form < 0.75:
            expr = f"torch.broadcast_to({x}, ({args}{',' if len(sizes) == 1 else ''}))"
        elif form < 0.85 and -1 not in sizes:
            expr = f"{x}.expand_as(torch.zeros({tuple(sizes)}))"
        else:
            expr = f"{x}.broadcast_to(({args}{',' if len(sizes) == 1 else ''}))"
        if not sizes and "zeros" not in expr:
            expr = f"{x}.expand(())" if rng.random() < 0.5 else f"{x}.expand([])"
        lab = self.label()
        self.L.append(f"w = _ds_do({lab}, lambda: {expr}, layout=True)")
        self.L.append(f"print({lab}, _ds_shares(w, {x}), w is {x})")
        after = rng.random()
        if after < 0.3:
            self.L.append(f"if w is not None: _ds_do({lab} + 'c', lambda: w.contiguous(), layout=True)")
        elif after < 0.5:
            self.L.append(f"if w is not None: _ds_do({lab} + 'add_', lambda: w.add_(1)); print({lab}, _ds_t({x}))")
        elif after < 0.65:
            self.L.append(f"if w is not None: _ds_do({lab} + 'r', lambda: w.reshape(-1), layout=True)")

    def zero_dim_stmt(self):
        rng = self.rng
        x, _, _ = self.new_tensor(dtype=rng.choice(INDEX_DTYPES[:3] + ["torch.bool"]), shape=())
        e = rng.choice([
            "X[None]", "X[...]", "X[()]", "X[0]", "X[:]", "X[True]", "X[False]", "X[None, ..., None]",
            "X[torch.tensor(True)]", "X[torch.tensor(0)]", "X[..., None]", "X[None, 0]", "X[[0]]",
            "X.view(1)", "X.view(-1)", "X.view(())", "X.view(1, 1)", "X.reshape(())", "X.reshape(1, -1)",
            "X.unsqueeze(0)", "X.unsqueeze(-1)", "X.unsqueeze(1)", "X.unsqueeze(-2)", "X.squeeze()",
            "X.squeeze(0)", "X.squeeze(-1)", "X.squeeze(1)", "X.t()", "X.T", "X.flatten()",
            "X.ravel()", "X.expand(2)", "X.expand(())", "X.expand(1, 3)", "X.expand_as(torch.ones(2, 2))",
            "X.narrow(0, 0, 1)", "X.select(0, 0)", "X.transpose(0, -1)", "X.transpose(0, 1)", "X.permute()",
            "X.permute(0)", "X.movedim(0, 0)", "X.unbind()", "X.unbind(0)", "X.split(1)", "X.chunk(1)",
            "X.unfold(0, 1, 1)", "X.unfold(0, 2, 1)", "X.as_strided((), ())", "X.as_strided((2,), (0,))",
            "X.view_as(torch.ones(1))", "X.diagonal()", "X.flip(0)", "X.roll(1)", "X.contiguous()",
            "X.detach()", "X.swapaxes(0, 0)", "X.tril()",
            "X.reshape(-1)", "X.sum(0)", "X.amax(-1)", "X.cumsum(0)", "torch.atleast_1d(X)",
            "torch.atleast_2d(X)", "X.index_select(0, torch.tensor([0]))",
            "X.gather(0, torch.tensor(0))", "X.masked_fill(torch.tensor(True), 5)", "X.item()", "X.tolist()"])
        expr = e.replace("X", x)
        lab = self.label()
        self.L.append(f"w = _ds_do({lab}, lambda: {expr}, layout=True)")
        self.L.append(f"print({lab}, _ds_shares(w, {x}))")
        if rng.random() < 0.4:
            self.L.append(f"if isinstance(w, torch.Tensor) and w.numel(): _ds_do({lab} + 'fill_', lambda: w.fill_(1)); "
                          f"print({lab}, 'base', _ds_t({x}))")

    def growing_out_stmt(self):
        """out= a view of a bigger buffer, too small for the result: PyTorch resizes it (a warning) in place,
        growing the storage it shares with the buffer when the view runs past its end."""
        rng = self.rng
        n = rng.choice([4, 6])
        dt = rng.choice(["torch.float32", "torch.int64"])
        view = rng.choice(["buf[1:3]", "buf[:2]", "buf[2:]", "buf[::2]", "buf[-1:]", "buf[:0]", "buf[1:]",
                           "buf.view(2, -1)[0]", "buf.view(2, -1).t()", "buf.view(2, -1)[:, :1]"])
        call = rng.choice(["torch.add(a, 1, out=o)", "torch.neg(a, out=o)", "torch.mul(a, a, out=o)",
                           "torch.sum(a, 0, out=o)", "torch.cat([a, a], out=o)", "torch.abs(a, out=o)",
                           "torch.arange(4, out=o)", "torch.zeros(5, out=o)", "torch.ones(2, 2, out=o)"])
        shape = rng.choice([(2,), (4,), (5,), (2, 3), (1,)])
        lab = self.label()
        self.L.append(f"buf = torch.arange({n}, dtype={dt}) + 10")
        self.L.append(f"o = {view}")
        self.L.append(f"a = torch.arange({math.prod(shape)}, dtype={dt}).reshape({shape})")
        self.L.append(f"r = _ds_do({lab}, lambda: {call})")
        self.L.append(f"print({lab}, 'out', r is o, _ds_t(o), _ds_layout(o), _ds_shares(o, buf))")
        self.L.append(f"print({lab}, 'buf', _ds_t(buf))")

    def module_stmt(self):
        """A small module moved to another dtype (the stand-in for a device move) and what handles see."""
        rng = self.rng
        ctor = rng.choice(["torch.nn.Linear(2, 3)", "torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3))",
                           "torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))",
                           "torch.nn.LayerNorm(2)", "torch.nn.BatchNorm1d(2)", "torch.nn.Embedding(4, 2)"])
        lab = self.label()
        L = self.L
        L.append(f"m = {ctor}")
        L.append("with torch.no_grad():")
        L.append("    for i, p in enumerate(m.parameters()):")
        L.append("        p.copy_((torch.arange(p.numel()) % 3 - 1 + i % 2).reshape(p.shape))")
        L.append("p0 = list(m.parameters())[0]")
        L.append("h_data, h_view, h_row = p0.data, p0.view(-1), p0[0]")
        L.append("bufs = dict(m.named_buffers())")
        conv, dt = rng.choice([("m.double()", "torch.float64"), ("m.to(torch.float64)", "torch.float64"),
                               ("m.half()", "torch.float16"), ("m.float()", "torch.float32"),
                               ("m.to(dtype=torch.float64)", "torch.float64"), ("m.type(torch.float64)", "torch.float64"),
                               ("m.to(torch.int64)", None), ("m.to(torch.zeros(1, dtype=torch.float64))", "torch.float64"),
                               ("m.bfloat16()", "torch.bfloat16"), ("m.to('cpu', torch.float64)", "torch.float64")])
        L.append(f"r = _ds_do({lab}, lambda: {conv} is m)")
        L.append(f"print({lab}, p0 is list(m.parameters())[0], [(n, p.dtype) for n, p in m.named_parameters()])")
        L.append(f"print({lab}, h_data.dtype, h_view.dtype, h_row.dtype, _ds_root(h_data) == _ds_root(p0), "
                 f"_ds_root(h_view) == _ds_root(h_data))")
        L.append(f"print({lab}, [(n, b.dtype, b is bufs[n]) for n, b in m.named_buffers()])")
        if dt in ("torch.float64", "torch.float32"):
            x = "torch.tensor([1, 3])" if "Embedding" in ctor else f"(torch.arange(4, dtype={dt}).reshape(2, 2) % 3 - 1)"
            L.append(f"_ds_do({lab} + 'fwd', lambda: m({x}))")
        if rng.random() < 0.5:
            L.append("h_data.add_(1)")
            L.append(f"print({lab}, 'param after a write to the old data', _ds_t(p0.detach()))")
