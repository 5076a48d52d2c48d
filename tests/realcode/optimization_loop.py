# source: https://pytorch.org/tutorials/beginner/basics/optimization_tutorial.html (Optimizing Model Parameters)
# changed: FashionMNIST replaced by 640 synthetic 28x28 images whose class sets a bright band; 3 epochs instead
#          of 10; the model moves to the GPU when one exists; checks at the end (loss falls, accuracy rises).
# reference: real
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


def synthetic(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.5
    rows = (labels * 2 + 4).tolist()
    for i, r in enumerate(rows):
        images[i, 0, r:r + 2] += 0.5
    return TensorDataset(images, labels)


train_dataloader = DataLoader(synthetic(640), batch_size=64, shuffle=True)
test_dataloader = DataLoader(synthetic(128), batch_size=64)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
learning_rate = 1e-1
batch_size = 64
epochs = 3
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 5 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return test_loss, correct


history = [test_loop(test_dataloader, model, loss_fn)]
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    history.append(test_loop(test_dataloader, model, loss_fn))
print("Done!")

# Checks of what it computed.
assert history[-1][0] < history[0][0] - 0.2 and history[-1][1] > 0.5, history
assert all(p.device.type == device for p in model.parameters())
assert all(p.grad is None or float(p.grad.abs().sum()) == 0.0 for p in model.parameters())
print("checks passed")
