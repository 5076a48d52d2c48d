"""The recorder: watches a real PyTorch program's storages and copies through public torch APIs.

- Every aten op's outputs (a TorchDispatchMode, below autograd, so backward and optimizer ops are seen
  too) register their storage: a new storage is an "alloc" at its place (cuda:N, pinned, pageable).
- A storage's death is read from a weak reference to its c10 StorageImpl (`_weak_ref` / `_expired`,
  what torch.multiprocessing uses): swept every few ops and at step boundaries, and at once when the
  allocator hands its address to a new storage. Python tensor objects are not enough: autograd saves
  outputs in its own TensorImpls, so a storage outlives every Python tensor that showed it.
- Names come from the modules and optimizers: global forward hooks give the module stack (activations
  are named after the innermost module running), named_parameters / named_buffers / .grad / optimizer
  state give parameters, buffers, gradients and optimizer state, the script's globals give the roots'
  names ("model"). A label is kept as parts and joined when the file is written, so a root named later
  (`model = Net().to("cuda")`) still names the storages it freed on the way.
- Copies are the ops that move or convert data (_to_copy, copy_, clone, _pin_memory, and a CUDA
  .item()): route, bytes, non_blocking, CUDA event timing on a GPU, perf_counter on a CPU, and the
  user's file:line.

What each approach misses (public APIs of torch 1.13+ only):
- The dispatch mode is thread-local: ops on the user's own threads (a DataLoader's pin_memory thread) are not
  seen; their storages appear when the main thread first uses them (a copy's source, a name pass). Autograd's
  worker threads inherit the mode (ThreadLocalState). Storages made without an aten op (torch.load, from_numpy,
  shared memory from DataLoader workers, NCCL buffers) are the same: seen at first use, never before.
- A free is reported when it is noticed: at once when the storage's first tensor dies or its address is reused,
  else at the next sweep (at most a quarter of the live storages' count of ops later; each forward, backward and
  step ends with one). Peaks can be a little high when a storage outlives its first tensor (autograd saved it).
- Sizes are the storages' bytes, not the caching allocator's blocks (rounding, fragmentation, the cache): on a
  GPU the allocator's own history has those (FILE.pickle; allocator.py merges the blocks no storage claims);
  "reserved" is torch.cuda.memory_reserved().
- Optimizer steps after an optimizer's first (install.py) and zero_grad run without the dispatch mode: they
  update storages in place, and their temporaries (Adam's denominators, foreach lists) are seen in the first
  step only, or on a GPU as allocator-only blocks. DEVICESCOPE_RECORD_STEPS=all records every step.
- Names: activations are named after the innermost module whose forward made them (not the op's output name);
  storages made by functional code outside modules carry the user's file:line and op; roots are named after the
  script's global variables (a model only reachable through an object, e.g. trainer.model, keeps its class name).
- Copies: only those made through aten ops (_to_copy, copy_, clone, _pin_memory, CUDA .item()); copies inside
  other kernels (index_put_ on mixed devices, NCCL) are not. Without a GPU a copy's time is its wall clock.
"""
import os
import sys
import time
import weakref

import torch

from .names import Naming


_storage_of = torch.Tensor.untyped_storage if hasattr(torch.Tensor, "untyped_storage") else torch.Tensor._storage
_StorageClass = torch.UntypedStorage if hasattr(torch, "UntypedStorage") else torch._UntypedStorage
_expired = _StorageClass._expired
_free_weak_ref = _StorageClass._free_weak_ref

_aten = torch.ops.aten
# op -> (index of the source argument, index of the destination argument or None for the output)
_COPY_OPS = {_aten._to_copy.default: (0, None), _aten.clone.default: (0, None),
             _aten.copy_.default: (1, 0), _aten._pin_memory.default: (0, None)}
_SCALAR_READ = _aten._local_scalar_dense.default  # .item() of a CUDA tensor: a device-to-host copy
# In-place ops that can give their tensor another storage or new memory: looked at like any other op.
_MAY_MOVE_SELF = {_aten.resize_, _aten.resize_as_, _aten.set_}  # packets: every overload

