# LSTM (2 layers) + linear head on the last step, Adam, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

lstm = nn.LSTM(64, 128, num_layers=2, batch_first=True).to(dev)
head = nn.Linear(128, 10).to(dev)
opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)
start()
for step in range(2):
    x = torch.randn(16, 20, 64, device=dev)
    y = torch.randint(0, 10, (16,), device=dev)
    out, _ = lstm(x)
    loss = F.cross_entropy(head(out[:, -1]), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
