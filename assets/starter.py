# DeviceScope starter. Step (F10) runs one statement;
# watch Memory, Names and Transfers change.
import torch
import torch.nn as nn

# A small model. nn layers are built on the CPU.
model = nn.Sequential(
    nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))

# A buffer is registered: it moves with the model.
model.register_buffer("mask", torch.ones(256))
# A plain tensor attribute is NOT: it stays behind.
model.scale = torch.ones(256)

w = model[0].weight  # a second name, same Parameter

# ---- Lines above ran at start. Step from here. ----
# Module.to: parameters keep their objects (new data), buffers are replaced.
model.to("cuda:0")
print(w.device, model.scale.device)

# Pinned host memory, then an async copy to the GPU.
x = torch.randn(64, 512)
x_pinned = x.pin_memory()
x_gpu = x_pinned.to("cuda:0", non_blocking=True)

y = model(x_gpu)
print(y.shape, y.device)

# A second GPU, and an async copy back to the host:
# it lands in pinned memory, not yet synchronized.
big = torch.randn(2048, 2048, device="cuda:1")
back = big.to("cpu", non_blocking=True)
print(back.is_pinned())
