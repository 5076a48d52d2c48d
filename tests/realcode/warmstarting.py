# source: https://pytorch.org/tutorials/recipes/recipes/warmstarting_model_using_parameters_from_a_different_model.html
#         (Warmstarting model using parameters from a different model in PyTorch)
# changed: the file goes to a temporary folder; checks at the end (strict=False loads the shared layers and
#          reports the missing/unexpected keys; the loaded layers equal model A's).
# reference: real
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class NetA(nn.Module):
    def __init__(self):
        super(NetA, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


netA = NetA()


class NetB(nn.Module):
    def __init__(self):
        super(NetB, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
        self.extra = nn.Linear(10, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return self.extra(x)


netB = NetB()
PATH = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(netA.state_dict(), PATH)
result = netB.load_state_dict(torch.load(PATH, weights_only=True), strict=False)
print(result)

# Checks of what it computed.
assert result.missing_keys == ["extra.weight", "extra.bias"] and result.unexpected_keys == []
assert all(torch.equal(getattr(netB, n).weight, getattr(netA, n).weight) for n in ("conv1", "conv2", "fc1", "fc3"))
try:
    netB.load_state_dict(torch.load(PATH, weights_only=True))
    raise AssertionError("strict loading should fail")
except RuntimeError as e:
    assert 'Missing key(s) in state_dict: "extra.weight", "extra.bias"' in str(e), e
assert netB(torch.randn(2, 3, 32, 32)).shape == (2, 2)
print("checks passed")
