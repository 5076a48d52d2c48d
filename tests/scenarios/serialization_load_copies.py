# torch.load onto a GPU copies as PyTorch does: each storage of the checkpoint is read into (pageable) host memory
# and copied to the device in one host-to-device copy (restore_location -> storage.cuda()), whatever the
# map_location form; map_location="cpu" copies nothing; tensors that shared a storage in the file share one
# after loading (a DeviceScope file writes one storage per tensor).
import io

import torch
from torch import nn
import devicescope.engine as dse

model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
sizes = {k: v.numel() * v.element_size() for k, v in model.state_dict().items()}
print("storages:", sizes)


def load_and_show(label, **kw):
    buf.seek(0)
    n = len(dse.transfers())
    sd = torch.load(buf, **kw)
    copies = dse.transfers()[n:]
    print(label, {k: str(v.device) for k, v in sd.items()})
    for t in copies:
        print("  copy", t["src"], "->", t["dst"], t["bytes"], "bytes")
    print("  copies:", len(copies), "bytes:", sum(t["bytes"] for t in copies))
    return sd


sd = load_and_show("cuda:0", map_location="cuda:0")
print("values kept:", all(torch.equal(sd[k].cpu(), v) for k, v in model.state_dict().items()))
load_and_show("device cuda:1", map_location=torch.device("cuda:1"))
load_and_show("callable .cuda(1)", map_location=lambda storage, loc: storage.cuda(1))
load_and_show("cpu", map_location="cpu")

# Saved from the GPU: loading without map_location goes back to the GPU, again one copy per storage.
gpu = {"w": torch.arange(6.0, device="cuda:0").reshape(2, 3), "half": torch.ones(3, dtype=torch.half, device="cuda:0")}
buf = io.BytesIO()
torch.save(gpu, buf)
load_and_show("saved on cuda:0")

# The loaded tensors are not views of anything (PyTorch's set_), and a model takes them as usual.
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf, map_location="cuda:0")
print("leaf, not a view:", all(v.is_leaf and v._base is None for v in sd.values()))
m2 = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)).to("cuda:0")
print(m2.load_state_dict(sd), torch.equal(m2[0].weight.cpu(), model[0].weight))
