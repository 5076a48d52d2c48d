# The names graph of the user's script: which global names refer to which objects (modules, tensors,
# containers, optimizers), the module tree with where each leaf lives, and what changed since last time.
# Output is plain dicts matching ds::ObjectGraph (engine/trace/snapshot.h, Note [Object graph contract]).
import types
import zlib

MAX_NODES = 50000        # whole graph; a 10k-parameter model fits
MAX_ITEMS = 64           # elements shown per list / tuple / dict
MAX_DEPTH = 8            # containers and plain objects nested deeper are not followed
MAX_MODULE_ROWS = 50000

_SKIP_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type,
               types.BuiltinMethodType, types.CodeType)
_PRIMITIVES = (int, float, bool, str, bytes, complex, type(None))

_MODULE_REGISTRIES = ("_parameters", "_buffers", "_modules")

_last_graph = None


def reset():
    """Forgets the previous graph (a new run starts without 'changed' highlights)."""
    global _last_graph
    _last_graph = None


def _torch():
    import sys
    return sys.modules.get("torch")


def name_id(name):
    """Stable id for a global name; never a Python id() (those are addresses below 2**48)."""
    return (1 << 62) | (zlib.crc32(name.encode("utf-8")) << 16) | (len(name) & 0xFFFF)


def storage_id(t):
    impl = getattr(t, "_impl", None)
    if impl is not None:
        try:
            return int(impl.storage_id)
        except Exception:
            return 0
    try:  # another torch (tests): the storage address stands in for the id
        return int(t.untyped_storage().data_ptr())
    except Exception:
        try:
            return int(t.storage().data_ptr())
        except Exception:
            return 0


def _device_str(t):
    try:
        return str(t.device)
    except Exception:
        return ""


def _dtype_str(t):
    s = str(getattr(t, "dtype", ""))
    return s[6:] if s.startswith("torch.") else s


def _shape(t):
    try:
        return [int(s) for s in t.shape]
    except Exception:
        return []


