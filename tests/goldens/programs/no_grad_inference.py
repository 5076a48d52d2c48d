# Inference under torch.no_grad(): an eval-mode MLP with dropout over 4 batches, no autograd memory.
import torch
import torch.nn as nn
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(1024, 2048), nn.GELU(), nn.Dropout(0.5), nn.Linear(2048, 1024), nn.LayerNorm(1024))
model = model.to(dev).eval()
start()
with torch.no_grad():
    for batch in range(4):
        x = torch.randn(256, 1024, device=dev)
        y = model(x).softmax(-1)
        top = y.argmax(-1)
finish()
