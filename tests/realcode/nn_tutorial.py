# source: https://pytorch.org/tutorials/beginner/nn_tutorial.html (What is torch.nn really?)
# changed: MNIST replaced by 2000 synthetic 28x28 images whose class sets a bright band (no download, no
#          pickle/gzip); epochs cut to 2; the from-scratch, nn.Module, optim, Dataset/DataLoader, CNN and
#          "Using your GPU" stages all run; checks at the end (each stage's loss falls / accuracy rises).
# reference: real
import math

import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def synthetic(n):
    y = torch.randint(0, 10, (n,))
    x = torch.rand(n, 784) * 0.3
    for i, c in enumerate(y.tolist()):
        x[i, c * 56:(c * 56) + 56] += 0.7
    return x, y


x_train, y_train = synthetic(2000)
x_valid, y_valid = synthetic(400)
n, c = x_train.shape
results = {}

# Neural net from scratch (without torch.nn)
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 64
xb, yb = x_train[0:bs], y_train[0:bs]
start = (loss_func(model(xb), yb).item(), accuracy(model(xb), yb).item())
lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
results["scratch"] = (start, (loss_func(model(x_valid), y_valid).item(), accuracy(model(x_valid), y_valid).item()))


# Refactor using nn.Module, nn.Linear, optim, Dataset, DataLoader
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


loss_func = F.cross_entropy
train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True), DataLoader(valid_ds, batch_size=bs * 2))


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    history = []
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = sum(l * k for l, k in zip(losses, nums)) / sum(nums)
        print(epoch, val_loss)
        history.append(val_loss)
    return history


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model = Mnist_Logistic()
opt = optim.SGD(model.parameters(), lr=lr)
results["logistic"] = fit(epochs, model, loss_func, opt, train_dl, valid_dl)


# Switch to CNN, nn.Sequential, wrapping the DataLoader, Using your GPU
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


def preprocess(x, y):
    return x.view(-1, 1, 28, 28).to(dev), y.to(dev)


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
train_dl = WrappedDataLoader(train_dl, preprocess)
valid_dl = WrappedDataLoader(valid_dl, preprocess)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
model.to(dev)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
results["cnn"] = fit(epochs, model, loss_func, opt, train_dl, valid_dl)

# Checks of what it computed.
(l0, a0), (l1, a1) = results["scratch"]
assert l1 < l0 and a1 > a0 and a1 > 0.8, results["scratch"]
assert results["logistic"][-1] < 1.0, results["logistic"]
assert results["cnn"][-1] < 2.2 and next(model.parameters()).device.type == dev.type, results["cnn"]
print("checks passed")
