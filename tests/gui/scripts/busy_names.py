# Screenshot test for the names graph at workshop scale (issue 17 item 6): 30+ names, views and .data /
# .detach() sharing one storage, a transfer record (a dict of 16 plain values), a long list of tensors,
# a model moved to the GPU, and names rebound so that their old objects are no longer reachable.
import torch
import torch.nn as nn
import devicescope.engine as dse

model = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 4))
head = model[2]
w = model[0].weight
w_data = w.data
w_detached = w.detach()
w_row = w[0]
base = torch.arange(24.0)
view_a = base.view(4, 6)
view_b = base[2:10]
view_c = base.reshape(2, 12)
batch = torch.randn(8, 32)
batch_pinned = batch.pin_memory()
batch_gpu = batch_pinned.to("cuda:0", non_blocking=True)
labels = torch.randint(0, 4, (8,))
model.to("cuda:0")
out = model(batch_gpu)
loss = out.sum()
record = dse.last_transfer()
history = [torch.zeros(4) for _ in range(12)]
config = {"lr": 0.1, "epochs": 3, "device": "cuda:0", "batch": 8, "seed": 7, "amp": False}
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scale = torch.ones(16)
bias_copy = model[0].bias.detach().cpu()
mask = torch.ones(8, dtype=torch.bool)
host_out = out.to("cpu")
pair = (base, batch)
sizes = [1, 2, 4, 8]
lr = 0.1
step = 3
name = "busy"
temp = torch.empty(1000)
temp = torch.empty(10)  # the old 1000-element tensor is unreachable now
t1 = torch.zeros(2)
t2 = torch.zeros(3)
t3 = t1
