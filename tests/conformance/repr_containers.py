# repr of Sequential / ModuleList / ModuleDict, nested, empty and with None children.
import torch.nn as nn
from collections import OrderedDict

print(nn.Sequential())
print(nn.ModuleList())
print(nn.ModuleDict())
print(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)))
print(nn.Sequential(OrderedDict([('conv', nn.Conv2d(1, 2, 3)), ('act', nn.ReLU())])))
print(nn.ModuleList([nn.Linear(1, 1), nn.ModuleList([nn.ReLU(), nn.Tanh()])]))
print(nn.ModuleDict({'enc': nn.Linear(4, 2), 'dec': nn.Sequential(nn.Linear(2, 4), nn.Sigmoid())}))
deep = nn.Sequential(nn.Sequential(nn.Sequential(nn.Linear(1, 1))))
print(deep)
print(repr(nn.ReLU()), str(nn.Linear(1, 2)))
