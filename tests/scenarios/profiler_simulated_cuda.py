# torch.profiler on a simulated GPU, backed by DeviceScope's own records: the ops a model runs (host times),
# the allocations they made (memory columns from the runtime's event log), the copies as PyTorch's
# "Memcpy HtoD/DtoH" rows timed on the modelled clock (deterministic, labelled simulated), the table layout,
# record_function ranges, a schedule, and export_chrome_trace writing DeviceScope's Perfetto trace.
# The first addmm on the device also makes the thread's cuBLAS workspace (8,519,680 bytes on sm_80): its memory.
import json
import os
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 128), torch.nn.ReLU()).cuda()
x = torch.randn(64, 256)
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
             profile_memory=True) as prof:
    with record_function("model_inference"):
        y = model(x.to("cuda")).cpu()
table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=20)
lines = table.splitlines()
print(" / ".join(h.strip() for h in lines[1].split("  ") if h.strip()))
names = sorted(l.strip().split("  ")[0] for l in lines[3:-3])
print(names)
print(lines[-1])
avgs = {e.key: e for e in prof.key_averages()}
print("HtoD us:", round(avgs["Memcpy HtoD (Pageable -> Device)"].self_cuda_time_total, 3),
      "| DtoH us:", round(avgs["Memcpy DtoH (Device -> Pageable)"].self_cuda_time_total, 3))
print("addmm CUDA mem:", avgs["aten::addmm"].cuda_memory_usage, "| to CUDA mem:", avgs["aten::to"].cuda_memory_usage,
      "| to CPU mem:", avgs["aten::to"].cpu_memory_usage)
print("model_inference CUDA total == both copies:",
      round(avgs["model_inference"].cuda_time_total, 3) == round(avgs["Memcpy HtoD (Pageable -> Device)"].self_cuda_time_total
                                                                  + avgs["Memcpy DtoH (Device -> Pageable)"].self_cuda_time_total, 3))
print("shapes:", avgs["aten::linear"].input_shapes)

path = os.path.join(tempfile.mkdtemp(), "trace.json")
prof.export_chrome_trace(path)
trace = json.load(open(path))
slices = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
print("trace transfers:", sum(e.get("cat") == "transfer" for e in slices),
      "| op slices:", sorted({e["name"] for e in slices if e.get("cat") in ("cpu_op", "user_annotation")}))
print("metadata backend:", trace["metadata"]["backend"], trace["metadata"]["simulated"])

steps = []
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
             schedule=torch.profiler.schedule(wait=1, warmup=1, active=1, repeat=2),
             on_trace_ready=lambda p: steps.append((p.step_num, sorted({e.key for e in p.key_averages()
                                                                        if e.key.startswith("ProfilerStep")})))) as p:
    for i in range(7):
        model(x.cuda())
        p.step()
print("saved:", steps)
print("outside a profile the ops are not wrapped:", torch.Tensor.cuda.__name__ != "profiled_op",
      torch.matmul.__name__ != "profiled_op")
