# Train, save a checkpoint (model and optimizer state dicts, epoch), then resume into a fresh model and
# optimizer with torch.load, as a job restarted by a scheduler does, and train on.
# expect-exit: 0
# expect-stdout: resumed at epoch 2
# expect-owners: model.fc.weight, resumed.fc.weight, resumed_opt.state[resumed.fc.weight].exp_avg
import os
import sys
import tempfile

import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 5)
        self.register_buffer("class_weights", torch.ones(5))

    def forward(self, x):
        return self.fc(x)


def train(model, opt, x, y, epochs):
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y, weight=model.class_weights)
        loss.backward()
        opt.step()
    return loss.item()


torch.manual_seed(0)
x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))
model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train(model, opt, x, y, 2)
path = os.path.join(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(), "ckpt.pt")
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 2}, path)

checkpoint = torch.load(path)
resumed = Classifier()
resumed.load_state_dict(checkpoint["model"])
resumed_opt = torch.optim.Adam(resumed.parameters(), lr=1e-2)
resumed_opt.load_state_dict(checkpoint["optimizer"])
del checkpoint
print("resumed at epoch %d loss %.4f" % (2, train(resumed, resumed_opt, x, y, 2)))
assert torch.equal(torch.load(path)["model"]["fc.weight"], model.fc.weight.detach())
