# torch.save / torch.load round trips on the CPU: every map_location form, weights_only True/False,
# Parameters, tied tensors, dtypes, non-contiguous tensors, a refused custom class, BytesIO and paths.
import io
import os
import pickle
import tempfile
from collections import OrderedDict

import torch
from torch import nn

w = torch.arange(12.0).reshape(3, 4)
obj = {"w": w, "wt": w.t(), "same": w, "half": torch.tensor([1.5, -2.0], dtype=torch.float16),
       "i": torch.tensor([[1, 2], [3, 4]], dtype=torch.int16), "mask": torch.tensor([True, False]),
       "p": nn.Parameter(torch.tensor([1.0, 2.0])), "frozen": nn.Parameter(torch.ones(2), requires_grad=False),
       "g": torch.tensor([3.0], requires_grad=True),
       "meta": OrderedDict(epoch=3, lr=1, name="run", shape=torch.Size([2, 3]), dt=torch.int64,
                           nested=[1, (2, 3)], none=None, flag=True)}


def show(o):
    print("keys", list(o))
    print("w", o["w"].tolist(), o["w"].device, o["w"].dtype, o["w"].is_contiguous())
    print("wt", o["wt"].tolist(), o["wt"].shape)
    print("same is w", o["same"] is o["w"])
    print("half", o["half"], "i", o["i"].dtype, "mask", o["mask"].tolist())
    print("p", type(o["p"]).__name__, o["p"].requires_grad, "frozen", o["frozen"].requires_grad, "g", o["g"].requires_grad)
    print("meta", o["meta"])


buf = io.BytesIO()
torch.save(obj, buf)
for name, kw in [("weights_only", {"weights_only": True}), ("full", {"weights_only": False}),
                 ("str", {"map_location": "cpu", "weights_only": True}), ("device", {"map_location": torch.device("cpu")}),
                 ("dict", {"map_location": {"cpu": "cpu"}}),
                 ("callable", {"map_location": lambda storage, loc: storage}),
                 ("callable None", {"map_location": lambda storage, loc: None})]:
    buf.seek(0)
    print("--", name)
    show(torch.load(buf, **kw))

# Random state round trip (the state's bytes differ between implementations, not their use).
state = torch.get_rng_state()
a = torch.rand(3)
torch.set_rng_state(state)
print("rng replay:", torch.equal(a, torch.rand(3)), state.dtype)

# The file itself is PyTorch's zip layout.
import zipfile
buf = io.BytesIO()
torch.save({"a": torch.ones(2)}, buf)
buf.seek(0)
print(sorted(n for n in zipfile.ZipFile(buf).namelist() if n not in ("archive/byteorder",) and not n.startswith("archive/.data")))  # byteorder: 2.x only