def _short(text, limit=48):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Builder:
    def __init__(self, torch):
        self.torch = torch
        self.Tensor = torch.Tensor
        nn = getattr(torch, "nn", None)
        self.Module = getattr(nn, "Module", None)
        self.Parameter = getattr(nn, "Parameter", None)
        optim = getattr(torch, "optim", None)
        self.Optimizer = getattr(optim, "Optimizer", None)
        self.nodes = {}          # id -> node dict
        self.order = []          # node ids in creation order
        self.edges = []
        self.paths = {}          # storage_id -> [holder paths]
        self.modules = []
        self.module_seen = set()
        self.buffer_ids = set()
        self.truncated = False

    # ------------------------------------------------------------------ classification
    def is_tensor(self, v):
        return isinstance(v, self.Tensor)

    def is_module(self, v):
        return self.Module is not None and isinstance(v, self.Module)

    def is_optimizer(self, v):
        return self.Optimizer is not None and isinstance(v, self.Optimizer)

    def interesting(self, v, depth=0):
        """Worth a node below a container or plain object: tensors, modules, optimizers, containers of them."""
        if self.is_tensor(v) or self.is_module(v) or self.is_optimizer(v):
            return True
        if depth < 3 and isinstance(v, (list, tuple)):
            return any(self.interesting(x, depth + 1) for x in v[:MAX_ITEMS])
        if depth < 3 and isinstance(v, dict):
            return any(self.interesting(x, depth + 1) for x in list(v.values())[:MAX_ITEMS])
        if depth < 2 and not isinstance(v, _PRIMITIVES + _SKIP_TYPES):
            attrs = getattr(v, "__dict__", None)
            if isinstance(attrs, dict):
                return any(self.interesting(x, depth + 1) for x in list(attrs.values())[:MAX_ITEMS])
        return False

    # ------------------------------------------------------------------ nodes and edges
    def add_node(self, oid, kind, label, device="", sid=0):
        if oid in self.nodes:
            return False
        if len(self.nodes) >= MAX_NODES:
            self.truncated = True
            return False
        self.nodes[oid] = {"id": oid, "kind": kind, "label": label, "device": device,
                           "storage_id": sid, "changed": False}
        self.order.append(oid)
        return True

    def add_edge(self, src, dst, label):
        if src in self.nodes and dst in self.nodes:
            self.edges.append({"from": src, "to": dst, "label": label})

    def hold(self, sid, path):
        if sid:
            lst = self.paths.setdefault(sid, [])
            if path not in lst:
                lst.append(path)

    # ------------------------------------------------------------------ objects
    def visit(self, v, path, depth, kind_hint=None):
        """Adds the node for v (once) and follows it; returns its id or None when not shown."""
        oid = id(v)
        if self.is_tensor(v):
            sid = storage_id(v)
            self.hold(sid, path)
            is_param = self.Parameter is not None and isinstance(v, self.Parameter)
            kind = "parameter" if is_param else (kind_hint or ("buffer" if oid in self.buffer_ids else "tensor"))
            word = "Parameter" if is_param else "tensor"
            dev = _device_str(v)
            extra = " pinned" if dev == "cpu" and _is_pinned(v) else ""
            label = "{} {}{} {} {}".format(word, dev, extra, _shape(v), _dtype_str(v))
            if self.add_node(oid, kind, label, dev, sid):
                grad = getattr(v, "grad", None) if is_param or getattr(v, "requires_grad", False) else None
                if grad is not None and depth < MAX_DEPTH:
                    gid = self.visit(grad, path + ".grad", depth + 1, "tensor")
                    self.add_edge(oid, gid, "grad")
            return oid if oid in self.nodes else None
        if self.is_module(v):
            if self.add_node(oid, "module", _module_label(v), "", 0):
                self.follow_module(v, oid, path, depth)
            return oid if oid in self.nodes else None
        if self.is_optimizer(v):
            if self.add_node(oid, "optimizer", _optimizer_label(v)):
                self.follow_optimizer(v, oid, path, depth)
            return oid if oid in self.nodes else None
        if isinstance(v, (list, tuple, dict)):
            kind = "list" if isinstance(v, list) else ("tuple" if isinstance(v, tuple) else "dict")
            if self.add_node(oid, kind, "{}[{}]".format(kind, len(v))) and depth < MAX_DEPTH:
                items = v.items() if isinstance(v, dict) else enumerate(v)
                for n, (k, x) in enumerate(items):
                    if n >= MAX_ITEMS:
                        break
                    if not self.interesting(x) and depth > 0:
                        continue
                    if isinstance(x, _SKIP_TYPES):
                        continue
                    key = "[{!r}]".format(k) if isinstance(v, dict) else "[{}]".format(k)
                    cid = self.visit(x, path + key, depth + 1)
                    self.add_edge(oid, cid, key)
            return oid if oid in self.nodes else None
        if isinstance(v, _PRIMITIVES) or _is_value_object(v):
            self.add_node(oid, "other", _short(repr(v), 40))
            return oid if oid in self.nodes else None
        # Any other object (DataLoader, Dataset, user classes): follow attributes that hold tensors etc.
        if self.add_node(oid, "other", _other_label(v)) and depth < MAX_DEPTH:
            attrs = getattr(v, "__dict__", None)
            if isinstance(attrs, dict):
                for n, (k, x) in enumerate(attrs.items()):
                    if n >= 4 * MAX_ITEMS:
                        break
                    if k.startswith("__") or not self.interesting(x):
                        continue
                    cid = self.visit(x, path + "." + k, depth + 1)
                    self.add_edge(oid, cid, k)
        return oid if oid in self.nodes else None

    def follow_module(self, m, oid, path, depth):
        d = m.__dict__
        for k, p in d.get("_parameters", {}).items():
            if p is not None:
                self.add_edge(oid, self.visit(p, path + "." + k, depth + 1, "parameter"), k)
        for k, b in d.get("_buffers", {}).items():
            if b is not None:
                self.buffer_ids.add(id(b))
                self.add_edge(oid, self.visit(b, path + "." + k, depth + 1, "buffer"), k)
        for k, c in d.get("_modules", {}).items():
            if c is not None:
                self.add_edge(oid, self.visit(c, path + "." + k, depth + 1), k)
        if depth >= MAX_DEPTH:
            return
        # Plain attributes that hold tensors, modules or containers of them: Module.to() skips these.
        for k, x in d.items():
            if k in _MODULE_REGISTRIES or k.startswith("__"):
                continue
            if self.interesting(x):
                self.add_edge(oid, self.visit(x, path + "." + k, depth + 1), k)

    def follow_optimizer(self, opt, oid, path, depth):
        index = {}
        for gi, group in enumerate(getattr(opt, "param_groups", [])):
            for pi, p in enumerate(group.get("params", [])):
                index.setdefault(id(p), len(index))
                label = "param_groups[{}]['params'][{}]".format(gi, pi)
                self.add_edge(oid, self.visit(p, path + "." + label, depth + 1, "parameter"), label)
        for p, st in getattr(opt, "state", {}).items():
            if not isinstance(st, dict):
                continue
            i = index.get(id(p), "?")
            for k, x in st.items():
                if self.is_tensor(x):
                    label = "state[{}][{!r}]".format(i, k)
                    self.add_edge(oid, self.visit(x, path + "." + label, depth + 1, "tensor"), label)

    # ------------------------------------------------------------------ module tree
    def module_rows(self, root, root_name):
        if id(root) in self.module_seen:
            return
        leaves = []  # (kind, tensor) of registered tensors under root, for the majority device
        for m in _walk_modules(root):
            for p in m._parameters.values():
                if p is not None:
                    leaves.append(p)
            for b in m._buffers.values():
                if b is not None:
                    leaves.append(b)
        majority = _majority([_device_str(t) for t in leaves])
        self._rows(root, root_name, 0, majority, set())

    def _rows(self, m, path, depth, root_majority, seen):
        if len(self.modules) >= MAX_MODULE_ROWS or id(m) in seen:
            return
        seen.add(id(m))
        self.module_seen.add(id(m))
        sub = [t for mm in _walk_modules(m) for t in
               list(mm._parameters.values()) + list(mm._buffers.values()) if t is not None]
        self.modules.append({"depth": depth, "path": path, "type": type(m).__name__, "kind": "module",
                             "device": _majority([_device_str(t) for t in sub]),
                             "dtype": _majority([_dtype_str(t) for t in sub]), "shape": [],
                             "straggler": False, "storage_id": 0})
        d = m.__dict__
        leaves = [("parameter", k, t) for k, t in d.get("_parameters", {}).items()]
        leaves += [("buffer", k, t) for k, t in d.get("_buffers", {}).items()]
        leaves += [("tensor", k, t) for k, t in d.items() if self.is_tensor(t) and not k.startswith("__")]
        for kind, k, t in leaves:
            if t is None:
                continue
            dev = _device_str(t)
            sid = storage_id(t)
            self.modules.append({"depth": depth + 1, "path": path + "." + k, "type": type(t).__name__,
                                 "kind": kind, "device": dev, "dtype": _dtype_str(t), "shape": _shape(t),
                                 "straggler": bool(root_majority) and dev != root_majority,
                                 "storage_id": sid})
            if kind == "tensor":
                _tag(t, "plain_attribute", path + "." + k)
            else:
                _name_owner(t, kind, path + "." + k)
        for k, c in d.get("_modules", {}).items():
            if c is not None:
                self._rows(c, path + "." + k, depth + 1, root_majority, seen)


