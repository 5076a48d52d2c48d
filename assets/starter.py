# DeviceScope starter: press Step (F10) to run one statement at a time and watch the panes.
import torch
import torch.nn as nn

# A small model, built on the CPU like every nn layer.
model = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
model.register_buffer("mask", torch.ones(256))   # a buffer: moves with the model
model.scale = torch.ones(256)                    # a plain tensor attribute: does NOT move

w = model[0].weight          # a second name for a parameter (same object)

# Module.to moves every parameter and buffer, in place; model.scale stays behind on the CPU.
model.to("cuda:0")
print(w.device, model.scale.device)

# Pinned host memory, then an asynchronous copy to the GPU.
x = torch.randn(64, 512)
x_pinned = x.pin_memory()
x_gpu = x_pinned.to("cuda:0", non_blocking=True)

y = model(x_gpu)
print(y.shape, y.device)

# A second GPU, and a non_blocking copy back to the host (it lands in pinned memory).
big = torch.randn(2048, 2048, device="cuda:1")
back = big.to("cpu", non_blocking=True)
print(back.is_pinned())
