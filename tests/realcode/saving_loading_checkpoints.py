# source: https://pytorch.org/tutorials/beginner/saving_loading_models.html (Saving and Loading Models)
# changed: the tutorial's snippets assembled into one run on the tutorial's TheModelClass, with synthetic inputs
#          and a few training steps so the checkpoint holds optimizer state; files in a temporary folder; the
#          device sections use the second GPU when there are two; checks at the end.
# reference: none: uses the weights_only=True default and optimizer-state loading of PyTorch 2.6
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
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


model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
inputs, labels = torch.randn(4, 3, 32, 32), torch.tensor([1, 2, 3, 4])
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.CrossEntropyLoss()(model(inputs), labels)
    loss.backward()
    optimizer.step()

print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

d = tempfile.mkdtemp()
PATH = os.path.join(d, "model.pt")

# Save/Load state_dict (Recommended)
torch.save(model.state_dict(), PATH)
model2 = TheModelClass()
model2.load_state_dict(torch.load(PATH, weights_only=True))
model2.eval()

# Saving & Loading a General Checkpoint for Inference and/or Resuming Training
CKPT = os.path.join(d, "ckpt.tar")
torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict(),
            "loss": loss}, CKPT)
model3 = TheModelClass()
optimizer3 = optim.SGD(model3.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(CKPT, weights_only=True)
model3.load_state_dict(checkpoint["model_state_dict"])
optimizer3.load_state_dict(checkpoint["optimizer_state_dict"])
epoch = checkpoint["epoch"]
loss3 = checkpoint["loss"]
model3.train()

# Saving Multiple Models in One File
modelA, modelB = TheModelClass(), TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
MULTI = os.path.join(d, "multi.tar")
torch.save({"modelA_state_dict": modelA.state_dict(), "modelB_state_dict": modelB.state_dict(),
            "optimizerA_state_dict": optimizerA.state_dict(), "optimizerB_state_dict": optimizerB.state_dict()},
           MULTI)
checkpoint = torch.load(MULTI, weights_only=True)
modelA2, modelB2 = TheModelClass(), TheModelClass()
modelA2.load_state_dict(checkpoint["modelA_state_dict"])
modelB2.load_state_dict(checkpoint["modelB_state_dict"])

# Saving & Loading Model Across Devices
device = torch.device("cpu")
model4 = TheModelClass()
model4.load_state_dict(torch.load(PATH, map_location=device, weights_only=True))
gpu_devices = []
if torch.cuda.is_available():
    GPU = os.path.join(d, "gpu.pt")
    last = torch.cuda.device_count() - 1
    model.to(f"cuda:{last}")
    torch.save(model.state_dict(), GPU)  # saved on the last GPU
    cpu_sd = torch.load(GPU, map_location="cpu", weights_only=True)
    gpu_devices.append({t.device.type for t in cpu_sd.values()})
    model5 = TheModelClass()
    model5.load_state_dict(torch.load(GPU, weights_only=True))  # tensors come back on cuda:last, copied in
    model5.to(torch.device("cuda"))
    gpu_devices.append({p.device for p in model5.parameters()})
    remapped = torch.load(GPU, map_location={f"cuda:{last}": "cuda:0"}, weights_only=True)
    gpu_devices.append({t.device for t in remapped.values()})
    model.to("cpu")

# Checks of what it computed.
model.eval()
model3.eval()
with torch.no_grad():
    assert torch.equal(model2(inputs), model(inputs)) and torch.equal(model3(inputs), model(inputs))
assert epoch == 3 and torch.equal(loss3.detach(), loss.detach()) and loss3.requires_grad and loss3.is_leaf
mom = optimizer3.state_dict()["state"][0]["momentum_buffer"]
assert torch.equal(mom, optimizer.state_dict()["state"][0]["momentum_buffer"])
assert torch.equal(modelB2.fc3.weight, modelB.fc3.weight) and torch.equal(modelA2.conv1.bias, modelA.conv1.bias)
assert torch.equal(model4.fc1.weight, model.fc1.weight)
if gpu_devices:
    assert gpu_devices[0] == {"cpu"} and gpu_devices[1] == {torch.device("cuda:0")}
    assert gpu_devices[2] == {torch.device("cuda:0")}, gpu_devices
print("checks passed")
