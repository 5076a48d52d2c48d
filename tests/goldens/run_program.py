"""Runs one golden program inside DeviceScope (`devicescope run --backend sim --sim-devices 1 --link pcie5-x16
run_program.py PROGRAM OUT.json`) and writes what its own caching allocator recorded in the measured window
(programs/_common.py start() .. finish()): the trace's alloc sizes and the figures PyTorch's API reports."""
import json
import os
import runpy
import sys

import torch

args = [a for a in sys.argv[1:] if a != "--"]
program, out_path = os.path.abspath(args[0]), args[1]
sys.path.insert(0, os.path.dirname(program))
import _common  # noqa: E402

real_finish = _common.finish


def finish():
    real_finish()
    snap = torch.cuda.memory._snapshot()
    trace = [e for e in snap["device_traces"][0] if e["action"] in ("alloc", "free_completed")]
    result = {"allocated": torch.cuda.memory_allocated(), "peak": torch.cuda.max_memory_allocated(),
              "reserved": torch.cuda.memory_reserved(), "segments": len(snap["segments"]),
              "alloc_sizes": [e["size"] for e in trace if e["action"] == "alloc"]}
    result["alloc_count"] = len(result["alloc_sizes"])
    with open(out_path, "w") as f:
        json.dump(result, f)


_common.finish = finish
runpy.run_path(program, run_name="__main__")
