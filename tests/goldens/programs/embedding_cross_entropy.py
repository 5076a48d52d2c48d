# Embedding + mean over the sequence + linear, cross_entropy, SGD, 3 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

emb = nn.Embedding(5000, 64).to(dev)
head = nn.Linear(64, 5000).to(dev)
opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.1)
start()
for step in range(3):
    idx = torch.randint(0, 5000, (32, 16), device=dev)
    y = torch.randint(0, 5000, (32,), device=dev)
    loss = F.cross_entropy(head(emb(idx).mean(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
