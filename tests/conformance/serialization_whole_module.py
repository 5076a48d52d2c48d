# torch.save(model) / torch.load(weights_only=False) of whole modules that reference functions and foreign
# classes, as pytorch/examples' word_language_model pickles its TransformerModel (TransformerEncoderLayer
# keeps torch.nn.functional.relu as its activation): weights_only=False loads what PyTorch loads (functions,
# argparse.Namespace, functools.partial, the script's classes), weights_only=True still refuses them.
import argparse
import functools
import io
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=16):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return x + self.pe[:x.size(0), :]


class TransformerModel(nn.Module):
    """word_language_model's model.py TransformerModel, small."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers):
        super().__init__()
        self.pos_encoder = PositionalEncoding(ninp)
        layer = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout=0.0)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.decoder = nn.Linear(ninp, ntoken)
        self.ninp = ninp

    def forward(self, src):
        src = self.pos_encoder(self.encoder(src) * math.sqrt(self.ninp))
        return F.log_softmax(self.decoder(self.transformer_encoder(src)), dim=-1)


class WithFunctions(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.act = F.gelu
        self.post = functools.partial(torch.clamp, min=0.0)
        self.args = argparse.Namespace(lr=0.1, model="Transformer")

    def forward(self, x):
        return self.post(self.act(self.fc(x)))


torch.manual_seed(0)
model = TransformerModel(11, 8, 2, 16, 2).eval()
src = torch.arange(12).reshape(6, 2) % 11
buf = io.BytesIO()
torch.save(model, buf)
print("activation", model.transformer_encoder.layers[0].activation is F.relu)

buf.seek(0)
loaded = torch.load(buf, weights_only=False).eval()
print("type", type(loaded).__name__, type(loaded.transformer_encoder.layers[1]).__name__)
print("activation is F.relu", loaded.transformer_encoder.layers[0].activation is F.relu)
with torch.no_grad():
    print("same output", torch.allclose(model(src), loaded(src)), tuple(loaded(src).shape))

other = WithFunctions()
buf = io.BytesIO()
torch.save({"model": other, "epoch": 3}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=False)
m = ckpt["model"]
print("functions", m.act is F.gelu, m.post.func is torch.clamp, m.post.keywords, m.args, ckpt["epoch"])
x = torch.tensor([[-1.0, 0.5, 2.0]])
print("same output", torch.equal(m(x), other(x)))

for label, payload in (("model", model), ("functions", {"model": other})):
    buf = io.BytesIO()
    torch.save(payload, buf)
    buf.seek(0)
    try:
        torch.load(buf, weights_only=True)
        print(label, "weights_only=True: loaded")
    except Exception as e:  # noqa: BLE001 - the type is the check (the message is version-specific)
        print(label, "weights_only=True:", type(e).__name__)
