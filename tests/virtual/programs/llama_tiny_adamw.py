# A 2-layer Llama-shaped model (assets/lessons/fits/llama_shapes.py "tiny"), 3 AdamW steps (foreach), on cuda.
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "assets", "lessons", "fits"))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402

model = Llama("tiny").to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
train_steps(model, opt, batch=2, seq=64, vocab=SHAPES["tiny"][5], steps=3, device="cuda")
