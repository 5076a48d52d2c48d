# Run by check_memory_history.py under `devicescope run` (two simulated devices):
#     history_model.py OUT.pickle OUT.json [--no-history]
# Builds a model, moves it to cuda, trains two steps with Adam, makes every allocator action happen
# (segment_free through empty_cache, oom through an impossible request), and dumps a memory snapshot with
# torch.cuda.memory._dump_snapshot. OUT.json holds what the checker compares the file with: the allocator's
# figures at the dump and the block bytes of each named owner.
import json
import sys

import torch

out_pickle, out_json = sys.argv[1], sys.argv[2]
record = "--no-history" not in sys.argv[3:]
if record:
    torch.cuda.memory._record_memory_history(max_entries=100000)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(512, 1024)    # 2 MiB weight: large pool
        self.bn = torch.nn.BatchNorm1d(1024)     # buffers
        self.fc2 = torch.nn.Linear(1024, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


model = Net().cuda()  # the line the parameters' frames point at
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 512, device="cuda")
for _ in range(2):
    loss = model(x).sum()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
del loss
side = torch.ones(300, device="cuda:1")
big = torch.empty(6_000_000, device="cuda")  # 24 MB: a segment of its own, freed, then given back
del big
torch.cuda.empty_cache()
try:
    torch.empty(1 << 50, device="cuda")
except torch.cuda.OutOfMemoryError:
    pass


def block_bytes(t):
    return max(512, (t.numel() * t.element_size() + 511) // 512 * 512)


owners = {"model." + n: block_bytes(p) for n, p in model.named_parameters()}
owners.update({"model." + n: block_bytes(b) for n, b in model.named_buffers() if b.numel() > 1})
owners.update({"x": block_bytes(x), "side": block_bytes(side)})
figures = {
    "allocated": [torch.cuda.memory_allocated(d) for d in range(torch.cuda.device_count())],
    "reserved": [torch.cuda.memory_reserved(d) for d in range(torch.cuda.device_count())],
    "owners": owners,
    "recorded": record,
}
with open(out_json, "w") as f:
    json.dump(figures, f)
torch.cuda.memory._dump_snapshot(out_pickle)
