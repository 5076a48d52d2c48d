# A forward pass keeps activations alive for backward: exactly the tensors PyTorch's autograd saves, no more.
# Linear(512, 256) -> ReLU -> Linear(256, 10) on a batch of 64 (float32): ReLU saves its result (64x256,
# 65536 B), the second addmm saves its input (that same result) and the weight; the first Linear's output is
# not saved by anyone and is freed at once. So y (64x10 = 2560 B) plus one 64x256 activation stay allocated
# while y (and its graph) lives; under no_grad only y does; `del y` frees both.
# A warm-up forward comes first, so a real GPU's one-time cuBLAS workspace is not counted.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
x = torch.randn(64, 512, device="cuda")
model(x).sum().backward()  # warm-up (gradients stay allocated from here on)
base = torch.cuda.memory_allocated()

y = model(x)
print("with grad:", torch.cuda.memory_allocated() - base)
print(y.grad_fn.name(), y.grad_fn.next_functions[1][0].name())
del y
print("after del y:", torch.cuda.memory_allocated() - base)

with torch.no_grad():
    y = model(x)
print("no_grad:", torch.cuda.memory_allocated() - base, y.requires_grad)
