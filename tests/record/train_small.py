# A small training loop recorded by `devicescope record` under Debian's CPU-only PyTorch 1.13
# (tests/record/check_record.py knows its sizes and the lines marked below; keep them in step).
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(256, 64)  # weight 64 x 256: 128 KiB in float64, the largest owner
        self.norm = nn.LayerNorm(64)

    def forward(self, x):
        return self.norm(self.q_proj(x)).relu()


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x):
        return self.attn(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer()])
        self.head = nn.Linear(64, 8)
        self.register_buffer("scale", torch.ones(8))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x) * self.scale


torch.manual_seed(0)
model = Net()
model.to(torch.float64)  # MOVE_LINE: every parameter and the buffer converted (the CPU stand-in for a move)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(4, 256).double()  # DATA_LINE
target = torch.zeros(4, 8, dtype=torch.float64)
for step in range(3):
    optimizer.zero_grad()
    loss = (model(data) - target).pow(2).mean()
    loss.backward()
    optimizer.step()
snapshot = model.head.weight.detach().clone()  # CLONE_LINE
print("loss %.6f" % loss.item())
