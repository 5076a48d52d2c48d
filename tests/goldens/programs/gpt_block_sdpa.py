# A GPT block: LayerNorm, causal F.scaled_dot_product_attention, GELU MLP; AdamW, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start


class Block(nn.Module):
    def __init__(self, d=128, h=4):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


model = Block().to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
start()
for step in range(2):
    x = torch.randn(8, 64, 128, device=dev)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
finish()
