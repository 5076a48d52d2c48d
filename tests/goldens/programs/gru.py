# GRU (1 layer) + linear head over every step, SGD, 2 steps.
import torch
import torch.nn as nn
from _common import dev, finish, start

gru = nn.GRU(32, 64, batch_first=True).to(dev)
head = nn.Linear(64, 1).to(dev)
opt = torch.optim.SGD(list(gru.parameters()) + list(head.parameters()), lr=0.01)
start()
for step in range(2):
    x = torch.randn(8, 30, 32, device=dev)
    out, h = gru(x)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
