// CNN training steps from Python through DeviceScope's torch (the convolution, pooling and batch-norm kernels
// of engine/tensor/{conv,pool,norm}_kernels), on device="cpu" and on a simulated device="cuda", against real
// PyTorch (Debian's /usr/bin/python3 with python3-torch, CPU only: oneDNN convolutions) in the same run:
//   lenet_step  LeNet-5 on 64 MNIST-sized images (1x28x28): conv 5x5 (6), max pool, conv 5x5 (16), max pool,
//               three linear layers; CrossEntropyLoss, backward, SGD with momentum
//   cifar_step  32 CIFAR-sized images (3x32x32): conv 3x3 (32) + BatchNorm + ReLU + max pool, conv 3x3 (64)
//               + BatchNorm + ReLU + max pool, two linear layers; same loss and optimizer
//   conv_fwd    one conv2d forward, 32x32x16x16 input, 64 3x3 filters, padding 1 (no autograd)
// Best of 3 repetitions of CPU time (time.process_time) per step. Target (issue 23): at most 1.5x PyTorch.
#include <string>

#include "bench_python_common.h"

namespace {

// After bench::kScriptPrologue (torch, nn, dev, best_us).
const char* kScript = R"PY(
import torch.nn.functional as F

lenet = nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                      nn.Linear(84, 10)).to(dev)
cifar = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(64 * 8 * 8, 128), nn.ReLU(), nn.Linear(128, 10)).to(dev)
loss_fn = nn.CrossEntropyLoss()

def stepper(model, x, y):
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    def step():
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    return step

xl, yl = torch.rand(64, 1, 28, 28, device=dev), torch.randint(0, 10, (64,), device=dev)
xc, yc = torch.rand(32, 3, 32, 32, device=dev), torch.randint(0, 10, (32,), device=dev)
xf, wf = torch.rand(32, 32, 16, 16, device=dev), torch.rand(64, 32, 3, 3, device=dev)
print("RESULT lenet_step", best_us(stepper(lenet, xl, yl), 10))
print("RESULT cifar_step", best_us(stepper(cifar, xc, yc), 5))
print("RESULT conv_fwd", best_us(lambda: F.conv2d(xf, wf, padding=1), 10))
)PY";

}  // namespace

int main() {
  return bench::compare("bench_python_conv", bench::script(3, kScript),
                        {"lenet_step", "cifar_step", "conv_fwd"});
}
