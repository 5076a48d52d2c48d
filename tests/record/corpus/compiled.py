# torch.compile on a small model (PyTorch 2.x); the loop trains the compiled module.
# requires: torch.compile
# expect-exit: 0
# expect-stdout: compiled step 2
# expect-owners: model.0.weight, model.0.weight.grad
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 1))
compiled = torch.compile(model, backend="eager")  # no C compiler needed; dynamo still traces the module
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 16), torch.randn(8, 1)
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(compiled(x), y)
    loss.backward()
    optimizer.step()
    print("compiled step %d loss %.4f" % (step, loss.item()))
