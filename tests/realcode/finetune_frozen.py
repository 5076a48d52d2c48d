# source: https://pytorch.org/tutorials/beginner/transfer_learning_tutorial.html (Transfer Learning for Computer
#         Vision: "ConvNet as fixed feature extractor")
# changed: the pretrained resnet18 and the ants/bees images replaced by a small CNN "pretrained" here on
#          synthetic data and a synthetic two-class task; 2 epochs instead of 25; StepLR kept; checks at the end
#          (frozen layers unchanged and without gradients, the new head on the device and trained, loss falls).
# reference: real
import copy

import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler

torch.manual_seed(0)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                      nn.Flatten())
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(self.features(x))


def batches(n, classes):
    out = []
    for _ in range(n):
        y = torch.randint(0, classes, (16,))
        x = torch.randn(16, 3, 16, 16) * 0.5
        x[:, 0] += y.view(-1, 1, 1).float()
        out.append((x, y))
    return out


model_conv = Backbone()  # "pretrained": a few steps on a 10-class task
opt = optim.SGD(model_conv.parameters(), lr=0.05)
for x, y in batches(10, 10):
    opt.zero_grad()
    nn.functional.cross_entropy(model_conv(x), y).backward()
    opt.step()
opt.zero_grad(set_to_none=True)
before = copy.deepcopy(model_conv.features.state_dict())

for param in model_conv.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
model_conv = model_conv.to(device)
criterion = nn.CrossEntropyLoss()
optimizer_conv = optim.SGD(model_conv.fc.parameters(), lr=0.05, momentum=0.9)
exp_lr_scheduler = lr_scheduler.StepLR(optimizer_conv, step_size=1, gamma=0.1)

train = batches(12, 2)
epoch_loss = []
for epoch in range(2):
    model_conv.train()
    running = 0.0
    for inputs, labels in train:
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer_conv.zero_grad()
        with torch.set_grad_enabled(True):
            outputs = model_conv(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer_conv.step()
        running += loss.item()
    exp_lr_scheduler.step()
    epoch_loss.append(running / len(train))
    print(f"epoch {epoch} loss {epoch_loss[-1]:.4f} lr {exp_lr_scheduler.get_last_lr()[0]:.4f}")

# Checks of what it computed.
after = model_conv.features.state_dict()
assert all(torch.equal(before[k], after[k].cpu()) for k in before)
assert all(p.grad is None for p in model_conv.features.parameters())
assert model_conv.fc.weight.device == device and model_conv.fc.weight.grad is not None
assert epoch_loss[1] < epoch_loss[0] and abs(exp_lr_scheduler.get_last_lr()[0] - 0.0005) < 1e-12, epoch_loss
print("checks passed")
