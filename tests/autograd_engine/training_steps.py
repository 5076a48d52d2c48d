# Small training loops of the kinds the realcode corpus runs (embeddings + n-gram MLP, a GRU tagger, a CNN with
# batch norm, a transformer encoder layer, Adam with weight decay), on a simulated GPU: final parameters to the
# last bit and the allocator's trace, for tests/tools/run_autograd_engine_agreement.py (see backward_paths.py).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import graph

print("engine:", "python" if graph._PY_ENGINE else "C++")
dev = "cuda"


def digest(model):
    for name, p in model.named_parameters():
        print(name, " ".join(float(v).hex() for v in p.detach().reshape(-1)[:6].tolist()),
              float(p.detach().double().sum()).hex())


def loop(model, batches, opt):
    for x, y in batches:
        opt.zero_grad()
        loss = model(x, y)
        loss.backward()
        opt.step()
    digest(model)


class NGram(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 8)
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 30)

    def forward(self, x, y):
        h = F.relu(self.fc1(self.emb(x).view(x.shape[0], -1)))
        return F.nll_loss(F.log_softmax(self.fc2(h), dim=1), y)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.rnn = nn.GRU(6, 10, batch_first=True)
        self.out = nn.Linear(10, 4)

    def forward(self, x, y):
        h, _ = self.rnn(self.emb(x))
        return F.cross_entropy(self.out(h).reshape(-1, 4), y.reshape(-1))


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 3)

    def forward(self, x, y):
        h = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return F.cross_entropy(F.dropout(self.fc(h.flatten(1)), 0.2, self.training), y)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, batch_first=True)
        self.head = nn.Linear(8, 2)

    def forward(self, x, y):
        return F.mse_loss(self.head(self.layer(x)).mean(1), y)


torch.cuda.memory._record_memory_history(max_entries=200000)
torch.manual_seed(0)
m = NGram().to(dev)
loop(m, [(torch.randint(0, 30, (5, 2), device=dev), torch.randint(0, 30, (5,), device=dev)) for _ in range(4)],
     torch.optim.SGD(m.parameters(), lr=0.1))
m = Tagger().to(dev)
loop(m, [(torch.randint(0, 20, (3, 7), device=dev), torch.randint(0, 4, (3, 7), device=dev)) for _ in range(3)],
     torch.optim.Adam(m.parameters(), lr=0.01))
m = Cnn().to(dev)
loop(m, [(torch.randn(4, 1, 8, 8, device=dev), torch.randint(0, 3, (4,), device=dev)) for _ in range(3)],
     torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9))
m = Encoder().to(dev)
loop(m, [(torch.randn(2, 5, 8, device=dev), torch.randn(2, 2, device=dev)) for _ in range(3)],
     torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1))
snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    blocks = {}  # addresses by first use: the simulated device's base address changes from run to run
    events = [f"{e['action']}:b{blocks.setdefault(e['addr'], len(blocks))}:{e['size']}" for e in trace
              if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 8):
        print("  " + " ".join(events[k:k + 8]))
