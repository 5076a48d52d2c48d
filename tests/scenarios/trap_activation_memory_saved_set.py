# After a forward pass, the activations still allocated are exactly the tensors autograd saved for backward
# (plus the output). Each number below follows from PyTorch's saved set (tools/autograd/derivatives.yaml);
# an op's input or output that no node saves is freed as soon as the forward moves on. All tensors are
# float32 with a batch of 32; the CUDA caching allocator rounds every block up to a multiple of 512 bytes.
#
# mlp      Linear(256,128) -> Tanh -> Linear(128,64) -> Sigmoid -> Linear(64,10)
#          Tanh and Sigmoid save their results (32x128: 16384 B, 32x64: 8192 B), which the next addmm saves
#          as mat1 too (same tensors). The Linear outputs before them are saved by nobody. Output 32x10:
#          1280 -> 1536 B. 16384 + 8192 + 1536 = 26112; under no_grad only the output: 1536.
# residual relu(fc1(x) + x) -> fc2: add saves nothing (only alpha), so neither fc1's output nor the sum
#          stays; ReLU saves its result (32x256: 32768 B). 32768 + 1536 = 34304.
# softmax  mse_loss(softmax(fc(x)), onehot): softmax saves its result (1536 B), which mse_loss saves as
#          self; the logits are freed. The 0-dim loss is ATen's `empty_like(input)` resized to 0-dim, so it
#          keeps the input's 1280 -> 1536 B block (tests/conformance/loss_result_storage.py; seen on a real
#          H100 with PyTorch 2.11). 1536 + 1536 = 3072; after backward and under no_grad the loss: 1536.
# ce       cross_entropy(fc(x), target) = nll_loss(log_softmax(logits)): log_softmax saves its result
#          (1536 B), nll_loss saves it as self plus its 0-dim total_weight (512 B); the logits are freed.
#          1536 + 512 + loss 512 = 2560.
# sq_err   ((fc(x) - y) ** 2).mean(): sub saves nothing, pow saves its input (the difference, 1536 B),
#          mean saves only sizes; the output and the squares are freed. 1536 + loss 512 = 2048.
# dropout  Linear(256,256) -> Dropout(0.5) -> Linear(256,10), train mode: CUDA's fused dropout saves its
#          bool mask (32x256 bytes: 8192 B), not its input; its output (32768 B) is addmm's mat1.
#          32768 + 8192 + 1536 = 42496.
# inplace  Linear(256,256) -> ReLU(inplace=True) -> Linear(256,10): relu_ saves its result, which is the
#          Linear's output itself (no copy): 32768 + 1536 = 34304.
# backward frees every saved tensor: only the output stays (the gradients accumulate into the existing
# .grad tensors in place); `del out` frees that too. Each model runs once before measuring (warm-up), so
# gradients and a real GPU's cuBLAS workspace exist already and are not counted.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
dev = "cuda"
x = torch.randn(32, 256, device=dev)
target = torch.randint(0, 10, (32,), device=dev)
onehot = F.one_hot(target, 10).float()
y_true = torch.randn(32, 10, device=dev)

mlp = nn.Sequential(nn.Linear(256, 128), nn.Tanh(), nn.Linear(128, 64), nn.Sigmoid(), nn.Linear(64, 10)).to(dev)
fc1, fc2, fc = nn.Linear(256, 256).to(dev), nn.Linear(256, 10).to(dev), nn.Linear(256, 10).to(dev)
drop_net = nn.Sequential(nn.Linear(256, 256), nn.Dropout(0.5), nn.Linear(256, 10)).to(dev).train()
inplace_net = nn.Sequential(nn.Linear(256, 256), nn.ReLU(inplace=True), nn.Linear(256, 10)).to(dev)

models = {
    "mlp": lambda: mlp(x),
    "residual": lambda: fc2(torch.relu(fc1(x) + x)),
    "softmax": lambda: F.mse_loss(torch.softmax(fc(x), 1), onehot),
    "ce": lambda: F.cross_entropy(fc(x), target),
    "sq_err": lambda: ((fc(x) - y_true) ** 2).mean(),
    "dropout": lambda: drop_net(x),
    "inplace": lambda: inplace_net(x),
}
for name, forward in models.items():
    forward().sum().backward()  # warm-up: allocates the gradients
    base = torch.cuda.memory_allocated()
    out = forward()
    kept = torch.cuda.memory_allocated() - base
    grad_fn = out.grad_fn.name()
    out.sum().backward()
    after_backward = torch.cuda.memory_allocated() - base
    del out
    freed = torch.cuda.memory_allocated() - base
    with torch.no_grad():
        out = forward()
    print(f"{name}: {grad_fn} kept {kept}, after backward {after_backward}, after del {freed}, "
          f"no_grad {torch.cuda.memory_allocated() - base}")
    del out
