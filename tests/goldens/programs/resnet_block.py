# A ResNet basic block (conv-bn-relu-conv-bn + identity, relu) on 64 channels, Adam, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


model = BasicBlock(64).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
start()
for step in range(2):
    x = torch.randn(16, 64, 16, 16, device=dev)
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
