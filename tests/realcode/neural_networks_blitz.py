# source: https://pytorch.org/tutorials/beginner/blitz/neural_networks_tutorial.html (Neural Networks) and
#         https://pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html (A Gentle Introduction to
#         torch.autograd: Q = 3a^3 - b^2, and freezing parameters)
# changed: the blitz autograd section's resnet18 replaced by the LeNet of the neural-networks section (no
#          torchvision); the net moves to the GPU when one exists; checks at the end.
# reference: real
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

device = "cuda" if torch.cuda.is_available() else "cpu"

# A Gentle Introduction to torch.autograd
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output


net = Net().to(device)
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())

input = torch.randn(1, 1, 32, 32, device=device)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10, device=device))

output = net(input)
target = torch.randn(10, device=device)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn.__class__.__name__)
print(loss.grad_fn.next_functions[0][0].__class__.__name__)

net.zero_grad()
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)
conv1_grad = net.conv1.bias.grad.clone()

learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

optimizer = optim.SGD(net.parameters(), lr=0.01)
losses = []
for _ in range(5):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

# Freezing parameters (the blitz's exclusion from the DAG)
net.zero_grad(set_to_none=True)
for param in net.parameters():
    param.requires_grad = False
net.fc3 = nn.Linear(84, 10).to(device)
frozen_opt = optim.SGD(net.parameters(), lr=1e-2, momentum=0.9)
net(input).sum().backward()

# Checks of what it computed.
assert torch.equal(a.grad, 9 * a.detach() ** 2) and torch.equal(b.grad, -2 * b.detach())
assert len(params) == 10 and params[0].shape == (6, 1, 5, 5) and out.shape == (1, 10)
assert loss.grad_fn.__class__.__name__ == "MseLossBackward0" and conv1_grad.shape == (6,)
assert conv1_grad.device.type == device and losses[-1] < losses[0], losses
assert net.fc1.weight.grad is None and net.fc3.weight.grad is not None
print("checks passed")