# The profiler's record_function handle (1.13 wraps every optimizer step and zero_grad in one): a tiny
# tensor that is bookkeeping, not the program's memory.
_IGNORED = {getattr(torch.ops.profiler, name).default for name in
            ("_record_function_enter", "_record_function_enter_new") if hasattr(torch.ops.profiler, name)}

# What on_op does with an op, decided once per op from its schema.
_PASS, _NEW, _NEW_SELF, _COPY, _SCALAR = "pass", "new", "new-self", "copy", "scalar"


def op_kind(func, cuda):
    """_PASS for ops that make no storage: views (every result aliases an input, read-only: t, view, detach,
    split), in-place updates (add_, zero_; not resize_ / set_, which can give a tensor new memory), the
    profiler's handles and a CPU .item(); _COPY and _SCALAR for copies; _NEW for the rest (out= variants too:
    they may resize their output)."""
    if func in _COPY_OPS:
        return _COPY
    if func is _SCALAR_READ:
        return _SCALAR if cuda else _PASS  # a CUDA tensor's .item() is a device-to-host copy
    if func in _IGNORED:
        return _PASS
    if func.overloadpacket in _MAY_MOVE_SELF:
        return _NEW_SELF
    try:
        returns = func._schema.returns
    except AttributeError:
        return _NEW
    if returns and all(r.alias_info is not None for r in returns):
        if not any(r.alias_info.is_write for r in returns):
            return _PASS  # a view
        if func.__name__.split(".")[0].endswith("_"):
            return _PASS  # in place
    return _NEW


_DisableDispatch = torch._C._DisableTorchDispatch  # a guard: while it lives, no dispatch mode sees an op


def quiet(method):
    """The recorder's own torch calls in hooks (is_pinned, storages) are not the program's ops."""
    def run(*args, **kwargs):
        guard = _DisableDispatch()
        try:
            return method(*args, **kwargs)
        finally:
            del guard
    return run


_TORCH_DIR = os.path.dirname(torch.__file__)
_HERE = os.path.dirname(os.path.abspath(__file__))


class Storage:
    """One storage seen alive: its weak handle, place, size and the best name known for it."""
    __slots__ = ("id", "key", "cdata", "handle", "bytes", "place", "label", "role", "is_output", "watch", "freed")

    def __init__(self, sid, key, cdata, handle, nbytes, place, label, role):
        self.id, self.key, self.cdata, self.handle, self.bytes, self.place = sid, key, cdata, handle, nbytes, place
        self.label, self.role, self.is_output, self.watch, self.freed = label, role, False, None, False


def _tensors(value):
    if isinstance(value, torch.Tensor):
        return (value,)
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            if isinstance(v, torch.Tensor):
                out.append(v)
            elif isinstance(v, (tuple, list)):
                out.extend(x for x in v if isinstance(x, torch.Tensor))
        return out
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, torch.Tensor)]
    return ()


def _short(func):
    name = func.__name__  # "addmm.default"
    return name[:-8] if name.endswith(".default") else name


