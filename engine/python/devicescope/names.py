# The names graph of the user's script: which global names refer to which objects (modules, tensors,
# containers, optimizers), the module tree with where each leaf lives, and what changed since last time.
# Output is plain dicts matching ds::ObjectGraph (engine/trace/snapshot.h, Note [Object graph contract]).
import gc
import types
import zlib

MAX_NODES = 50000        # whole graph; a 10k-parameter model fits
MAX_ITEMS = 64           # elements looked at per list / tuple / dict
MAX_SHOWN = 5            # a container with more entries worth a box shows FOLD_AFTER of them and one "+N more" box
FOLD_AFTER = 4
MAX_DEPTH = 8            # containers and plain objects nested deeper are not followed
MAX_MODULE_ROWS = 50000

_SKIP_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type,
               types.BuiltinMethodType, types.CodeType)
_PRIMITIVES = (int, float, bool, str, bytes, complex, type(None))

_MODULE_REGISTRIES = ("_parameters", "_buffers", "_modules")
# Attributes every Module gets in __init__ (registries, hook dicts, flags): never user state.
_MODULE_INTERNALS = frozenset((
    "training", "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_pre_hooks",
    "_backward_hooks", "_is_full_backward_hook", "_forward_hooks", "_forward_hooks_with_kwargs",
    "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
    "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks", "_modules"))

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
        self.found_modules = []  # (module, first path) in discovery order (parents before children)
        self.registered_sids = set()  # storages reached as a parameter, buffer or .grad
        self.plain_tensors = {}  # storage id -> a plain tensor reaching it (first found)
        self.tinfo = {}          # id(tensor) -> (device, dtype, shape, storage_id)
        self.dev_names = {}      # engine device key -> "cuda:0"
        self.dtype_names = {}    # engine dtype code -> "float32"

    def info(self, t):
        """(device, dtype, shape, storage_id) of a tensor, read once per build (from the engine impl
        when there is one: cheaper than the Python properties, which build Size/device objects)."""
        got = self.tinfo.get(id(t))
        if got is not None:
            return got
        impl = getattr(t, "_impl", None)
        if impl is not None:
            key = impl.device_key
            dev = self.dev_names.get(key)
            if dev is None:
                dev = self.dev_names[key] = _device_str(t)
            code = impl.dtype_code
            dt = self.dtype_names.get(code)
            if dt is None:
                dt = self.dtype_names[code] = _dtype_str(t)
            got = (dev, dt, list(impl.sizes), int(impl.storage_id))
        else:
            got = (_device_str(t), _dtype_str(t), _shape(t), storage_id(t))
        self.tinfo[id(t)] = got
        return got

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
            dev, dt, shape, sid = self.info(v)
            self.hold(sid, path)
            is_param = self.Parameter is not None and isinstance(v, self.Parameter)
            kind = "parameter" if is_param else (kind_hint or ("buffer" if oid in self.buffer_ids else "tensor"))
            if kind in ("parameter", "buffer") or path.endswith(".grad"):
                self.registered_sids.add(sid)
            else:
                self.plain_tensors.setdefault(sid, v)
            word = "Parameter" if is_param else "tensor"
            extra = " pinned" if dev == "cpu" and _is_pinned(v) else ""
            label = "{} {}{} {} {}".format(word, dev, extra, shape, dt)
            if self.add_node(oid, kind, label, dev, sid):
                grad = getattr(v, "_grad", None)  # a leaf's .grad (no non-leaf access warning)
                if grad is not None and depth < MAX_DEPTH:
                    gid = self.visit(grad, path + ".grad", depth + 1, "tensor")
                    self.add_edge(oid, gid, "grad")
            return oid if oid in self.nodes else None
        if self.is_module(v):
            if self.add_node(oid, "module", _module_label(v), "", 0):
                self.found_modules.append((v, path))
                self.follow_module(v, oid, path, depth)
            return oid if oid in self.nodes else None
        if self.is_optimizer(v):
            if self.add_node(oid, "optimizer", _optimizer_label(v)):
                self.follow_optimizer(v, oid, path, depth)
            return oid if oid in self.nodes else None
        if isinstance(v, (list, tuple, dict)):
            kind = "list" if isinstance(v, list) else ("tuple" if isinstance(v, tuple) else "dict")
            items = list(v.items() if isinstance(v, dict) else enumerate(v))[:MAX_ITEMS]
            # Only entries worth a box of their own (tensors, modules, containers of them) get one; plain
            # values (a transfer record's sixteen fields) stay in the container's label.
            shown = [(k, x) for k, x in items if self.interesting(x) and not isinstance(x, _SKIP_TYPES)]
            label = "{}[{}]".format(kind, len(v))
            if not shown and len(v):
                label += " " + _short(repr(v), 26)
            if self.add_node(oid, kind, label) and depth < MAX_DEPTH:
                folded = shown[FOLD_AFTER:] if len(shown) > MAX_SHOWN else []
                for k, x in shown[:len(shown) - len(folded)]:
                    key = "[{!r}]".format(k) if isinstance(v, dict) else "[{}]".format(k)
                    cid = self.visit(x, path + key, depth + 1)
                    self.add_edge(oid, cid, key)
                if folded:
                    self.fold(oid, path, kind, folded, len(v) - len(items))
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

    def fold(self, oid, path, kind, folded, unseen):
        """One "+N more" box for a container's entries past the first few (its tensors still count as
        held by their paths, so the memory panes name every holder)."""
        types_ = {}
        for k, x in folded:
            key = "[{!r}]".format(k) if kind == "dict" else "[{}]".format(k)
            if self.is_tensor(x):
                self.note_tensor(x, path + key)
            name = "Parameter" if self.Parameter is not None and isinstance(x, self.Parameter) else type(x).__name__
            types_[name] = types_.get(name, 0) + 1
        text = ", ".join("{} x{}".format(t, c) for t, c in types_.items())
        if unseen:
            text += ", +{} not looked at".format(unseen)
        first = folded[0][0]
        fid = name_id(path + ".[...]")
        self.add_node(fid, "other", _short("+{} more: {}".format(len(folded) + unseen, text)))
        self.add_edge(oid, fid, "[{!r}...]".format(first) if kind == "dict" else "[{}:]".format(first))

    def note_tensor(self, t, path):
        """Records a tensor that gets no box of its own (folded away) as held by `path`."""
        sid = self.info(t)[3]
        self.hold(sid, path)
        if not (self.Parameter is not None and isinstance(t, self.Parameter)) and id(t) not in self.buffer_ids:
            self.plain_tensors.setdefault(sid, t)
        else:
            self.registered_sids.add(sid)

    def follow_module(self, m, oid, path, depth):
        d = m.__dict__
        for k, p in d.get("_parameters", {}).items():
            if p is not None:
                self.add_edge(oid, self.visit(p, path + "." + k, depth + 1, "parameter"), k)
        for k, b in d.get("_buffers", {}).items():
            if b is not None:
                self.buffer_ids.add(id(b))
                self.add_edge(oid, self.visit(b, path + "." + k, depth + 1, "buffer"), k)
        children = d.get("_modules", {})
        for n, (k, c) in enumerate(children.items()):
            if n >= MAX_ITEMS:
                # A graph of thousands of layers helps nobody: fold the rest into one node (the
                # module tree rows still list every layer).
                rest = list(children.values())[n:]
                kinds = {}
                for x in rest:
                    if x is not None:
                        kinds[type(x).__name__] = kinds.get(type(x).__name__, 0) + 1
                fid = name_id(path + ".[...]")
                text = ", ".join("{} x{}".format(t, c_) for t, c_ in kinds.items())
                self.add_node(fid, "other", _short("+{} more: {}".format(len(rest), text)))
                self.add_edge(oid, fid, "[{}:]".format(k))
                break
            if c is not None:
                self.add_edge(oid, self.visit(c, path + "." + k, depth + 1), k)
        if depth >= MAX_DEPTH:
            return
        # Plain attributes that hold tensors, modules or containers of them: Module.to() skips these.
        for k, x in d.items():
            if k in _MODULE_INTERNALS or isinstance(x, _PRIMITIVES) or k.startswith("__"):
                continue
            if self.interesting(x):
                self.add_edge(oid, self.visit(x, path + "." + k, depth + 1), k)

    def follow_optimizer(self, opt, oid, path, depth):
        index = {}
        shown = 0
        groups = getattr(opt, "param_groups", [])
        for gi, group in enumerate(groups):
            for pi, p in enumerate(group.get("params", [])):
                index.setdefault(id(p), len(index))
                if shown >= MAX_ITEMS:
                    continue
                shown += 1
                label = "param_groups[{}]['params'][{}]".format(gi, pi)
                # The graph's row says just "params[1]" (a box as wide as the full path would crowd
                # out the rest); the holder path keeps it whole.
                row = "params[{}]".format(pi) if len(groups) == 1 else "group {} params[{}]".format(gi, pi)
                self.add_edge(oid, self.visit(p, path + "." + label, depth + 1, "parameter"), row)
        shown = 0
        for p, st in getattr(opt, "state", {}).items():
            if not isinstance(st, dict):
                continue
            shown += 1
            if shown > MAX_ITEMS:
                break
            i = index.get(id(p), "?")
            for k, x in st.items():
                if self.is_tensor(x):
                    label = "state[{}][{!r}]".format(i, k)
                    self.add_edge(oid, self.visit(x, path + "." + label, depth + 1, "tensor"), label)

    # ------------------------------------------------------------------ module tree
    def module_rows(self, root, root_name):
        """Depth-first rows for one top-level module; leaves off the root's majority device are
        stragglers (a plain tensor attribute left on the CPU, a half-moved model)."""
        if id(root) in self.module_seen:
            return
        first = len(self.modules)
        self._rows(root, root_name, 0, set())
        rows = self.modules[first:]
        counts = {}
        for r in rows:
            if r["kind"] in ("parameter", "buffer") and r["device"]:
                counts[r["device"]] = counts.get(r["device"], 0) + 1
        if counts:
            majority = max(counts.items(), key=lambda kv: kv[1])[0]
            for r in rows:
                if r["kind"] != "module" and r["device"] != majority:
                    r["straggler"] = True

    def _rows(self, m, path, depth, seen):
        """Appends the rows of m's subtree; returns its registered leaves' (devices, dtypes) counts."""
        devs, dts = {}, {}
        if len(self.modules) >= MAX_MODULE_ROWS or id(m) in seen:
            return devs, dts
        seen.add(id(m))
        self.module_seen.add(id(m))
        row = {"depth": depth, "path": path, "type": type(m).__name__, "kind": "module", "device": "",
               "dtype": "", "shape": [], "straggler": False, "storage_id": 0}
        self.modules.append(row)
        d = m.__dict__
        leaves = [("parameter", k, t) for k, t in d.get("_parameters", {}).items() if t is not None]
        leaves += [("buffer", k, t) for k, t in d.get("_buffers", {}).items() if t is not None]
        leaves += [("tensor", k, t) for k, t in d.items()
                   if k not in _MODULE_INTERNALS and self.is_tensor(t) and not k.startswith("__")]
        for kind, k, t in leaves:
            dev, dt, shape, sid = self.info(t)
            leaf_path = path + "." + k
            self.modules.append({"depth": depth + 1, "path": leaf_path, "type": type(t).__name__,
                                 "kind": kind, "device": dev, "dtype": dt, "shape": shape,
                                 "straggler": False, "storage_id": sid})
            if kind == "tensor":
                _tag(t, "plain_attribute", leaf_path)
            else:
                devs[dev] = devs.get(dev, 0) + 1
                dts[dt] = dts.get(dt, 0) + 1
                _name_owner(t, kind, leaf_path)
        for k, c in d.get("_modules", {}).items():
            if c is not None:
                cd, ct = self._rows(c, path + "." + k, depth + 1, seen)
                for key, n in cd.items():
                    devs[key] = devs.get(key, 0) + n
                for key, n in ct.items():
                    dts[key] = dts.get(key, 0) + n
        row["device"] = max(devs.items(), key=lambda kv: kv[1])[0] if devs else ""
        row["dtype"] = max(dts.items(), key=lambda kv: kv[1])[0] if dts else ""
        return devs, dts


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
    # The build allocates tens of thousands of small dicts while the user's whole heap is alive;
    # collector passes over that heap would cost more than the build itself.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _build(globals_dict, previous)
    finally:
        if enabled:
            gc.enable()


