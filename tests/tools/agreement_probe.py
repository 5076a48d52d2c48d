"""What the switch-agreement scripts (tests/fastpath, tests/composite_backward: run by switch_agreement.py with
and without a switch) print of a run, shared so that every script prints it the same way. Imported by those
scripts under `devicescope run`; not a test itself.

    hexes(t)                  a tensor's values exactly (float.hex for floating dtypes, str for the others)
    print_allocator_trace()   every simulated GPU's allocator events (alloc / free_requested / free_completed and
                              their sizes, in order) since torch.cuda.memory._record_memory_history was enabled
"""
import torch


def hexes(t):
    t = t.detach().reshape(-1)
    if t.dtype.is_floating_point:
        return " ".join(float(v).hex() for v in t.tolist())
    return " ".join(str(v) for v in t.tolist())


def print_allocator_trace():
    snap = torch.cuda.memory._snapshot()
    for i, trace in enumerate(snap["device_traces"]):
        events = [f"{e['action']}:{e['size']}" for e in trace
                  if e["action"] in ("alloc", "free_requested", "free_completed")]
        print(f"device {i} trace: {len(events)} events")
        for k in range(0, len(events), 12):
            print("  ", " ".join(events[k:k + 12]))
