# source: https://pytorch.org/tutorials/recipes/recipes/what_is_state_dict.html (What is a state_dict in PyTorch)
#         and https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html (Zeroing out gradients)
# changed: CIFAR-10 replaced by 8 synthetic batches; the zeroing-gradients training loop runs 2 epochs; the
#          model lives on the GPU when one exists; checks at the end (state_dict keys/shapes, optimizer state,
#          gradients zeroed or None each step, loss falls).
# reference: real
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net().to(device)
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
print()
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

criterion = nn.CrossEntropyLoss()
batches = [(torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))) for _ in range(8)]
losses = []
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(batches, 0):
        inputs, labels = data[0].to(device), data[1].to(device)
        optimizer.zero_grad()
        assert all(p.grad is None or float(p.grad.abs().sum()) == 0 for p in net.parameters())
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    losses.append(running_loss)
    print(f"[{epoch + 1}] loss: {running_loss / 8:.3f}")
print('Finished Training')

# Checks of what it computed.
sd = net.state_dict()
assert list(sd) == ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "fc1.weight", "fc1.bias",
                    "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]
assert sd["conv1.weight"].shape == (6, 3, 5, 5) and sd["fc3.bias"].device.type == device.type
osd = optimizer.state_dict()
assert osd["param_groups"][0]["lr"] == 0.001 and osd["param_groups"][0]["params"] == list(range(10))
assert set(osd["state"]) == set(range(10)) and osd["state"][0]["momentum_buffer"].device.type == device.type
assert losses[1] < losses[0], losses
print("checks passed")
