# source: https://github.com/pytorch/examples/blob/main/mnist_rnn/main.py
# changed: MNIST replaced by 512 synthetic 28x28 images whose class is a bright band of columns (each row the
#          LSTM reads shows it); 4 epochs instead of 14, Adadelta lr 1.0 instead of 0.1 (24x fewer steps); argparse
#          replaced by a dict of its defaults; checks at the end
#          (loss falls, accuracy rises, LSTM/Dropout2d/Adadelta/StepLR state, devices).
# reference: real
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore", message="dropout2d")  # the example feeds (N, 64) to Dropout2d


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.rnn = nn.LSTM(input_size=28, hidden_size=64, batch_first=True)
        self.batchnorm = nn.BatchNorm1d(64)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, input):
        # Shape of input is (batch_size,1, 28, 28)
        # converting shape of input to (batch_size, 28, 28)
        # as required by RNN when batch_first is set True
        input = input.reshape(-1, 28, 28)
        output, hidden = self.rnn(input)

        # RNN output shape is (seq_len, batch, input_size)
        # Get last output of RNN
        output = output[:, -1, :]
        output = self.batchnorm(output)
        output = self.dropout1(output)
        output = self.fc1(output)
        output = F.relu(output)
        output = self.dropout2(output)
        output = self.fc2(output)
        output = F.log_softmax(output, dim=1)
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


def test(args, model, device, test_loader):
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


args = {"batch_size": 64, "test_batch_size": 128, "epochs": 4, "lr": 1.0, "gamma": 0.7, "log_interval": 4,
        "dry_run": False, "seed": 1}
torch.manual_seed(args["seed"])
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

train_loader = DataLoader(synthetic_mnist(512), batch_size=args["batch_size"], shuffle=True)
test_loader = DataLoader(synthetic_mnist(128), batch_size=args["test_batch_size"], shuffle=True)

model = Net().to(device)
optimizer = optim.Adadelta(model.parameters(), lr=args["lr"])

scheduler = StepLR(optimizer, step_size=1, gamma=args["gamma"])
history = [test(args, model, device, test_loader)]
for epoch in range(1, args["epochs"] + 1):
    train(args, model, device, train_loader, optimizer, epoch)
    history.append(test(args, model, device, test_loader))
    scheduler.step()

# Checks of what it computed.
assert history[-1][0] < history[0][0] * 0.7, history
assert history[-1][1] > max(0.5, history[0][1] + 0.3), history
state = optimizer.state[model.rnn.weight_ih_l0]
assert sorted(state) == ["acc_delta", "square_avg", "step"] and float(state["step"]) == 4 * 8
assert state["square_avg"].device.type == device.type and state["acc_delta"].shape == (256, 28)
assert abs(optimizer.param_groups[0]["lr"] - 1.0 * 0.7 ** 4) < 1e-9
assert model.rnn.weight_hh_l0.shape == (256, 64) and next(model.parameters()).device.type == device.type
print("checks passed")
