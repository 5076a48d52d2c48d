# source: https://pytorch.org/tutorials/recipes/recipes/profiler_recipe.html (PyTorch Profiler recipe)
# changed: torchvision's resnet18 replaced by a small CNN defined here (torchvision is not available), inputs
#          5x3x32x32 instead of 5x3x224x224; the with_stack/export_stacks section left out; the CUDA sections run
#          when a device exists; checks at the end (the ops the model runs are in the tables, the schedule saved
#          the traces it should, the Chrome trace file parses).
# reference: real
import json
import os
import tempfile

import torch
import torch.nn as nn
from torch.profiler import profile, record_function, ProfilerActivity


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.conv2(x))
        return self.fc(torch.flatten(self.pool(x), 1))


model = SmallNet()
inputs = torch.randn(5, 3, 32, 32)

# 4. Using profiler to analyze execution time
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        model(inputs)
table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)
print(table)
prof_cpu = prof
by_shape = prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total", row_limit=10)
print(by_shape)

# Using profiler to analyze performance on GPU
cuda_table = None
if torch.cuda.is_available():
    model_cuda = SmallNet().cuda()
    inputs_cuda = torch.randn(5, 3, 32, 32).cuda()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        with record_function("model_inference"):
            model_cuda(inputs_cuda).cpu()
    cuda_table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=10)
    print(cuda_table)

# 5. Using profiler to analyze memory consumption
with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True) as prof:
    model(inputs)
memory_table = prof.key_averages().table(sort_by="self_cpu_memory_usage", row_limit=10)
print(memory_table)

# 6. Using tracing functionality
out_dir = tempfile.mkdtemp()
with profile(activities=[ProfilerActivity.CPU]) as prof:
    model(inputs)
trace_path = os.path.join(out_dir, "trace.json")
prof.export_chrome_trace(trace_path)

# 8. Using profiler to analyze long-running jobs
saved = []


def trace_handler(p):
    output = p.key_averages().table(sort_by="self_cpu_time_total", row_limit=10)
    print(output)
    p.export_chrome_trace(os.path.join(out_dir, "test_trace_" + str(p.step_num) + ".json"))
    saved.append(p.step_num)


with profile(activities=[ProfilerActivity.CPU],
             schedule=torch.profiler.schedule(wait=1, warmup=1, active=2), on_trace_ready=trace_handler) as p:
    for idx in range(8):
        model(inputs)
        p.step()

# Checks of what it recorded.
header = [l for l in table.splitlines() if "Name" in l][0].split()
assert header[:4] == ["Name", "Self", "CPU", "%"], header
assert "model_inference" in table and "aten::conv2d" in table, table
full = prof_cpu.key_averages().table(sort_by="cpu_time_total", row_limit=100)
assert "aten::linear" in full and "aten::batch_norm" in full and "aten::relu" in full, full
assert table.splitlines()[-1].startswith("Self CPU time total:"), table
assert "Input Shapes" in by_shape and "[5, 3, 32, 32]" in by_shape, by_shape
assert "CPU Mem" in memory_table and "Self CPU Mem" in memory_table, memory_table
if cuda_table is not None:
    assert "Self CUDA" in cuda_table and "Memcpy DtoH" in cuda_table, cuda_table
trace = json.load(open(trace_path))
trace_events = trace["traceEvents"] if isinstance(trace, dict) else trace  # PyTorch 1.13 writes a bare list
assert isinstance(trace_events, list) and trace_events
assert saved == [4, 8], saved  # on_trace_ready sees step_num already advanced by the step() that ended the cycle
assert all(os.path.exists(os.path.join(out_dir, f"test_trace_{s}.json")) for s in saved)
print("checks passed")
