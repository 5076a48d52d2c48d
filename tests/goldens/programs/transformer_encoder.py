# nn.TransformerEncoderLayer (batch_first, d_model 128, 4 heads, dropout 0), AdamW, 2 steps.
import torch
import torch.nn as nn
from _common import dev, finish, start

layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=512, dropout=0.0, batch_first=True).to(dev)
opt = torch.optim.AdamW(layer.parameters(), lr=1e-3)
start()
for step in range(2):
    x = torch.randn(16, 32, 128, device=dev)
    loss = layer(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
