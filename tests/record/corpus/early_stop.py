# Early stopping that ends the job with sys.exit(3) when the validation loss stops improving, the status a
# scheduler reads: the recording keeps it.
# expect-exit: 3
# expect-stdout: stopping early
# expect-owners: model.weight, model.weight.grad
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # lr 0: the validation loss never improves
x, y = torch.randn(16, 8), torch.randn(16, 1)
best, patience = float("inf"), 0
for epoch in range(10):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(x), y).item()
    if val < best - 1e-6:
        best, patience = val, 0
    else:
        patience += 1
    if patience == 2:
        print("stopping early at epoch %d" % epoch)
        sys.exit(3)
