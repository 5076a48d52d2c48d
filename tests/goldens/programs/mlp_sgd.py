# MLP 784-256-10, SGD with momentum, zero_grad() (set_to_none=True, the 2.x default), 3 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
start()
for step in range(3):
    x = torch.randn(64, 784, device=dev)
    y = torch.randint(0, 10, (64,), device=dev)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
