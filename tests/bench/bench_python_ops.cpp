// Per-op CPU cost of small tensor ops from Python through DeviceScope's torch, on device="cpu" and on a
// simulated device="cuda", against real PyTorch (Debian's /usr/bin/python3 with python3-torch, CPU only)
// running the same script in the same run (bench_python_common.h):
//   add       c = a + b                    (10x10 float32)
//   add_      a.add_(b)                    (10x10 float32)
//   mul       c = a * b                    (10x10 float32)
//   relu      torch.relu(a)                (10x10 float32)
//   sum       a.sum()                      (10x10 float32)
//   matmul    x @ w                        (32x64 @ 64x64)
//   linear    torch.relu(x @ w + b)        (32x64 @ 64x64, bias 64)
//   mlp_step  784-128-10 MLP training step (forward, CrossEntropyLoss, backward, SGD step; batch 64)
// Each figure is the best of 5 repetitions of CPU time (time.process_time) per call. Also prints which
// BLAS each side has loaded (the shared objects mapped into the process, as /proc/self/maps lists them).
// Targets (issue 23): every small-op case and the MLP step at most 1.0x PyTorch on both devices.
// --no-fast-ops: DeviceScope without the C++ elementwise fast path (DEVICESCOPE_NO_FAST_OPS=1, the pure
// Python path), to see what the fast path buys in the same build.
#include <cstdlib>
#include <string>

#include "bench_python_common.h"

namespace {

// After bench::kScriptPrologue (torch, nn, dev, best_us).
const char* kScript = R"PY(

a = torch.rand(10, 10, device=dev)
b = torch.rand(10, 10, device=dev)
x = torch.rand(32, 64, device=dev)
w = torch.rand(64, 64, device=dev)
bias = torch.rand(64, device=dev)
model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
xi = torch.rand(64, 784, device=dev)
yi = torch.randint(0, 10, (64,), device=dev)

def add():
    c = a + b

def add_():
    a.add_(b)

def mul():
    c = a * b

def relu():
    torch.relu(a)

def sum_():
    a.sum()

def matmul():
    x @ w

def linear():
    torch.relu(x @ w + bias)

def mlp_step():
    opt.zero_grad()
    loss_fn(model(xi), yi).backward()
    opt.step()

for name, fn, n in (("add", add, 4000), ("add_", add_, 4000), ("mul", mul, 4000), ("relu", relu, 4000),
                    ("sum", sum_, 4000), ("matmul", matmul, 2000), ("linear", linear, 1000),
                    ("mlp_step", mlp_step, 60)):
    print("RESULT", name, best_us(fn, n))
)PY";

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--no-fast-ops") setenv("DEVICESCOPE_NO_FAST_OPS", "1", 1);
  return bench::compare("bench_python_ops", bench::script(5, kScript),
                        {"add", "add_", "mul", "relu", "sum", "matmul", "linear", "mlp_step"});
}
