# Mixed precision: autocast (float16 on CUDA, bfloat16 on CPU) + GradScaler, SGD, 2 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import dev, finish, start

model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
scaler = torch.cuda.amp.GradScaler(enabled=dev.type == "cuda")
dtype = torch.float16 if dev.type == "cuda" else torch.bfloat16
start()
for step in range(2):
    x = torch.randn(64, 512, device=dev)
    y = torch.randint(0, 10, (64,), device=dev)
    with torch.autocast(dev.type, dtype=dtype):
        loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
finish()
