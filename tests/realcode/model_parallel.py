# source: https://pytorch.org/tutorials/intermediate/model_parallel_tutorial.html (Single-Machine Model
#         Parallel Best Practices)
# changed: ResNet50 (torchvision) replaced by the tutorial's ToyModel plus a two-stage MLP split the same way,
#          and the pipelining example kept with small sizes (batch 40, split 10, 3 training steps); the timeit
#          plots left out; checks at the end (parameters and activations on the GPUs the tutorial puts them,
#          pipelined and plain forward agree, loss falls).
# reference: none: needs two CUDA devices (DeviceScope's simulated GPUs)
import torch
import torch.nn as nn
import torch.optim as optim

assert torch.cuda.device_count() >= 2


class ToyModel(nn.Module):
    def __init__(self):
        super(ToyModel, self).__init__()
        self.net1 = torch.nn.Linear(10, 10).to('cuda:0')
        self.relu = torch.nn.ReLU()
        self.net2 = torch.nn.Linear(10, 5).to('cuda:1')

    def forward(self, x):
        x = self.relu(self.net1(x.to('cuda:0')))
        return self.net2(x.to('cuda:1'))


model = ToyModel()
loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.001)
optimizer.zero_grad()
outputs = model(torch.randn(20, 10))
labels = torch.randn(20, 5).to('cuda:1')
loss_fn(outputs, labels).backward()
optimizer.step()


class ModelParallelMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq1 = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU()).to('cuda:0')
        self.seq2 = nn.Sequential(nn.Linear(128, 64), nn.ReLU()).to('cuda:1')
        self.fc = nn.Linear(64, 10).to('cuda:1')

    def forward(self, x):
        x = self.seq2(self.seq1(x).to('cuda:1'))
        return self.fc(x)


class PipelineParallelMLP(ModelParallelMLP):
    def __init__(self, split_size=10, *args, **kwargs):
        super(PipelineParallelMLP, self).__init__(*args, **kwargs)
        self.split_size = split_size

    def forward(self, x):
        splits = iter(x.split(self.split_size, dim=0))
        s_next = next(splits)
        s_prev = self.seq1(s_next).to('cuda:1')
        ret = []
        for s_next in splits:
            s_prev = self.seq2(s_prev)
            ret.append(self.fc(s_prev))
            s_prev = self.seq1(s_next).to('cuda:1')
        s_prev = self.seq2(s_prev)
        ret.append(self.fc(s_prev))
        return torch.cat(ret)


torch.manual_seed(0)
inputs = torch.randn(40, 64).to('cuda:0')
targets = torch.randint(0, 10, (40,)).to('cuda:1')
model = PipelineParallelMLP(split_size=10)
plain = ModelParallelMLP.forward(model, inputs)
piped = model(inputs)
optimizer = optim.SGD(model.parameters(), lr=0.1)
losses = []
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(inputs), targets)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print("losses:", [round(l, 4) for l in losses])

# Checks of what it computed.
assert outputs.device == torch.device('cuda:1') and model.seq1[0].weight.device == torch.device('cuda:0')
assert model.fc.weight.device == torch.device('cuda:1') and model.seq1[0].weight.grad.device.index == 0
assert piped.device == torch.device('cuda:1') and torch.allclose(piped, plain, atol=1e-5)
assert losses[-1] < losses[0], losses
print("checks passed")
