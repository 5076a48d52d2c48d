# source: https://pytorch.org/tutorials/beginner/blitz/cifar10_tutorial.html (Training a Classifier)
# changed: CIFAR-10 replaced by 800 synthetic 3x32x32 images whose class sets a colour/position pattern (no
#          torchvision, no download); batch 8, lr 0.01, 4 epochs instead of batch 4, lr 0.001, 2 epochs; the
#          "Training on GPU" section's net.to(device) is used when a device exists; checks at the end (loss
#          falls, accuracy above chance, per-class accuracy computed, reloaded weights predict the same).
# reference: real
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')


def synthetic_cifar(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.randn(n, 3, 32, 32) * 0.3
    for i, c in enumerate(labels.tolist()):
        images[i, c % 3, (c * 3):(c * 3) + 3, :] += 1.5
    return TensorDataset(images, labels)


batch_size = 8
trainloader = DataLoader(synthetic_cifar(800), batch_size=batch_size, shuffle=True, num_workers=0)
testloader = DataLoader(synthetic_cifar(200), batch_size=batch_size, shuffle=False, num_workers=0)
device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(device)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)  # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
net.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

epoch_losses = []
for epoch in range(4):
    running_loss, total = 0.0, 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data[0].to(device), data[1].to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        total += loss.item()
        if i % 25 == 24:
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 25:.3f}')
            running_loss = 0.0
    epoch_losses.append(total / len(trainloader))
print('Finished Training')

PATH = os.path.join(tempfile.mkdtemp(), 'cifar_net.pth')
torch.save(net.state_dict(), PATH)

dataiter = iter(testloader)
images, labels = next(dataiter)
print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
net2 = Net()
net2.load_state_dict(torch.load(PATH, weights_only=True))
outputs = net2(images)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))

correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data[0].to(device), data[1].to(device)
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f'Accuracy of the network on the {total} test images: {100 * correct // total} %')

correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images, labels = data[0].to(device), data[1].to(device)
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / max(total_pred[classname], 1)
    print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')

# Checks of what it computed.
assert epoch_losses[-1] < epoch_losses[0] * 0.8, epoch_losses
assert correct / total > 0.3, correct / total
assert sum(total_pred.values()) == 200 and next(net.parameters()).device == device
with torch.no_grad():
    assert torch.equal(net2(images.cpu()).argmax(1), net(images).argmax(1).cpu())
print("checks passed")