def _walk_modules(root):
    seen, stack, out = set(), [root], []
    while stack:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        out.append(m)
        stack.extend(c for c in reversed(list(m.__dict__.get("_modules", {}).values())) if c is not None)
    return out


def _majority(values):
    counts = {}
    for v in values:
        if v:
            counts[v] = counts.get(v, 0) + 1
    if not counts:
        return ""
    return max(counts.items(), key=lambda kv: kv[1])[0]


def _is_pinned(t):
    try:
        return bool(t.is_pinned())
    except Exception:
        return False


def _is_value_object(v):
    torch = _torch()
    return torch is not None and isinstance(v, (getattr(torch, "device", ()), getattr(torch, "dtype", ())))


def _module_label(m):
    try:
        extra = m.extra_repr()
    except Exception:
        extra = ""
    extra = extra.split("\n")[0] if extra else ""
    return _short("{}({})".format(type(m).__name__, extra))


def _optimizer_label(opt):
    groups = getattr(opt, "param_groups", [])
    n = sum(len(g.get("params", [])) for g in groups)
    return "{} ({} params, {} with state)".format(type(opt).__name__, n, len(getattr(opt, "state", {})))


def _other_label(v):
    r = type(v).__repr__
    if r is object.__repr__:
        return type(v).__name__
    try:
        return _short(repr(v), 40)
    except Exception:
        return type(v).__name__


def _hooks():
    torch = _torch()
    return getattr(torch, "_devicescope_hooks", None) if torch is not None else None


