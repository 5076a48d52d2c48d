# MLP with dropout, AdamW (foreach on CUDA, weight decay), zero_grad(set_to_none=True) before forward.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Dropout(0.1), nn.Linear(1024, 256)).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
start()
for step in range(3):
    opt.zero_grad(set_to_none=True)
    x = torch.randn(64, 256, device=dev)
    loss = F.mse_loss(model(x), x)
    loss.backward()
    opt.step()
finish()
