# The tiny Llama under torch.autocast(bfloat16), AdamW with foreach=False (the for-loop path), 2 steps.
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "assets", "lessons", "fits"))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402

model = Llama("tiny").to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=False)
train_steps(model, opt, batch=2, seq=64, vocab=SHAPES["tiny"][5], steps=2, device="cuda",
            autocast_dtype=torch.bfloat16)