def _tag(t, role, owner):
    h = _hooks()
    if h is None:
        return
    impl = getattr(t, "_impl", None)
    if impl is not None:
        try:
            if impl.storage_role == role and impl.storage_owner == owner:
                return
        except Exception:
            pass
    try:
        h.tag(t, role, owner)
    except Exception:
        pass


def _name_owner(t, role, owner):
    """Gives a parameter/buffer storage its qualified owner ("model.fc.weight") if it only has a short one."""
    impl = getattr(t, "_impl", None)
    if impl is None:
        return
    try:
        current = impl.storage_owner
    except Exception:
        return
    if current == owner or (current and "." in current):
        return
    _tag(t, role, owner)


def _user_names(globals_dict):
    for name, value in list(globals_dict.items()):
        if name.startswith("__") or isinstance(value, _SKIP_TYPES):
            continue
        yield name, value


def build_object_graph(globals_dict, previous=None):
    """{"nodes", "edges", "modules", "holders"} for the script's globals (see module comment)."""
    global _last_graph
    torch = _torch()
    if torch is None or not hasattr(torch, "Tensor"):
        return {"nodes": [], "edges": [], "modules": [], "holders": []}
    b = _Builder(torch)
    names = list(_user_names(globals_dict))
    # Registered buffers first, so a buffer reached through a plain name is still drawn as a buffer.
    for _, v in names:
        if b.is_module(v):
            for m in _walk_modules(v):
                for buf in m._buffers.values():
                    if buf is not None:
                        b.buffer_ids.add(id(buf))
    for name, v in names:
        nid = name_id(name)
        b.add_node(nid, "name", name)
        b.add_edge(nid, b.visit(v, name, 0), name)
    for name, v in names:
        if b.is_module(v):
            b.module_rows(v, name)
        elif isinstance(v, (list, tuple)):
            for i, x in enumerate(v[:MAX_ITEMS]):
                if b.is_module(x):
                    b.module_rows(x, "{}[{}]".format(name, i))
        elif isinstance(v, dict):
            for k, x in list(v.items())[:MAX_ITEMS]:
                if b.is_module(x):
                    b.module_rows(x, "{}[{!r}]".format(name, k))
    graph = {
        "nodes": [b.nodes[i] for i in b.order],
        "edges": b.edges,
        "modules": b.modules,
        "holders": [{"storage_id": sid, "names": names_} for sid, names_ in b.paths.items()],
        "truncated": b.truncated,
    }
    _mark_changed(graph, previous if previous is not None else _last_graph)
    _last_graph = graph
    return graph


def _mark_changed(graph, previous):
    """Highlights what differs from the previous graph: an edge (a name, an attribute, a buffer slot)
    now leading to another object, an object whose device or storage changed (a move), and the names
    and containers leading to such objects."""
    if not previous:
        return
    prev_nodes = {n["id"]: n for n in previous.get("nodes", [])}
    prev_edges = {(e["from"], e["label"]): e["to"] for e in previous.get("edges", [])}
    nodes = {n["id"]: n for n in graph["nodes"]}
    for n in graph["nodes"]:
        p = prev_nodes.get(n["id"])
        if p is not None and n["kind"] in ("parameter", "buffer", "tensor"):
            if p.get("device") != n["device"] or p.get("storage_id") != n["storage_id"]:
                n["changed"] = True
    children = {}
    for e in graph["edges"]:
        children.setdefault(e["from"], []).append(e["to"])
        before = prev_edges.get((e["from"], e["label"]))
        if before is not None and before != e["to"]:
            # Rebound: `model = other`, `self._buffers[k] = fn(buf)`, `x = x.to(...)`.
            tgt = nodes.get(e["to"])
            if tgt is not None:
                tgt["changed"] = True
            src = nodes.get(e["from"])
            if src is not None:
                src["changed"] = True

    memo = {}

    def subtree_changed(oid):
        if oid in memo:
            return memo[oid]
        memo[oid] = False  # cycles: an object reached again while it is being visited
        node = nodes.get(oid)
        if node is None:
            return False
        hit = node["changed"]
        for c in children.get(oid, []):
            if subtree_changed(c):
                hit = True
        if hit:
            node["changed"] = True
        memo[oid] = hit
        return hit

    for n in graph["nodes"]:
        if n["kind"] == "name":
            subtree_changed(n["id"])
