# Image-classifier style loop with a warm-up then cosine learning-rate schedule (SequentialLR over LinearLR and
# CosineAnnealingLR, stepped per batch) and AdamW; the scheduler wraps optimizer.step as real code does.
# expect-exit: 0
# expect-stdout: lr 
# expect-owners: model.0.weight, model.0.weight.grad, optimizer.state[model.0.weight].exp_avg, model.2.bias
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--lr", type=float, default=3e-3)
args = parser.parse_args()

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
steps_per_epoch = 4
warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=2)
cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs * steps_per_epoch)
scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[2])
loss_fn = nn.CrossEntropyLoss()
inputs, labels = torch.randn(steps_per_epoch * 8, 32), torch.randint(0, 10, (steps_per_epoch * 8,))

for epoch in range(args.epochs):
    for x, y in zip(inputs.split(8), labels.split(8)):
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
    print("epoch %d loss %.4f lr %.6f" % (epoch, loss.item(), scheduler.get_last_lr()[0]))
assert scheduler.get_last_lr()[0] < args.lr, "the schedule did not move the learning rate"
