# torch.save / torch.load with CUDA tensors (PyTorch 2.6 semantics): a checkpoint remembers each tensor's
# device; every map_location form moves it (str, torch.device, dict, callable); loading onto a missing device
# fails with PyTorch's message; the weights-only default refuses whole modules and foreign classes
# (add_safe_globals / safe_globals allow them); weights_only=False loads a whole model.
import io
import pickle

import torch
from torch import nn

w = torch.arange(6.0, device="cuda:1").reshape(2, 3)
obj = {"w": w, "cpu": torch.ones(2), "p": nn.Parameter(torch.zeros(2, device="cuda:0"))}
buf = io.BytesIO()
torch.save(obj, buf)


def where(o):
    return {k: str(v.device) for k, v in o.items()}


def load(**kw):
    buf.seek(0)
    return torch.load(buf, **kw)


print("saved devices:", where(load()))
print("str cpu:", where(load(map_location="cpu")))
print("str cuda:", where(load(map_location="cuda")))
print("device cuda:1:", where(load(map_location=torch.device("cuda:1"))))
print("dict:", where(load(map_location={"cuda:1": "cuda:0", "cpu": "cuda:1"})))
print("callable storage:", where(load(map_location=lambda storage, loc: storage)))
print("callable .cuda(1):", where(load(map_location=lambda storage, loc: storage.cuda(1))))
print("callable .cpu():", where(load(map_location=lambda storage, loc: storage.cpu())))
print("values kept:", load(map_location="cpu")["w"].tolist(), type(load()["p"]).__name__)
try:
    load(map_location="cuda:5")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    load(map_location={"cuda:1": "cuda:7"})
except RuntimeError as e:
    print("RuntimeError:", e)

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU()).to("cuda")
buf = io.BytesIO()
torch.save(model, buf)
try:
    load()
except pickle.UnpicklingError as e:
    lines = str(e).splitlines()
    print(lines[0].strip())
    print([l.strip() for l in lines if "WeightsUnpickler" in l][0])
m2 = load(weights_only=False)
print(type(m2).__name__, m2[0].weight.device, torch.equal(m2[0].weight.cpu(), model[0].weight.cpu()))
print("whole model to cpu:", load(weights_only=False, map_location="cpu")[0].weight.device)


class Box:
    def __init__(self, v):
        self.v = v


buf = io.BytesIO()
torch.save({"box": Box(torch.ones(1, device="cuda"))}, buf)
try:
    load()
except pickle.UnpicklingError as e:
    print([l.strip() for l in str(e).splitlines() if "WeightsUnpickler" in l][0])
with torch.serialization.safe_globals([Box]):
    print("inside safe_globals:", load()["box"].v)
torch.serialization.add_safe_globals([Box])
print("added:", [g.__name__ for g in torch.serialization.get_safe_globals()], load()["box"].v.device)
torch.serialization.clear_safe_globals()
print("cleared:", torch.serialization.get_safe_globals())
