#!/usr/bin/python3
"""Random but valid PyTorch programs for the conformance sweep (tests/sweep/run_sweep.py).

Each program builds a random module tree (custom modules, Sequential / ModuleList / ModuleDict /
ParameterList, parameters, persistent and non-persistent buffers, int and bool buffers, plain tensor
attributes, tensors and modules in plain lists, tied weights, aliased submodules), takes handles
(references, .data, .detach(), views, state_dict entries), maybe trains a step, converts the dtype (the
stand-in for a device move: same Module._apply / Tensor.to paths), and prints what every handle sees.
Module API around the conversion: state_dict(keep_vars), deepcopy, load_state_dict, grads set by hand,
requires_grad_ / train(False), get_submodule / get_parameter, a Parameter sharing a tensor's storage, None and
deleted buffers, layers created after the conversion. Tensor programs (gen_tensors.py) cover views, in-place
ops, .to / .data assignment, autograd through a conversion, layout queries and numpy memory sharing.

Only behaviour PyTorch 1.13 (the reference here) and 2.x (what DeviceScope follows) agree on is printed:
no random values (weights are overwritten with small integers, so printed values are exact), no grad_fn
names that changed, zero_grad always with an explicit set_to_none, no SGD state without momentum.

    generate.py --seed S --index I      prints program I of seed S as a standalone script
    generate.py --seed S --count N      prints N programs as one batch script (what run_sweep.py runs)
    --kind ops                          op programs (gen_ops.py) instead of module programs
    --kind mixed                        op programs with indexing, expand, 0-dim views, module moves mixed in
    --kind random                       seeded random numbers, printed exactly (gen_random.py)
"""
import argparse
import random

from gen_modules import ModuleBuilder
from gen_tensors import tensor_program
from gen_ops import PRELUDE as OPS_PRELUDE, mixed_program, ops_program
from gen_random import random_program

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


class Gen(ModuleBuilder):
    """One program: a module tree, handles, maybe training, a conversion, and what everything sees."""

    def program(self):
        rng = self.rng
        if rng.random() < 0.2:
            return tensor_program(rng)
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

# modules: module trees and tensor views (this file); ops: gen_ops.py; mixed: ops plus indexing, expand, 0-dim
# views, growing out= views and module dtype moves (gen_indexing.py); random: seeded random numbers (gen_random.py)
KINDS = ("modules", "ops", "mixed", "random")


def program_lines(seed, index, kind="modules"):
    uid = seed * 100003 + index
    if kind == "ops":
        return ops_program(random.Random(uid))
    if kind == "mixed":
        return mixed_program(random.Random(uid))
    if kind == "random":
        return random_program(random.Random(uid))
    return Gen(random.Random(uid), uid).program()


def program_name(seed, index):
    return f"program {seed}:{index}"


def batch_script(seed, indices, kind="modules"):
    """One script running many programs; each prints a header and survives the others' failures."""
    out = [OPS_PRELUDE if kind in ("ops", "mixed", "random") else PRELUDE]
    for i in indices:
        out.append(f"\ndef _ds_program_{i}():")
        out += ["    " + l if l else "" for l in program_lines(seed, i, kind)]
        out.append(f"\n_ds_run('{program_name(seed, i)}', _ds_program_{i})")
    return "\n".join(out) + "\n"


def standalone(seed, index, kind="modules"):
    return batch_script(seed, [index], kind)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--index", type=int, help="print this one program as a standalone script")
    ap.add_argument("--count", type=int, default=1, help="programs in the batch script (from index 0)")
    ap.add_argument("--kind", choices=KINDS, default="modules", help="which program generator")
    args = ap.parse_args()
    if args.index is not None:
        print(standalone(args.seed, args.index, args.kind), end="")
    else:
        print(batch_script(args.seed, range(args.count), args.kind), end="")


if __name__ == "__main__":
    main()
