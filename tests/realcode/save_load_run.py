# source: https://pytorch.org/tutorials/beginner/basics/saveloadrun_tutorial.html (Save and Load the Model)
# changed: torchvision's vgg16 replaced by a small CNN defined here (no torchvision, no download); the files go
#          to a temporary folder; checks at the end (reloaded weights and outputs are identical).
# reference: real
import os
import tempfile

import torch
from torch import nn


class SmallVGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16 * 4 * 4, 32), nn.ReLU(), nn.Dropout(),
                                        nn.Linear(32, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


d = tempfile.mkdtemp()
model = SmallVGG()
torch.save(model.state_dict(), os.path.join(d, "model_weights.pth"))

model2 = SmallVGG()  # we do not specify ``weights``, i.e. create untrained model
model2.load_state_dict(torch.load(os.path.join(d, "model_weights.pth"), weights_only=True))
model2.eval()

# Saving and Loading Models with Shapes
torch.save(model, os.path.join(d, "model.pth"))
model3 = torch.load(os.path.join(d, "model.pth"), weights_only=False)

# Checks of what it computed.
x = torch.randn(2, 3, 16, 16)
model.eval()
model3.eval()
with torch.no_grad():
    ref = model(x)
    assert torch.equal(model2(x), ref) and torch.equal(model3(x), ref)
assert type(model3) is SmallVGG and list(model3.state_dict()) == list(model.state_dict())
assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), model2.state_dict().values()))
print("checks passed")
