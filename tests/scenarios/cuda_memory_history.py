# torch.cuda.memory._record_memory_history / _snapshot / memory_snapshot in PyTorch 2.x's format, from
# DeviceScope's caching allocator: the modes (enabled "all" / "state" / None, context, stacks, max_entries,
# clear_history, the legacy bool form), the trace actions, owner frames, totals equal to memory_allocated()
# / memory_reserved(), and PyTorch's errors for bad arguments. Simulated devices: every figure is exact.
import torch

CPP = "ds::CachingDeviceAllocator"


def actions(s, device=0):
    return [e["action"] for e in s["device_traces"][device]]


def owners(frames):
    return [f["name"] for f in frames if f["filename"].startswith("<devicescope ")]


def has_cpp(frames):
    return any(f["name"].startswith(CPP) for f in frames)


def totals(s, device):
    segs = [g for g in s["segments"] if g["device"] == device]
    return sum(g["allocated_size"] for g in segs), sum(g["total_size"] for g in segs)


# Nothing recorded: one empty trace per device, as in PyTorch; the segments are there all the same.
a = torch.ones(1000, device="cuda")
s = torch.cuda.memory._snapshot()
print(sorted(s), s["device_traces"], "external_annotations" in s)  # 2.11's keys: none without annotations
print(len(s["segments"]), s["segments"][0]["segment_type"], s["segments"][0]["segment_pool_id"],
      s["segments"][0]["is_expandable"], [b["state"] for b in s["segments"][0]["blocks"]])
print("owner without recording:", owners(s["segments"][0]["blocks"][0]["frames"]))
print(torch.cuda.memory_snapshot() == s["segments"], torch.cuda.memory.memory_snapshot() == s["segments"])
print(totals(s, 0) == (torch.cuda.memory_allocated(0), torch.cuda.memory_reserved(0)))

# enabled="all" (the default): every action, frames with the script's own line.
torch.cuda.memory._record_memory_history()
model = torch.nn.Linear(1000, 1000).cuda()         # 4,000,000 B weight: a new 20 MiB large segment
b = torch.ones(10, device="cuda:1")
big = torch.ones(5_000_000, device="cuda")         # 20 MB: more than the 16 MiB left, a segment of its own
del a, big
torch.cuda.empty_cache()                           # big's segment is wholly free: segment_free
try:
    torch.empty(1 << 50, device="cuda")            # 4 PiB: oom
except torch.cuda.OutOfMemoryError:
    print("oom raised")
s = torch.cuda.memory._snapshot()
print(actions(s, 0))
print(actions(s, 1))
oom = [e for e in s["device_traces"][0] if e["action"] == "oom"][0]
print(sorted(oom), oom["size"] == 1 << 52)
weight_alloc = [e for e in s["device_traces"][0] if e["action"] == "alloc"][0]
print(sorted(weight_alloc), weight_alloc["size"], owners(weight_alloc["frames"]), has_cpp(weight_alloc["frames"]))
print([(f["filename"].endswith("cuda_memory_history.py"), f["line"], f["name"])
       for f in weight_alloc["frames"] if f["name"] == "<module>"])
print("no snapshot entry:", "snapshot" not in actions(s, 0) + actions(s, 1))  # _snapshot() records no action
blocks = {tuple(owners(b["frames"])): b for g in s["segments"] for b in g["blocks"] if b["state"] == "active_allocated"}
print(sorted(blocks))
print(blocks[("model.weight",)]["size"], blocks[("model.weight",)]["requested_size"],
      blocks[("model.bias",)]["size"], blocks[("model.bias",)]["requested_size"])
for d in (0, 1):
    print(d, totals(s, d) == (torch.cuda.memory_allocated(d), torch.cuda.memory_reserved(d)))
print(sum(len(t) for t in s["device_traces"]) > 0, torch.cuda.memory_snapshot() == s["segments"])

# stacks="python": no C++ frame; context=None: no frames of the allocation (the owner frame stays).
torch.cuda.memory._record_memory_history(stacks="python", clear_history=True)
c = torch.ones(5, device="cuda")
s = torch.cuda.memory._snapshot()
print(actions(s), any(has_cpp(e.get("frames", [])) for e in s["device_traces"][0]))
torch.cuda.memory._record_memory_history(context=None, clear_history=True)
d = torch.ones(6, device="cuda")
s = torch.cuda.memory._snapshot()
print(actions(s), [owners(e.get("frames", [])) for e in s["device_traces"][0]],
      [len(e.get("frames", [])) for e in s["device_traces"][0]])

# max_entries: a ring of the latest entries per device.
torch.cuda.memory._record_memory_history(max_entries=3)
for _ in range(4):
    t = torch.ones(7, device="cuda")
    del t
print(actions(torch.cuda.memory._snapshot()))

# enabled="state": live blocks keep frames, the trace keeps one entry.
torch.cuda.memory._record_memory_history(enabled="state")
e = torch.ones(8, device="cuda")
s = torch.cuda.memory._snapshot()
print(actions(s), actions(s, 1))
print([len(b["frames"]) > 1 for g in s["segments"] for b in g["blocks"] if owners(b["frames"]) == ["e"]])

# Turning it off empties the trace (c10 clears its ring buffer).
torch.cuda.memory._record_memory_history(enabled=None)
print(torch.cuda.memory._snapshot()["device_traces"])

# The legacy bool signature: trace_alloc_max_entries and trace_alloc_record_context.
torch.cuda.memory._record_memory_history(True, trace_alloc_max_entries=100, trace_alloc_record_context=True)
f = torch.ones(9, device="cuda")
s = torch.cuda.memory._snapshot()
print(actions(s), len(s["device_traces"][0][0]["frames"]) > 1)
torch.cuda.memory._record_memory_history(False)
print(torch.cuda.memory._snapshot()["device_traces"])

# PyTorch's errors.
for kwargs in ({"enabled": "yes"}, {"context": "some"}, {"stacks": "cpp"}):
    try:
        torch.cuda.memory._record_memory_history(**kwargs)
    except RuntimeError as err:
        print(type(err).__name__, err)
print(s["allocator_settings"]["max_split_size"], sorted(s["allocator_settings"])[:3])
