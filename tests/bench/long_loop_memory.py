# Benchmark (prints figures, asserts nothing): 10 million small ops, as a long training loop makes them, against
# the bounded event log (Note [Bounded event log] in engine/trace/event_log.h). Target (issue 14): RSS growth
# <= 100 MB over the 10M ops, and the exports complete or marked as windowed.
#   build/app/devicescope --backend sim run --csv /tmp/l.csv --trace /tmp/l.json tests/bench/long_loop_memory.py [OPS]
# Every op allocates and frees one storage (two events); every 100th op also copies 8 bytes host->device
# (a transfer), so 100,000 transfers are recorded: all of them stay in the CSV/trace (limit 1,000,000).
# The baseline in the same run is the growth after the first million ops: a bounded log grows no further.
import sys
import time

import _devicescope_C as engine
import torch

OPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024


x = torch.zeros(2)
y = torch.zeros(2, device="cuda")
start, t0 = rss_mb(), time.perf_counter()
growth_at = {}
done = 0
while done < OPS:
    for _ in range(49):  # 100 ops per round: 49 on cpu, 49 on cuda, one copy and its add
        x = x + 1
        y = y + 1
    y = x.to("cuda") + 0
    done += 100
    if done in (1_000_000, OPS):
        growth_at[done] = rss_mb() - start
took = time.perf_counter() - t0
t = engine.log_totals()
first = growth_at.get(1_000_000, growth_at[OPS])
print(f"{OPS:,} ops in {took:.1f} s ({OPS / took / 1e6:.2f} M ops/s)")
print(f"RSS growth: {first:.0f} MB after 1M ops, {growth_at[OPS]:.0f} MB after {OPS / 1e6:g}M ops "
      f"(ratio {growth_at[OPS] / max(first, 1):.2f}; target <= 100 MB)")
print(f"event log: {t['events']:,} events recorded, {t['events_dropped']:,} dropped (window {t['event_window']:,}); "
      f"{t['transfers']:,} transfers recorded, {t['transfers_dropped']:,} dropped (window {t['transfer_window']:,})")
print("exports:", t["note"] or "complete")
