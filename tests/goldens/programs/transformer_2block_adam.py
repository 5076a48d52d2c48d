# The H200 program: a 2-block transformer (embedding, LayerNorm, MultiheadAttention, GELU MLP, output
# layer) trained 3 steps with Adam on a pinned, non_blocking input. On an H200 with PyTorch 2.11 this shape gave
# memory_allocated 101,630,464, max_memory_allocated 116,734,976, memory_reserved 134,217,728 and 488 alloc entries
# (issue 21); the issue did not show the script, so this one is the closest reading of its description.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

V, D, H, T, B = 1000, 256, 4, 64, 8


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D)
        self.attn = nn.MultiheadAttention(D, H, batch_first=True)
        self.ln2 = nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.blocks = nn.Sequential(Block(), Block())
        self.out = nn.Linear(D, V)

    def forward(self, idx):
        return self.out(self.blocks(self.emb(idx)))


model = Model().to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
start()
for step in range(3):
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))
    if dev.type == "cuda":
        x, y = x.pin_memory().to(dev, non_blocking=True), y.pin_memory().to(dev, non_blocking=True)
    opt.zero_grad()
    loss = F.cross_entropy(model(x).view(-1, V), y.view(-1))
    loss.backward()
    opt.step()
finish()
