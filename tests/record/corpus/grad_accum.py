# Gradient accumulation: four micro-batches per optimizer step, the loss divided by the accumulation count,
# gradients clipped before the step; a StepLR scheduler per optimizer step.
# expect-exit: 0
# expect-stdout: update 2
# expect-owners: model.encoder.weight, model.encoder.weight.grad, optimizer.state[model.encoder.weight].exp_avg_sq
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(48, 96)
        self.norm = nn.LayerNorm(96)
        self.head = nn.Linear(96, 1)

    def forward(self, x):
        return self.head(self.norm(torch.tanh(self.encoder(x))))


torch.manual_seed(0)
model = Regressor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
accumulate = 4
data = torch.randn(3 * accumulate, 6, 48)
target = data.sum(dim=-1, keepdim=True)
optimizer.zero_grad()
for i, (x, y) in enumerate(zip(data, target)):
    loss = nn.functional.mse_loss(model(x), y) / accumulate
    loss.backward()
    if (i + 1) % accumulate == 0:
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        print("update %d loss %.4f" % ((i + 1) // accumulate, loss.item() * accumulate))
