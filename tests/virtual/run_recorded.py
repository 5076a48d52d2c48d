"""Runs one program inside DeviceScope and writes its caching allocator's record (issue 25's agreement check):
every alloc/free event of cuda:0's trace (action, size, address), memory_allocated / max_memory_allocated /
memory_reserved after every optimizer step and at the end, and the final snapshot's segments and blocks.

  devicescope run --backend sim --sim-devices 1 --link pcie5-x16 run_recorded.py PROGRAM OUT.json [--virtual]

--virtual runs the whole program inside devicescope.virtual_mode(): the model, its inputs and everything it
makes are virtual tensors (no bytes, no values computed). A golden program (tests/goldens/programs) starts
its measured window with _common.start(); any other program is recorded from its first line."""
import gc
import json
import os
import runpy
import sys
import traceback

import devicescope
import torch

args = [a for a in sys.argv[1:] if a != "--"]
virtual = "--virtual" in args
args = [a for a in args if a != "--virtual"]
program, out_path = os.path.abspath(args[0]), args[1]
sys.path.insert(0, os.path.dirname(program))
steps = []


def figures(label):
    steps.append({"at": label, "allocated": torch.cuda.memory_allocated(),
                  "peak": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.memory_reserved()})


# The figures after every optimizer step: the step is where a training loop's state settles.
_step = torch.optim.Optimizer.step


def step(self, *a, **k):
    r = _step(self, *a, **k)
    figures(f"step {len(steps) + 1}")
    return r


torch.optim.Optimizer.step = step
for name in list(torch.optim.__dict__):  # subclasses that define step themselves
    cls = getattr(torch.optim, name)
    if isinstance(cls, type) and issubclass(cls, torch.optim.Optimizer) and "step" in cls.__dict__:
        original = cls.__dict__["step"]

        def wrapped(self, *a, _orig=original, **k):
            r = _orig(self, *a, **k)
            figures(f"step {len(steps) + 1}")
            return r
        cls.step = wrapped

torch.cuda.memory._record_memory_history(max_entries=1000000)
# Python's cycle collector runs after a count of object allocations, which differs between a real run (numpy
# arrays) and a virtual one: objects in reference cycles (a module and its methods) would be freed at different
# moments. Off during the program, one collection at its end, in both runs.
gc.disable()
error = None
try:
    if virtual:
        with devicescope.virtual_mode():
            runpy.run_path(program, run_name="__main__")
    else:
        runpy.run_path(program, run_name="__main__")
except Exception:  # reported in the record: the comparer shows it
    error = traceback.format_exc()
figures("end")
gc.collect()
snap = torch.cuda.memory._snapshot()
trace = [(e["action"], e["size"], e["addr"]) for e in snap["device_traces"][0]
         if e["action"] in ("alloc", "free_requested", "free_completed", "segment_alloc", "segment_free")]
segments = [{"address": s["address"], "total_size": s["total_size"],
             "blocks": [(b["size"], b["state"]) for b in s["blocks"]]} for s in snap["segments"]]
with open(out_path, "w") as f:
    json.dump({"virtual": virtual, "error": error, "steps": steps, "trace": trace, "segments": segments}, f)
