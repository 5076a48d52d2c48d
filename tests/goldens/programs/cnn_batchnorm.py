# CNN with BatchNorm: conv-bn-relu-pool twice, a linear head, SGD, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 8 * 8, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
start()
for step in range(2):
    x = torch.randn(32, 3, 32, 32, device=dev)
    y = torch.randint(0, 10, (32,), device=dev)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
