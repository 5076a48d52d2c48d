# repr of activations, pooling, flatten and loss modules.
import torch.nn as nn

print(nn.Tanh(), nn.Sigmoid(), nn.GELU(), nn.Identity())
print(nn.Softmax(dim=1), nn.LogSoftmax(dim=-1))
print(nn.Flatten(), nn.Flatten(0, -1))
print(nn.MaxPool2d(2), nn.MaxPool2d(3, stride=2, padding=1))
print(nn.AvgPool2d(2))
print(nn.MSELoss(), nn.CrossEntropyLoss())
