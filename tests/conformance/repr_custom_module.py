# repr of user modules: class name, children in registration order, extra_repr, repeated layers.
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(20, 10)
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer('mean', torch.zeros(1))
        self.plain = torch.zeros(3)

    def forward(self, x):
        return self.fc(self.pool(self.conv1(x)))

class WithExtra(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.inner = nn.Identity()

    def extra_repr(self):
        return f'k={self.k}'

class Leaf(nn.Module):
    def extra_repr(self):
        return 'line one\nline two'

class Empty(nn.Module):
    pass

print(Net())
print(WithExtra(3))
print(Leaf())
print(Empty())
print(nn.Sequential(Leaf(), WithExtra(1)))
print(nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]))
