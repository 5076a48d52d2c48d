# Screenshot test: a model with a plain tensor attribute moves to cuda:0; an alias keeps the old bias alive,
# and a list keeps the old running_mean buffer alive (the module's buffer is rebound to a new cuda tensor).
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(64, 32), nn.BatchNorm1d(32), nn.Linear(32, 4))
net.extra = torch.zeros(16)
old_bias = net[0].bias.detach()
stats = [net[1].running_mean]
net.to("cuda:0")
x = torch.randn(8, 64, device="cuda:0")
y = net(x)
