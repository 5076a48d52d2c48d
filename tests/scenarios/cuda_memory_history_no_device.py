# devicescope-args: --sim-devices 0
# CUDA turned off: torch.cuda.memory snapshots are empty (no segments, no traces), as a CUDA build of PyTorch
# gives on a machine without a GPU, and _record_memory_history fails like its lazy CUDA init does.
import torch

s = torch.cuda.memory._snapshot()
print(s["segments"], s["device_traces"], sorted(s), len(s["allocator_settings"]))
print(torch.cuda.memory_snapshot(), torch.cuda.memory.memory_allocated())
try:
    torch.cuda.memory._record_memory_history()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.cuda.memory._record_memory_history(True)
except RuntimeError as e:
    print("RuntimeError:", e)
