# A training step as people write it (issue 24: the names graph of a real program): a model on the GPU,
# Adam, a loss, the inputs copied over. About 44 objects in the names graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(64, 128), nn.ReLU(),
    nn.Linear(128, 128), nn.ReLU(),
    nn.Linear(128, 10),
).to("cuda:0")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
x_cpu = torch.randn(32, 64)
y_cpu = torch.randint(0, 10, (32,))
for step in range(2):
    x = x_cpu.to("cuda:0")
    y = y_cpu.to("cuda:0")
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
print(loss.item())
