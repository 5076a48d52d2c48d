# Gradient accumulation: 4 micro-batches per optimizer step, Adam, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10)).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
start()
for step in range(2):
    opt.zero_grad()
    for micro in range(4):
        x = torch.randn(32, 256, device=dev)
        y = torch.randint(0, 10, (32,), device=dev)
        loss = F.cross_entropy(model(x), y) / 4
        loss.backward()
    opt.step()
finish()