def _build(globals_dict, previous):
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
    # Module tree: every module reached from a name (directly, in a container, inside another
    # object) that is not part of a tree already listed; parents come first, so each tree once.
    for m, path in b.found_modules:
        b.module_rows(m, path)
    _retag_left_behind(b)
    graph = {
        "nodes": [b.nodes[i] for i in b.order],
        "edges": b.edges,
        "modules": b.modules,
        "holders": [{"storage_id": sid, "names": names_} for sid, names_ in b.paths.items()],
        "truncated": b.truncated,
    }
    if previous is None and _last_graph is not None and _last_graph[0] == id(globals_dict):
        previous = _last_graph[1]   # same run (same globals dict): highlight what the step changed
    _mark_changed(graph, previous)
    _last_graph = (id(globals_dict), graph)
    return graph


def _retag_left_behind(b):
    """A parameter's or buffer's old storage that only plain names still hold (`wd = model.fc.weight.data`
    or `saved = [model.bn.running_mean]`, then `model.to("cuda")`) is no longer the parameter: it is a
    plain tensor of those names (the module's parameter now lives in the new storage)."""
    for sid, t in b.plain_tensors.items():
        if sid in b.registered_sids:
            continue
        impl = getattr(t, "_impl", None)
        try:
            role = impl.storage_role if impl is not None else ""
        except Exception:
            continue
        if role in ("parameter", "buffer"):
            _tag(t, "tensor", b.paths.get(sid, [""])[0])


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
