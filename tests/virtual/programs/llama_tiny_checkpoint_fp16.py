# The tiny Llama with activation checkpointing (torch.utils.checkpoint, use_reentrant=False) per layer, under
# torch.autocast(float16), Adam, 2 steps.
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "assets", "lessons", "fits"))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402

model = Llama("tiny", checkpointing=True).to("cuda")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
train_steps(model, opt, batch=2, seq=64, vocab=SHAPES["tiny"][5], steps=2, device="cuda",
            autocast_dtype=torch.float16)
