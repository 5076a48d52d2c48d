"""How storages get their names (a mixin of recorder.Recorder, which holds the state it uses).

Parameters, buffers and gradients by their path in a root module, optimizer state by optimizer and parameter
(`optimizer.state[model.fc.weight].exp_avg`), roots and optimizers by the script's global variables. A label
is kept as parts ([("name", root id), ".fc.weight"]) and joined when the file is written, so a root named
later still names the storages it freed on the way. A stronger role is never replaced by a weaker one.
"""
import weakref

import torch

# What a name says about a storage, weakest first: a stronger one is never replaced by a weaker one.
ROLE_STRENGTH = {"other": 0, "activation": 1, "gradient": 2, "optimizer-state": 2, "buffer": 3, "parameter": 3}


class Naming:
    def register_root(self, module):
        """Names every submodule of `module` relative to it (a later, larger root renames them)."""
        rid = id(module)
        self.roots[rid] = weakref.ref(module)
        self.names.setdefault(rid, type(module).__name__)
        for path, m in module.named_modules():
            self.modules[id(m)] = (weakref.ref(m), rid, path)

    def module_parts(self, module):
        entry = self.modules.get(id(module))
        if entry is None or entry[0]() is not module:
            self.register_root(module)
            entry = self.modules[id(module)]
        _, rid, path = entry
        return [("name", rid)] + (["." + path] if path else [])

    def name_globals(self):
        """Roots and optimizers named after the script's global variables that hold them."""
        for name, value in list(self.globals.items()):
            if isinstance(value, torch.nn.Module):
                entry = self.modules.get(id(value))
                if entry is None or entry[0]() is not value:
                    self.register_root(value)
                    entry = self.modules[id(value)]
                if not entry[2] and not name.startswith("_"):
                    self.names.setdefault(("global", entry[1]), name)
            elif isinstance(value, torch.optim.Optimizer):
                self.add_optimizer(value)  # made before the recording started (`with record(...)`)
                if not name.startswith("_"):
                    self.names.setdefault(("global", id(value)), name)
            elif isinstance(value, torch.Tensor) and not name.startswith("_"):
                # `data`, `x`: better than the line that made it; the first name found stays (a plain str).
                rec = self.seen(value)
                if rec is not None and rec.role == "other" and not isinstance(rec.label, str):
                    rec.label = name

    def add_optimizer(self, opt):
        if any(ref() is opt for ref in self.optimizers):
            return
        self.optimizers.append(weakref.ref(opt))
        if self.on_optimizer is not None:
            self.on_optimizer(opt)

    def seen(self, t):
        """see(t, "named") for the name passes, which meet the same tensors every step: the same tensor object
        at the same address, its storage not freed, is its Storage without asking torch for the storage."""
        hit = self.labeled.get(id(t))
        if hit is not None and hit[0]() is t and not hit[1].freed and hit[2] == t.data_ptr():
            return hit[1]
        rec = self.see(t, "named")
        if rec is not None:
            try:
                self.labeled[id(t)] = (weakref.ref(t), rec, t.data_ptr())
            except TypeError:  # not weak-referenceable
                pass
        return rec

    def label(self, t, parts, role):
        rec = self.seen(t)
        if rec is not None and ROLE_STRENGTH[role] >= ROLE_STRENGTH[rec.role]:
            rec.label, rec.role = parts, role

    def name_pass(self, modules=True, optimizers=True):
        """Labels parameters, buffers and gradients from the modules, optimizer state from the optimizers."""
        self.name_globals()
        if modules:
            self.name_modules()
        if optimizers:
            self.name_optimizers()

    def name_modules(self):
        """Parameters, gradients and buffers by their path in each root. The members of a root are listed again
        (named_parameters walks the module tree: the costly part of a pass) when the root is new, after a
        module move (install.py clears them), and every 32nd pass (a parameter added later)."""
        self.passes += 1
        if self.passes % 32 == 0:
            self.members.clear()
            self.param_parts = {}
        for rid, ref in list(self.roots.items()):
            root = ref()
            if root is None:
                del self.roots[rid]
                self.members.pop(rid, None)
                continue
            members = self.members.get(rid)
            if members is None:
                members = self.members[rid] = self.list_members(rid, root)
            for tref, parts, grad_parts in members:
                t = tref()
                if t is None:
                    continue
                if grad_parts is None:
                    self.label(t, parts, "buffer")
                    continue
                self.label(t, parts, "parameter")
                grad = t.grad
                if grad is not None:
                    self.label(grad, grad_parts, "gradient")

    def list_members(self, rid, root):
        members = []
        for path, p in root.named_parameters():
            parts = [("name", rid), "." + path]
            self.param_parts[id(p)] = (weakref.ref(p), parts)
            members.append((weakref.ref(p), parts, parts + [".grad"]))
        for path, b in root.named_buffers():
            members.append((weakref.ref(b), [("name", rid), "." + path], None))
        return members

    def name_optimizers(self):
        alive = []
        labeled = self.labeled
        for ref in self.optimizers:
            opt = ref()
            if opt is None:
                continue
            alive.append(ref)
            oid = id(opt)
            self.names.setdefault(oid, type(opt).__name__)
            for p, state in opt.state.items():
                owner = None
                for k, v in state.items():
                    if not isinstance(v, torch.Tensor):
                        continue
                    hit = labeled.get(id(v))  # the same state tensor as last step, already named: nothing to do
                    if (hit is not None and hit[1].role == "optimizer-state" and hit[0]() is v and not hit[1].freed
                            and hit[2] == v.data_ptr()):
                        continue
                    if owner is None:
                        known = self.param_parts.get(id(p))
                        owner = known[1] if known is not None and known[0]() is p else ["param"]
                    self.label(v, [("name", oid), ".state["] + owner + ["]." + str(k)], "optimizer-state")
        self.optimizers = alive

    def resolve(self, label):
        """A label as written: events and transfers name storages by id (ints keep the event rows free of
        objects the cyclic GC would walk on every collection), resolved through the final labels."""
        if isinstance(label, int):
            label = self.final_labels.get(label, "")
        if isinstance(label, str):
            return label
        out = []
        for part in label:
            if isinstance(part, tuple):
                out.append(self.names.get(("global", part[1])) or self.names.get(part[1], "?"))
            else:
                out.append(part)
        return "".join(out)