class Recorder(Naming):
    def __init__(self, script_globals):
        self.globals = script_globals
        self.t0 = time.perf_counter_ns()
        self.epoch0_ns = time.time_ns()  # the same instant in Unix time: the allocator's trace clock
        self.events = []       # rows; the label column holds a Storage or label parts until written
        self.transfers = []
        self.live = {}         # (device type, index, data_ptr) -> Storage
        self.maybe_dead = []   # storages whose first tensor died since the last op
        self.by_cdata = {}     # StorageImpl address -> the live Storage (unique while we hold its weak handle)
        self.place_bytes = {}  # place -> live bytes
        self.next_storage = 1
        self.ops_since_sweep = 0
        self.sweep_every = 64
        self.module_stack = []
        self.backward_depth = 0
        self.modules = {}      # id(module) -> (weakref, root id, path inside the root)
        self.roots = {}        # id(root) -> weakref
        self.names = {}        # id(root or optimizer) -> name (global variable, else the class name)
        self.optimizers = []   # weakrefs
        self.code_is_internal = {}
        self.pending_cuda = []  # (transfer, start event, end event, device)
        self.cuda_base = {}     # device -> (event, host ns)
        self.streams = {}
        self.roles = {}         # storage id -> role, written beside the events
        self.freed_labels = {}  # storage id -> label parts of a freed storage
        self.final_labels = {}  # storage id -> label parts, every storage (finish)
        self.cuda_ptrs = {}     # storage id -> data_ptr of CUDA storages
        self.labeled = {}       # id(tensor) -> (weakref, Storage, data_ptr): what the name passes saw (seen())
        self.members = {}       # root id -> [(weakref, parts, grad parts or None for a buffer)] (name_modules)
        self.passes = 0
        self.param_parts = {}   # id(parameter) -> (weakref, label parts), from the last name_modules
        self.rel_paths = {}     # a code file -> how it is shown (relative to the working folder when inside it)
        self.cuda = torch.cuda.is_available()
        self.on_optimizer = None  # called with each optimizer first seen (install.py ends its steps)
        self.ensure_mode = lambda: None  # puts the dispatch mode back after a program's own mode left (modes.py)
        self.op_kinds = {}

    # ---- clock, places, frames -------------------------------------------------------------------
    def now(self):
        return time.perf_counter_ns() - self.t0

    def place_of(self, t):
        if t.is_cuda:
            index = t.device.index
            return "cuda:%d" % (index if index is not None else torch.cuda.current_device())
        try:
            return "pinned" if t.is_pinned() else "pageable"
        except RuntimeError:  # a CPU-only build asked about pinned memory
            return "pageable"

    def user_line(self):
        """file:line of the innermost frame outside torch and the recorder."""
        f = sys._getframe(2)
        while f is not None:
            code = f.f_code
            internal = self.code_is_internal.get(code)
            if internal is None:
                fn = code.co_filename
                internal = fn.startswith(_TORCH_DIR) or fn.startswith(_HERE) or fn.startswith("<frozen")
                self.code_is_internal[code] = internal
            if not internal:
                fn = self.rel_paths.get(code.co_filename)
                if fn is None:
                    fn = code.co_filename
                    try:
                        rel = os.path.relpath(fn)
                        fn = rel if not rel.startswith("..") else fn
                    except ValueError:
                        pass
                    self.rel_paths[code.co_filename] = fn
                return "%s:%d" % (fn, f.f_lineno)
            f = f.f_back
        return "?"

    # ---- allocations and frees ----------------------------------------------------------------
    def see(self, t, op, pinned=True):
        """The Storage of tensor t, registering it (an alloc) the first time it is seen. pinned=False: t cannot
        be page-locked (an op's new result without pin_memory=True), so is_pinned() is not asked."""
        if t.is_cuda:
            device, index = "cuda", t.device.index
        elif t.is_cpu:
            device, index = "cpu", None
        else:
            return None
        try:
            s = _storage_of(t)
        except (RuntimeError, NotImplementedError):  # sparse and other storage-less layouts
            return None
        ptr = s.data_ptr()
        key = (device, index, ptr)
        rec = self.live.get(key)
        cdata = s._cdata
        if rec is not None:
            if rec.cdata == cdata:
                return rec  # our weak handle keeps the StorageImpl's memory, so the same address is the same storage
            self.free(rec)  # the allocator gave its memory to a new storage: the old one is gone
        nbytes = s.nbytes()
        if nbytes == 0 or ptr == 0:
            return None
        resized = self.by_cdata.get(cdata)
        if resized is not None:  # resize_ / an out= op gave the same storage new memory: the old memory went
            self.free(resized)
        if self.backward_depth:
            label, role = ("autograd [", op, "]"), "other"
        elif self.module_stack:
            label, role = self.module_parts(self.module_stack[-1]) + [" [", op, "]"], "activation"
        else:
            label, role = (self.user_line(), " [", op, "]"), "other"
        place = self.place_of(t) if pinned or device == "cuda" else "pageable"
        rec = Storage(self.next_storage, key, cdata, s._weak_ref(), nbytes, place, label, role)
        # The Python tensor's death is the moment to look (most storages die with their first tensor);
        # the callback only queues: it can run in the middle of the recorder's own bookkeeping.
        rec.watch = weakref.ref(t, lambda _, rec=rec, queue=self.maybe_dead: queue.append(rec))
        self.next_storage += 1
        self.live[key] = rec
        self.by_cdata[cdata] = rec
        place_bytes = self.place_bytes
        place_bytes[rec.place] = place_bytes.get(rec.place, 0) + nbytes
        if rec.place[0] == "c":
            self.cuda_ptrs[rec.id] = ptr  # the allocator's block address (allocator.merge)
        self.event("alloc", rec.place, rec.id, nbytes, 0, rec.id)
        return rec

    def free(self, rec):
        del self.live[rec.key]
        del self.by_cdata[rec.cdata]
        rec.freed, rec.watch = True, None
        _free_weak_ref(rec.handle)
        self.place_bytes[rec.place] -= rec.bytes
        self.event("free", rec.place, rec.id, rec.bytes, 0, rec.id)
        self.roles[rec.id] = rec.role
        label = rec.label  # kept as parts: a root named later still names it; a tuple the GC can leave alone
        self.freed_labels[rec.id] = tuple(label) if type(label) is list else label

    def event(self, kind, place, storage_id, nbytes, transfer_id, label):
        allocated = self.place_bytes.get(place, 0)
        # Host memory has no cache in between; a device's reserved bytes are its caching allocator's.
        reserved = allocated if place[0] != "c" else max(torch.cuda.memory_reserved(int(place[5:])), allocated)
        events = self.events
        events.append((len(events) + 1, kind, time.perf_counter_ns() - self.t0, place, storage_id, nbytes,
                       transfer_id, label, allocated, reserved))

    def check_maybe_dead(self):
        queue = self.maybe_dead  # the callbacks hold this list: emptied in place, pop by pop
        while queue:
            rec = queue.pop()
            if not rec.freed and _expired(rec.handle):
                self.free(rec)

    def sweep(self):
        self.ops_since_sweep = 0
        self.check_maybe_dead()
        dead = [rec for rec in self.live.values() if _expired(rec.handle)]
        for rec in dead:
            self.free(rec)
        # Frees are seen late by up to sweep_every ops: a quarter of the live storages keeps the sweeps'
        # cost per op constant (about 4 weak-handle checks) whatever the program's size.
        self.sweep_every = max(64, len(self.live) // 4)
        if len(self.labeled) > 2 * len(self.live) + 256:  # tensors the name passes met that have died since
            self.labeled = {k: v for k, v in self.labeled.items() if v[0]() is not None and not v[1].freed}

    # ---- copies --------------------------------------------------------------------------------
    def copy(self, func, args, kwargs):
        src_i, dst_i = _COPY_OPS[func]
        src = args[src_i] if len(args) > src_i else kwargs.get("src")
        non_blocking = bool(kwargs.get("non_blocking", args[2] if func is _aten.copy_.default and len(args) > 2 else False))
        src_rec = self.see(src, "copy source")
        src_place = src_rec.place if src_rec else self.place_of(src)
        dst_device = kwargs.get("device")
        on_gpu = self.cuda and (src.device.type == "cuda" or (dst_i is not None and args[dst_i].device.type == "cuda")
                                or (dst_device is not None and torch.device(dst_device).type == "cuda"))
        line = self.user_line()
        enqueue = self.now()
        if on_gpu:
            gpu = src.device if src.device.type == "cuda" else torch.device(dst_device) if dst_device is not None else args[dst_i].device
            if gpu.index is None:
                gpu = torch.device("cuda", torch.cuda.current_device())
            self.cuda_base_for(gpu)  # before the copy: its one synchronize must not wait for this copy
            stream = torch.cuda.current_stream(gpu)
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record(stream)
            out = func(*args, **kwargs)
            end.record(stream)
        else:
            out = func(*args, **kwargs)
        finish = self.now()
        dst = args[dst_i] if dst_i is not None else out
        dst_rec = self.see(dst, _short(func))
        if src_rec is not None and dst_rec is not None and src_rec is not dst_rec:
            nbytes = dst.numel() * dst.element_size()
            self.transfer(src_rec.id, src_place, dst_rec.id, dst_rec.place, nbytes, non_blocking, line, src_rec,
                          enqueue, finish, (gpu, stream, begin, end) if on_gpu else None)
        return out

    def scalar_read(self, func, args, kwargs):
        t = args[0]
        rec = self.see(t, "item")
        line, enqueue = self.user_line(), self.now()
        out = func(*args, **kwargs)
        if rec is not None:
            self.transfer(rec.id, rec.place, 0, "pageable", t.element_size(), False, line, rec, enqueue, self.now(), None)
        return out

    def transfer(self, src_id, src_place, dst_id, dst_place, nbytes, non_blocking, line, owner, enqueue, finish, gpu):
        owner = owner.id  # named as the source storage ends up named
        host = lambda p: not p.startswith("cuda:")
        if host(src_place) != host(dst_place):
            route = "staged-pinned" if "pageable" in (src_place, dst_place) else "direct"
        elif not host(src_place) and src_place != dst_place:
            route = "peer"
        else:
            route = "direct"
        device = int((dst_place if not host(dst_place) else src_place if not host(src_place) else "cuda:0")[5:])
        t = {"id": len(self.transfers) + 1, "src": src_place, "dst": dst_place, "bytes": nbytes, "route": route,
             "non_blocking": non_blocking, "async": bool(non_blocking and route == "direct" and host(src_place) != host(dst_place)),
             "stream_device": device, "stream": 0, "enqueue_ns": enqueue, "start_ns": enqueue, "end_ns": finish,
             "measured_ns": finish - enqueue, "src_storage": src_id, "dst_storage": dst_id, "owner": owner,
             "line": line}
        if gpu is not None:
            gpu_device, stream, begin, end = gpu
            t["stream"] = self.stream_number(gpu_device, stream)
            self.pending_cuda.append((t, begin, end, gpu_device))
        self.transfers.append(t)
        self.event("copy", dst_place, dst_id, nbytes, t["id"], owner)

    def stream_number(self, device, stream):
        if stream == torch.cuda.default_stream(device):
            return 0
        return self.streams.setdefault(stream.cuda_stream, len(self.streams) + 1)

    def cuda_base_for(self, device):
        """An event and the host time it completed at: the origin GPU event times are measured from."""
        if device.index not in self.cuda_base:
            torch.cuda.synchronize(device)
            base = torch.cuda.Event(enable_timing=True)
            base.record(torch.cuda.current_stream(device))
            base.synchronize()
            self.cuda_base[device.index] = (base, self.now())

    def resolve_cuda_times(self):
        if not self.pending_cuda:
            return
        torch.cuda.synchronize()
        for t, begin, end, device in self.pending_cuda:
            base, host_ns = self.cuda_base[device.index]
            start = host_ns + int(base.elapsed_time(begin) * 1e6)
            t["start_ns"] = max(start, 0)
            t["end_ns"] = max(host_ns + int(base.elapsed_time(end) * 1e6), t["start_ns"])
            t["measured_ns"] = t["end_ns"] - t["start_ns"]
        self.pending_cuda = []

    # ---- the op stream -------------------------------------------------------------------------
    def on_op(self, func, args, kwargs):
        # Keyed by id: OpOverload's __hash__ is Python code, a cost on every op. The entry holds the op itself
        # (ops are never freed, the `is` check only guards against an id reused by something else).
        entry = self.op_kinds.get(id(func))
        if entry is None or entry[0] is not func:
            short = func.__name__
            entry = self.op_kinds[id(func)] = (func, op_kind(func, self.cuda), short[:-8] if short.endswith(".default") else short)
        kind = entry[1]
        if kind is _PASS:
            return func(*args, **kwargs)
        self.ops_since_sweep += 1
        if self.maybe_dead:
            self.check_maybe_dead()
        if self.ops_since_sweep >= self.sweep_every:
            self.sweep()
        if kind is _COPY:
            return self.copy(func, args, kwargs)
        if kind is _SCALAR:
            return self.scalar_read(func, args, kwargs)
        out = func(*args, **kwargs)
        if kind is _NEW_SELF:
            pass  # resize_ / set_: the same tensor may hold new memory
        elif args and out is args[0]:
            return out  # returns its input: its storage was seen when it was made
        pinned = "pin_memory" in kwargs and bool(kwargs["pin_memory"])  # a factory's empty(..., pin_memory=True)
        if type(out) is torch.Tensor or isinstance(out, torch.Tensor):
            self.see(out, entry[2], pinned)
        else:
            for t in _tensors(out):
                self.see(t, entry[2], pinned)
        return out

    # ---- hooks into torch ----------------------------------------------------------------------
    # The forward hooks run for every module call: no guard (they call no torch op) except around a name pass.
    def forward_pre_hook(self, module, inputs):
        if not self.module_stack and not self.backward_depth:
            self.ensure_mode()
            entry = self.modules.get(id(module))
            if entry is None or entry[0]() is not module:  # an outermost call of a module no root holds yet
                self.new_root(module)
        self.module_stack.append(module)

    @quiet
    def new_root(self, module):
        self.register_root(module)
        self.name_pass()

    def forward_hook(self, module, inputs, output):
        if not self.backward_depth:
            parts = None
            for t in _tensors(output):
                rec = self.live.get((t.device.type, t.device.index, _storage_of(t).data_ptr()))
                if rec is not None and rec.role == "activation" and not rec.is_output:
                    parts = parts or self.module_parts(module) + [" [output]"]
                    rec.label, rec.is_output = parts, True
        # Pop down to this module: a forward that raised leaves its inner modules on the stack.
        while self.module_stack:
            if self.module_stack.pop() is module:
                break
        if not self.module_stack:
            self.sweep()

    def around_backward(self, original):
        def backward(*args, **kwargs):
            self.backward_depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                self.backward_depth -= 1
                if not self.backward_depth:
                    self.after_backward()
        return backward

    @quiet
    def after_backward(self):
        self.name_pass(optimizers=False)  # the gradients, before zero_grad(set_to_none=True) drops them
        self.sweep()

    def passthrough(self):
        """In a forked child: every op runs as if unrecorded (this copy of the recording is not written); the
        module hooks are removed by install.py."""
        self.on_op = lambda func, args, kwargs: func(*args, **kwargs)
        self.after_step = lambda: None
        self.name_pass = lambda *args, **kwargs: None
        self.sweep = lambda: None

    @quiet
    def after_step(self):
        self.ensure_mode()
        self.name_pass(modules=False)  # the optimizer state the step created
        self.sweep()


def finish(recorder, path, meta, snapshot=None):
    """Writes what was recorded (the recorder must be uninstalled: writing runs torch code too). snapshot: the
    CUDA allocator's (allocator.take, own frames stripped), whose blocks no storage claims are merged in."""
    from . import allocator, trace_writer
    r = recorder
    r.name_pass()
    r.sweep()
    r.resolve_cuda_times()
    r.final_labels = dict(r.freed_labels)
    r.final_labels.update((rec.id, rec.label) for rec in r.live.values())
    events = []
    for e in r.events:
        row = list(e)
        label = row[7]
        row[7] = r.resolve(label) if not isinstance(label, str) else label
        events.append(row)
    lines = {}
    for t in r.transfers:
        owner = r.resolve(t["owner"]) if t["owner"] is not None else ""
        lines[t["id"]] = t.pop("line")
        t["owner"] = "%s @ %s" % (owner, lines[t["id"]]) if owner else lines[t["id"]]
    roles = dict(r.roles)
    for rec in r.live.values():
        roles[rec.id] = rec.role
    extra = {"recorder": "devicescope_recorder 1", "torch": torch.__version__, "live_at_end": len(r.live)}
    if snapshot is not None:
        events, added_roles, summary = allocator.merge(events, snapshot, r.epoch0_ns, r.cuda_ptrs,
                                                       r.next_storage, _TORCH_DIR)
        roles.update(added_roles)
        extra["allocator"] = summary
    extra["storage_roles"] = {str(k): v for k, v in sorted(roles.items())}
    extra["transfer_lines"] = {str(k): v for k, v in lines.items()}
    trace_writer.write(path, meta, events, r.transfers, extra)
