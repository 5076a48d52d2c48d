# What torch.profiler records, and how: while a profile is recording, the public op entry points (torch.*,
# torch.nn.functional.*, Tensor methods and operators) are wrapped to time each call on the host clock and note
# the engine's event/transfer counters around it; nothing is wrapped (or costs anything) outside a profile.
# Allocations, frees and copies come from DeviceScope's own event log afterwards (torch.profiler's memory
# columns and CUDA rows), so the table shows what the runtime really did.
import functools
import time

import _devicescope_C as _E

_state = {"active": None}  # the Recording being filled, or None
_installed = []

_TENSOR_OPERATORS = {"__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__rsub__": "rsub",
                     "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
                     "__truediv__": "div", "__rtruediv__": "div", "__itruediv__": "div_", "__matmul__": "matmul",
                     "__rmatmul__": "matmul", "__pow__": "pow", "__neg__": "neg", "__getitem__": "index",
                     "__setitem__": "index_put_", "__lt__": "lt", "__gt__": "gt", "__le__": "le", "__ge__": "ge",
                     "__eq__": "eq", "__ne__": "ne", "__and__": "bitwise_and", "__or__": "bitwise_or",
                     "__invert__": "bitwise_not", "__abs__": "abs"}
# Cheap accessors PyTorch does not record as ops (or that the profiler itself uses).
_NOT_OPS = {"size", "dim", "numel", "stride", "data_ptr", "element_size", "storage_offset", "nelement",
            "ndimension", "get_device", "type", "tolist", "untyped_storage", "register_hook", "retain_grad",
            "backward", "new_tensor", "new_empty", "new_zeros", "new_ones", "new_full", "numpy", "dim_order",
            "is_contiguous", "is_floating_point", "is_complex", "is_pinned", "is_shared", "is_set_to", "apply_",
            "map_", "storage", "requires_grad_", "has_names"}
_NOT_TORCH_OPS = {"save", "load", "manual_seed", "seed", "initial_seed", "typename", "compile", "broadcast_shapes",
                  "promote_types", "result_type", "can_cast", "set_printoptions", "get_printoptions",
                  "use_deterministic_algorithms", "are_deterministic_algorithms_enabled", "get_rng_state",
                  "set_rng_state", "numel"}
_RENAMED = {"cross_entropy": "cross_entropy_loss", "cuda": "to", "cpu": "to", "float": "to", "double": "to",
            "half": "to", "bfloat16": "to", "long": "to", "int": "to", "bool": "to"}


class OpRecord:
    __slots__ = ("name", "start_ns", "end_ns", "shapes", "parent", "children", "seq0", "seq1", "xfer0", "xfer1",
                 "annotation")

    def __init__(self, name, shapes, parent, annotation=False):
        self.name, self.shapes, self.parent, self.annotation = name, shapes, parent, annotation
        self.children = []
        self.start_ns = self.end_ns = 0
        self.seq0 = self.seq1 = self.xfer0 = self.xfer1 = 0


class Recording:
    def __init__(self, record_shapes):
        self.record_shapes = record_shapes
        self.roots = []
        self.stack = []
        self.first_seq = _E.next_event_seq()
        self.first_transfer = _E.log_totals()["transfers"] + 1
        self.start_ns = time.perf_counter_ns()

    def enter(self, name, args, annotation=False):
        shapes = _shapes(args) if self.record_shapes else None
        parent = self.stack[-1] if self.stack else None
        rec = OpRecord(name, shapes, parent, annotation)
        (parent.children if parent else self.roots).append(rec)
        self.stack.append(rec)
        rec.seq0 = _E.next_event_seq()
        rec.xfer0 = _E.log_totals()["transfers"]
        rec.start_ns = time.perf_counter_ns()
        return rec

    def exit(self, rec):
        rec.end_ns = time.perf_counter_ns()
        rec.seq1 = _E.next_event_seq()
        rec.xfer1 = _E.log_totals()["transfers"]
        while self.stack and self.stack[-1] is not rec:
            self.stack.pop()  # ranges left open by an exception inside them
        if self.stack:
            self.stack.pop()


def _shapes(args):
    from .._tensor import Tensor
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(list(a.shape))
        elif isinstance(a, (list, tuple)) and a and all(isinstance(x, Tensor) for x in a):
            out.append([list(x.shape) for x in a])
        else:
            out.append([])
    return out


def _wrap(fn, op_name):
    @functools.wraps(fn)
    def profiled_op(*args, **kwargs):
        rec = _state["active"]
        if rec is None:
            return fn(*args, **kwargs)
        parent = rec.stack[-1] if rec.stack else None
        if parent is not None and parent.name == op_name and not parent.annotation:
            return fn(*args, **kwargs)  # F.relu -> torch.relu: one aten::relu, as PyTorch shows
        r = rec.enter(op_name, args)
        try:
            return fn(*args, **kwargs)
        finally:
            rec.exit(r)
    return profiled_op


def _targets():
    import torch
    from torch.nn import functional as F
    out = []
    for name, value in vars(torch).items():
        if name.startswith(("_", "is_", "get_", "set_")) or name in _NOT_TORCH_OPS or name[0].isupper():
            continue
        if callable(value) and type(value).__name__ in ("function", "builtin_function_or_method"):
            out.append((torch, name, value, f"aten::{_RENAMED.get(name, name)}"))
    for name, value in vars(F).items():
        if not name.startswith("_") and type(value).__name__ == "function" and value.__module__.startswith(
                ("torch.nn.functional", "torch.nn._functional")):
            out.append((F, name, value, f"aten::{_RENAMED.get(name, name)}"))
    tensor_names = set()  # (a set, not a scan of `out` per name: ~540k comparisons at each profile() start)
    for klass in torch.Tensor.__mro__:
        if klass is object:
            continue
        for name, value in vars(klass).items():
            if name in tensor_names:
                continue
            if name in _TENSOR_OPERATORS:
                op = _TENSOR_OPERATORS[name]
            elif name.startswith("_") or name in _NOT_OPS or name.startswith("is_"):
                continue
            elif type(value).__name__ in ("function", "builtin_function_or_method", "instancemethod"):
                op = _RENAMED.get(name, name)
            else:
                continue
            out.append((torch.Tensor, name, value, f"aten::{op}"))
            tensor_names.add(name)
    return out


def install():
    if _installed:
        return
    import torch
    for owner, name, raw, op_name in _targets():
        fn = getattr(owner, name)
        own = owner is not torch.Tensor or name in owner.__dict__
        _installed.append((owner, name, owner.__dict__.get(name) if own else None))
        setattr(owner, name, _wrap(fn, op_name))


def uninstall():
    while _installed:
        owner, name, raw = _installed.pop()
        if raw is None:
            delattr(owner, name)
        else:
            setattr(owner, name, raw)
