# One MLP trained by each optimizer path of PyTorch 2.x on CUDA: SGD with momentum (for-loop, foreach),
# Adam (for-loop, foreach, fused) and AdamW (fused, amsgrad); zero_grad(set_to_none=False) for half of them,
# and two micro-batches of gradient accumulation per step.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.Dropout(0.1), nn.LayerNorm(256), nn.Linear(256, 10)).to("cuda")
optimizers = [
    torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, foreach=False),
    torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, foreach=True),
    torch.optim.Adam(model.parameters(), lr=1e-3, foreach=False),
    torch.optim.Adam(model.parameters(), lr=1e-3, foreach=True),
    torch.optim.Adam(model.parameters(), lr=1e-3, fused=True),
    torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True),
    torch.optim.AdamW(model.parameters(), lr=1e-3, amsgrad=True),
]
for i, opt in enumerate(optimizers):
    for step in range(2):
        for micro in range(2):
            x = torch.randn(32, 128, device="cuda")
            y = torch.randint(0, 10, (32,), device="cuda")
            (F.cross_entropy(model(x), y) / 2).backward()
        opt.step()
        opt.zero_grad(set_to_none=i % 2 == 0)
