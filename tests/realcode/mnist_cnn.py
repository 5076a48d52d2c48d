# source: https://github.com/pytorch/examples/blob/main/mnist/main.py (Basic MNIST Example: two-conv CNN with
#         Dropout, max_pool2d, flatten, log_softmax + nll_loss, Adadelta and StepLR)
# changed: MNIST replaced by 192 synthetic 28x28 images whose class is a bright band of columns (normalized with
#          the example's mean/std); 2 epochs instead of 14, log_interval 1 instead of 10, save_model on (to a
#          temporary folder); argparse replaced by a dict of its defaults (no mps branch, no DataLoader workers);
#          checks at the end (loss falls, accuracy rises, Adadelta/StepLR state, shapes, devices, the saved file).
# reference: real
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args["log_interval"] == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))
            if args["dry_run"]:
                break


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()  # sum up batch loss
            pred = output.argmax(dim=1, keepdim=True)  # get the index of the max log-probability
            correct += pred.eq(target.view_as(pred)).sum().item()

    test_loss /= len(test_loader.dataset)

    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(test_loader.dataset),
        100. * correct / len(test_loader.dataset)))
    return test_loss, correct / len(test_loader.dataset)


def synthetic_mnist(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.3
    for i in range(n):
        col = int(labels[i]) * 2 + 4
        images[i, 0, :, col:col + 2] += 0.7
    return TensorDataset((images - 0.1307) / 0.3081, labels)


args = {"batch_size": 64, "test_batch_size": 1000, "epochs": 2, "lr": 1.0, "gamma": 0.7, "log_interval": 1,
        "dry_run": False, "seed": 1, "save_model": True}
use_cuda = torch.cuda.is_available()
torch.manual_seed(args["seed"])
device = torch.device("cuda" if use_cuda else "cpu")
print("Using Device: {}\n".format(device))

train_kwargs = {'batch_size': args["batch_size"]}
test_kwargs = {'batch_size': args["test_batch_size"]}
if use_cuda:
    cuda_kwargs = {'pin_memory': True, 'shuffle': True}
    train_kwargs.update(cuda_kwargs)
    test_kwargs.update(cuda_kwargs)

train_loader = DataLoader(synthetic_mnist(192), **train_kwargs)
test_loader = DataLoader(synthetic_mnist(128), **test_kwargs)

model = Net().to(device)
optimizer = optim.Adadelta(model.parameters(), lr=args["lr"])

scheduler = StepLR(optimizer, step_size=1, gamma=args["gamma"])
history = [test(model, device, test_loader)]
for epoch in range(1, args["epochs"] + 1):
    train(args, model, device, train_loader, optimizer, epoch)
    history.append(test(model, device, test_loader))
    scheduler.step()

path = os.path.join(tempfile.mkdtemp(), "mnist_cnn.pt")
if args["save_model"]:
    torch.save(model.state_dict(), path)

# Checks of what it computed.
assert history[-1][0] < history[0][0] * 0.7, history
assert history[-1][1] > max(0.5, history[0][1] + 0.3), history
state = optimizer.state[model.conv1.weight]
assert sorted(state) == ["acc_delta", "square_avg", "step"] and float(state["step"]) == 2 * 3
assert state["square_avg"].device.type == device.type and state["acc_delta"].shape == (32, 1, 3, 3)
assert abs(optimizer.param_groups[0]["lr"] - 1.0 * 0.7 ** 2) < 1e-9
assert model.fc1.weight.shape == (128, 9216) and next(model.parameters()).device.type == device.type
loaded = torch.load(path, map_location="cpu")
assert sorted(loaded) == sorted(model.state_dict()) and loaded["fc2.bias"].device.type == "cpu"
assert torch.equal(loaded["conv2.weight"], model.conv2.weight.detach().cpu())
print("checks passed")
