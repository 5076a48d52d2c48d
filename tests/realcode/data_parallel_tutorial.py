# source: https://pytorch.org/tutorials/beginner/blitz/data_parallel_tutorial.html (Optional: Data Parallelism)
# changed: nothing in the tutorial's code; run on 3 simulated GPUs under DeviceScope (CPU only under real
#          PyTorch, where DataParallel is not used, as the tutorial's own branch says); a short training loop and
#          checks added at the end (every batch split across the GPUs, outputs gathered on cuda:0, gradients
#          summed into the original parameters, the loss falls; under DeviceScope the recorded copies).
# reference: real
# args: --sim-devices 3
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

# Parameters and DataLoaders
input_size = 5
output_size = 2

batch_size = 30
data_size = 100

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class RandomDataset(Dataset):

    def __init__(self, size, length):
        self.len = length
        self.data = torch.randn(length, size)

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return self.len


rand_loader = DataLoader(dataset=RandomDataset(input_size, data_size),
                         batch_size=batch_size, shuffle=True)

seen_batches = []


class Model(nn.Module):
    # Our model

    def __init__(self, input_size, output_size):
        super(Model, self).__init__()
        self.fc = nn.Linear(input_size, output_size)

    def forward(self, input):
        output = self.fc(input)
        print("\tIn Model: input size", input.size(),
              "output size", output.size())
        seen_batches.append((input.size(0), str(input.device)))
        return output


model = Model(input_size, output_size)
if torch.cuda.device_count() > 1:
    print("Let's use", torch.cuda.device_count(), "GPUs!")
    # dim = 0 [30, xxx] -> [10, ...], [10, ...], [10, ...] on 3 GPUs
    model = nn.DataParallel(model)

model.to(device)

for data in rand_loader:
    input = data.to(device)
    output = model(input)
    print("Outside: input size", input.size(),
          "output_size", output.size())

# ---- added: a few training steps through the same wrapper, then checks
n_gpus = torch.cuda.device_count()
inner = model.module if isinstance(model, nn.DataParallel) else model
target_w = torch.arange(10, dtype=torch.float32).reshape(2, 5) / 10
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for epoch in range(15):
    for data in rand_loader:
        input = data.to(device)
        loss = ((model(input) - input @ target_w.to(device).t()) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

assert output.shape == (data_size % batch_size, output_size) and output.device == device
assert losses[-1] < losses[0] * 0.1, losses[::4]
assert inner.fc.weight.grad.device == device and inner.fc.weight.device == device
if n_gpus > 1:
    assert list(model.state_dict()) == ["module.fc.weight", "module.fc.bias"]
    first = seen_batches[:n_gpus]
    assert [n for n, _ in first] == [batch_size // n_gpus] * n_gpus, first
    assert [d for _, d in first] == [f"cuda:{i}" for i in range(n_gpus)], first
    try:
        import devicescope.engine as dse
    except ImportError:
        dse = None
    if dse is not None:
        owners = [t["owner"] for t in dse.transfers()]
        assert "module.fc.weight -> cuda:1" in owners and "module.fc.weight -> cuda:2" in owners
        assert "module.fc.weight.grad -> cuda:0" in owners
        print(len(owners), "recorded copies, e.g.", owners[-6:])
else:
    assert all(n <= batch_size for n, _ in seen_batches)
print("checks passed")
