# A bigger program for the names graph (issue 24: "a 200-object program at 1600x1000, text >= 12 px, 0 cut
# off"): a 12-layer model with norms, Adam with its state, a scheduler-like config, lists and dicts of
# tensors, a few plain values. About 200 objects.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        return self.norm(self.fc(x)).relu()


torch.manual_seed(0)
model = nn.Sequential(*[Block(32) for _ in range(12)]).to("cuda:0")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
batches = [torch.randn(8, 32) for _ in range(4)]
targets = {"train": torch.zeros(8, 32), "eval": torch.ones(8, 32)}
history = []
config = {"lr": 1e-3, "epochs": 2, "name": "blocks"}
for x_cpu in batches[:2]:
    x = x_cpu.to("cuda:0")
    loss = (model(x) - targets["train"].to("cuda:0")).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.detach())
best = history[-1]
# Multi-byte names: block labels and graph boxes cut them between characters, never inside one (the
# screenshot checker fails on any U+FFFD drawn).
moyenne_pondérée_des_gradients = torch.zeros(16, 16, device="cuda:0")
températures = [torch.ones(4) for _ in range(3)]
