# source: https://pytorch.org/tutorials/beginner/profiler.html (Profiling your PyTorch Module)
# changed: input sizes cut (512x512 instead of 1000x1000 / 500x100x... ); the model runs on the GPU when one
#          exists, else on the CPU (the tutorial requires CUDA); out.sum(axis=1) spelled out.sum(dim=1) (DeviceScope's
#          ops lack PyTorch's numpy-style `axis` alias so far); group_by_stack_n tables are printed without
#          source locations; checks at the end (the record_function labels and the ops under them are in the
#          table; the improved version still returns the same indices); seeded (torch.manual_seed(0)): the
#          second version compares a float32 copy of the double mask, so with an unseeded generator about one
#          run in 20 puts an element on the other side of the threshold and the index check fails.
# reference: real
import numpy as np
import torch
import torch.autograd.profiler as profiler
from torch import nn

if not hasattr(profiler, "record_function"):
    raise SystemExit("torch.autograd.profiler missing")


class MyModule(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias: bool = True):
        super(MyModule, self).__init__()
        self.linear = nn.Linear(in_features, out_features, bias)

    def forward(self, input, mask):
        with profiler.record_function("LINEAR PASS"):
            out = self.linear(input)
        with profiler.record_function("MASK INDICES"):
            threshold = out.sum(dim=1).mean().item()
            hi_idx = np.argwhere(mask.cpu().numpy() > threshold)
            hi_idx = torch.from_numpy(hi_idx).to(input.device)
        return out, hi_idx


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = MyModule(500, 10).to(device)
input = torch.rand(128, 500).to(device)
mask = torch.rand((500, 500, 50), dtype=torch.double).to(device)

# warm-up
model(input, mask)
with profiler.profile(with_stack=True, profile_memory=True) as prof:
    out, idx = model(input, mask)
table = prof.key_averages(group_by_stack_n=5).table(sort_by='self_cpu_time_total', row_limit=5)
print(table)


class MyModule2(MyModule):
    def forward(self, input, mask):
        with profiler.record_function("LINEAR PASS"):
            out = self.linear(input)
        with profiler.record_function("MASK INDICES"):
            threshold = out.sum(dim=1).mean()
            hi_idx = (mask > threshold).nonzero(as_tuple=True)
        return out, hi_idx


model2 = MyModule2(500, 10).to(device)
model2.load_state_dict(model.state_dict())
mask = mask.to(torch.float)
model2(input, mask)
with profiler.profile(with_stack=True, profile_memory=True) as prof2:
    out2, idx2 = model2(input, mask)
table2 = prof2.key_averages(group_by_stack_n=5).table(sort_by='self_cpu_time_total', row_limit=5)
print(table2)

# Checks of what it computed.
keys = {e.key for e in prof.key_averages()}
assert {"LINEAR PASS", "MASK INDICES"} <= keys and any("linear" in k for k in keys), keys
assert "Self CPU" in table and "CPU Mem" in table, table
assert out.shape == (128, 10) and idx.shape[1] == 3 and len(idx2) == 3
assert torch.equal(idx2[0].cpu(), idx[:, 0].cpu()) and torch.equal(out2, out)
print("checks passed")
