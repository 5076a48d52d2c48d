# MLP, Adam (foreach on CUDA), zero_grad(set_to_none=False): gradients stay allocated and are zeroed in place.
import torch
import torch.nn as nn
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 1)).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
start()
for step in range(3):
    x = torch.randn(128, 512, device=dev)
    y = torch.randn(128, 1, device=dev)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
finish()
