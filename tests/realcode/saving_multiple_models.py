# source: https://pytorch.org/tutorials/recipes/recipes/saving_multiple_models_in_one_file.html (Saving and loading
#         multiple models in one file using PyTorch)
# changed: before saving, netA and netB train 5 SGD steps each on random 3x32x32 batches on the GPU when one exists
#          (so the optimizers have momentum buffers to save); the file goes to a temporary folder; the new models
#          are moved to the device before their optimizers are built (the recipe's "if you wish to use the GPU"
#          note); checks at the end (every tensor, optimizer state included, comes back equal and on the device,
#          eval()/train() modes, training goes on from the loaded state); torch.load(PATH) without the recipe's
#          weights_only=True (2.6's default anyway; 1.13's weights-only unpickler rejects the optimizer's floats).
# reference: real
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
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


netA = Net().to(device)
netB = Net().to(device)

optimizerA = optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)

criterion = nn.CrossEntropyLoss()
inputs = torch.randn(8, 3, 32, 32).to(device)
labels = torch.randint(0, 10, (8,)).to(device)
losses = []
for _ in range(5):
    for net, optimizer in ((netA, optimizerA), (netB, optimizerB)):
        optimizer.zero_grad()
        loss = criterion(net(inputs), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

# Specify a path to save to
PATH = os.path.join(tempfile.mkdtemp(), "model.pt")

torch.save({
            'modelA_state_dict': netA.state_dict(),
            'modelB_state_dict': netB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)

modelA = Net().to(device)
modelB = Net().to(device)
optimModelA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimModelB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimModelA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimModelB.load_state_dict(checkpoint['optimizerB_state_dict'])

modelA.eval()
modelB.eval()
eval_flags = (modelA.training, modelB.training)
# - or -
modelA.train()
modelB.train()

# Checks of what it computed.
assert sorted(checkpoint) == ['modelA_state_dict', 'modelB_state_dict', 'optimizerA_state_dict',
                              'optimizerB_state_dict']
assert eval_flags == (False, False) and modelA.training and modelB.training
for saved, loaded in ((netA, modelA), (netB, modelB)):
    for (name, a), (name2, b) in zip(saved.state_dict().items(), loaded.state_dict().items()):
        assert name == name2 and torch.equal(a, b) and b.device.type == device.type, name
assert not torch.equal(modelA.conv1.weight, modelB.conv1.weight)  # two different models in one file
for saved, loaded in ((optimizerA, optimModelA), (optimizerB, optimModelB)):
    for p_saved, p_loaded in zip(saved.param_groups[0]["params"], loaded.param_groups[0]["params"]):
        buf_saved = saved.state[p_saved]["momentum_buffer"]
        buf_loaded = loaded.state[p_loaded]["momentum_buffer"]
        assert torch.equal(buf_saved, buf_loaded) and buf_loaded.device == p_loaded.device
    assert loaded.param_groups[0]["lr"] == 0.001 and loaded.param_groups[0]["momentum"] == 0.9
assert checkpoint['optimizerA_state_dict']['state'][0]['momentum_buffer'].shape == (6, 3, 5, 5)
# One more step from the loaded state does exactly what one more step of the saved pair does.
for net, optimizer in ((netA, optimizerA), (modelA, optimModelA)):
    optimizer.zero_grad()
    criterion(net(inputs), labels).backward()
    optimizer.step()
assert torch.allclose(netA.fc3.weight, modelA.fc3.weight) and modelA.fc3.weight.device.type == device.type
assert losses[-2] < losses[0] and losses[-1] < losses[1], losses
print("checks passed")
