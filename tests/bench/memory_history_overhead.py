# Benchmark (prints figures, asserts nothing): what torch.cuda.memory._record_memory_history costs per op.
# One op here is `b = a + a; del b` on a simulated GPU: one alloc, one free (3 trace entries). Each mode is
# measured against the same loop without history in the same run (ratios), then _snapshot() of the trace.
# PyTorch documents about 2 us per recorded Python trace.
#   build/app/devicescope run tests/bench/memory_history_overhead.py
import time

import torch

N = 20000
MODES = (("off again (observer installed, not recording)", {"enabled": None}),
         ("enabled='all', stacks='python'", {"stacks": "python"}),
         ("enabled='all', stacks='all' (default)", {}),
         ("enabled='all', context=None (no frames)", {"context": None}))

a = torch.ones(100, device="cuda")


def per_op_us(n):
    t0 = time.perf_counter()
    for _ in range(n):
        b = a + a
        del b
    return (time.perf_counter() - t0) / n * 1e6


per_op_us(2000)  # warm-up
for label, kwargs in MODES:
    torch.cuda.memory._record_memory_history(enabled=None)
    base = min(per_op_us(N) for _ in range(3))
    torch.cuda.memory._record_memory_history(**kwargs, **({"max_entries": 10 * N} if "enabled" not in kwargs else {}))
    recorded = min(per_op_us(N) for _ in range(3))
    t0 = time.perf_counter()
    entries = sum(len(t) for t in torch.cuda.memory._snapshot()["device_traces"])  # no global holds it
    took = time.perf_counter() - t0
    print(f"{label}: {base:.2f} -> {recorded:.2f} us/op (ratio {recorded / base:.2f}, "
          f"+{(recorded - base) / 3:.2f} us per trace entry); _snapshot() of {entries} entries {took:.3f} s")
