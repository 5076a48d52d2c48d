#!/usr/bin/python3
"""Runs a golden program under a real PyTorch (Debian's CPU-only 1.13 here) and prints, as JSON, every new tensor
storage its ATen ops make inside the measured window (programs/_common.py start() .. finish()) and when each
dies: the op-level allocation sequence the program's Python and PyTorch's own decompositions produce.

Usage: trace_real_ops.py PROGRAM.py [OUT.json]

This is the reference for which tensors exist, not for a CUDA kernel's private buffers (workspaces, cuDNN, the
fused attention's logsumexp) or a 2.x-only path: golden_expectations.py applies those, each with its source.
Storages are watched with weak references to the c10 StorageImpl (no memory is held); a free is seen at the
next op boundary or at the end of the window.
"""
import json
import os
import runpy
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

_storage_of = torch.Tensor.untyped_storage if hasattr(torch.Tensor, "untyped_storage") else torch.Tensor._storage
_StorageClass = torch.UntypedStorage if hasattr(torch, "UntypedStorage") else torch._UntypedStorage
_IGNORED = {getattr(torch.ops.profiler, n).default for n in ("_record_function_enter", "_record_function_enter_new")
            if hasattr(torch.ops.profiler, n)}


class OpTrace(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.live = {}     # data_ptr -> (weak handle, nbytes, id of its alloc event)
        self.events = []   # {"action": alloc|free|begin|end, "id", "size", "elem", "op"}
        self.baseline = []  # sizes of the storages alive when the window opened
        self.next_id = 0
        self.in_backward = False
        self.backward_first_id = 0
        self.in_linear = False
        self.linear_first_id = 0

    def adopt(self, tensors):
        """Storages alive when the window opens (parameters, optimizer state): counted, not events."""
        for t in tensors:
            s = _storage_of(t)
            if s.nbytes() and s.data_ptr() not in self.live:
                self.live[s.data_ptr()] = (s._weak_ref(), s.nbytes(), None)
                self.baseline.append(s.nbytes())

    def accumulation(self, func, args, kwargs, out):
        """The id of the gradient this add accumulates into, when it looks like autograd's InputBuffer adding two
        gradients (1.13 does old + new; 2.x adds in place into a gradient it solely holds): inside backward, a
        plain add of two dense tensors of one shape and dtype whose first operand was made in this backward."""
        if func is not torch.ops.aten.add.Tensor or kwargs or len(args) != 2:
            return None
        if self.in_linear and not self.in_backward:
            # 1.13's linear adds the bias out of place after matmul (output + bias); 2.x adds it in place into the
            # fresh matmul output (output.add_(bias)): the sum keeps the matmul output's block
            entry = self.live.get(_storage_of(args[0]).data_ptr()) if isinstance(args[0], torch.Tensor) else None
            return entry[2] if entry is not None and entry[2] is not None and entry[2] >= self.linear_first_id \
                else None
        if not self.in_backward:
            return None
        a, b = args
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and isinstance(out, torch.Tensor)):
            return None
        if a.shape != b.shape or a.dtype != b.dtype or a.shape != out.shape or not a.is_contiguous():
            return None
        entry = self.live.get(_storage_of(a).data_ptr())
        if entry is None or entry[2] is None or entry[2] < self.backward_first_id:
            return None
        return entry[2]

    def poll(self):
        for ptr, (ref, nbytes, ident) in list(self.live.items()):
            if _StorageClass._expired(ref):
                _StorageClass._free_weak_ref(ref)
                del self.live[ptr]
                self.events.append({"action": "free", "id": ident, "size": nbytes})

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.poll()
        out = func(*args, **(kwargs or {}))
        if func in _IGNORED:
            return out
        accumulates = self.accumulation(func, args, kwargs, out)
        for t in (out if isinstance(out, (tuple, list)) else (out,)):
            if isinstance(t, torch.Tensor):
                s = _storage_of(t)
                ptr = s.data_ptr()
                if s.nbytes() and ptr not in self.live:
                    self.live[ptr] = (s._weak_ref(), s.nbytes(), self.next_id)
                    self.events.append({"action": "alloc", "id": self.next_id, "size": s.nbytes(),
                                        "elem": t.element_size(), "op": str(func.overloadpacket.__name__)})
                    if accumulates is not None:
                        self.events[-1]["accumulates_into"] = accumulates
                    self.next_id += 1
        return out


def mark_regions(trace):
    """Marks the calls whose CUDA 2.x allocations golden_expectations.py derives instead of taking the CPU's:
    optimizer steps (2.x takes the foreach path on CUDA), dropout (CUDA's fused kernel), and makes zero_grad
    default to set_to_none=True as 2.x does (1.13's default zeroes in place)."""
    import functools

    def wrap(owner, name, what, extra=lambda *a, **k: {}):
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def marked(*args, **kwargs):
            trace.poll()
            trace.events.append({"action": "begin", "what": what, **extra(*args, **kwargs)})
            if what == "backward":
                trace.in_backward, trace.backward_first_id = True, trace.next_id
            outer_linear = trace.in_linear
            if what == "linear":
                trace.in_linear, trace.linear_first_id = True, trace.next_id
            try:
                return fn(*args, **kwargs)
            finally:
                trace.poll()
                trace.events.append({"action": "end", "what": what})
                if what == "backward":
                    trace.in_backward = False
                if what == "linear":
                    trace.in_linear = outer_linear
        setattr(owner, name, marked)

    def step_info(opt, *a, **k):
        groups = [{key: v for key, v in g.items() if isinstance(v, (int, float, bool)) or v is None}
                  for g in opt.param_groups]
        sizes = [[p.numel() * p.element_size() for p in g["params"] if p.grad is not None] for g in opt.param_groups]
        return {"optimizer": type(opt).__name__, "groups": groups, "param_bytes": sizes,
                "first": not any(opt.state.get(p) for g in opt.param_groups for p in g["params"])}
    for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
        wrap(cls, "step", "optimizer_step", step_info)
    wrap(torch.Tensor, "backward", "backward")
    wrap(torch.nn.functional, "linear", "linear")
    wrap(torch.nn.functional, "dropout", "dropout",
         lambda x, p=0.5, training=True, inplace=False: {"p": p, "training": training, "inplace": inplace})
    zero_grad = torch.optim.Optimizer.zero_grad

    def zero_grad_2x(self, set_to_none=True):
        return zero_grad(self, set_to_none=set_to_none)
    torch.optim.Optimizer.zero_grad = zero_grad_2x


def main():
    program = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(program))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _common
    trace = OpTrace()

    def start(real_start=_common.start):
        real_start()
        import gc
        gc.collect()
        trace.adopt([o for o in gc.get_objects() if isinstance(o, torch.Tensor)])
        trace.__enter__()

    def finish():
        trace.poll()
        trace.__exit__(None, None, None)

    _common.start, _common.finish = start, finish
    mark_regions(trace)
    import attention_2x
    attention_2x.install()  # 2.x's MultiheadAttention and scaled_dot_product_attention (1.13 has neither)
    runpy.run_path(program, run_name="__main__")
    live = sum(n for _, n, _ in trace.live.values())
    peak = cur = sum(trace.baseline)
    for e in trace.events:
        if e["action"] in ("alloc", "free"):
            cur += e["size"] if e["action"] == "alloc" else -e["size"]
        peak = max(peak, cur)
    result = {"program": os.path.basename(program), "torch": torch.__version__, "device": "cpu",
              "baseline_bytes": trace.baseline, "final_bytes": live, "peak_bytes": peak, "events": trace.events}
    text = json.dumps(result, indent=0)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
