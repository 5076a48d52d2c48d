// Per-op CPU cost of small tensor ops from Python through DeviceScope's torch, on device="cpu" and on a
// simulated device="cuda", against real PyTorch (Debian's /usr/bin/python3 with python3-torch, CPU only)
// running the same script in the same run. Issue 12's four cases:
//   add       c = a + b                    (10x10 float32)
//   add_      a.add_(b)                    (10x10 float32)
//   linear    torch.relu(x @ w + b)        (32x64 @ 64x64, bias 64)
//   mlp_step  784-128-10 MLP training step (forward, CrossEntropyLoss, backward, SGD step; batch 64)
// Each figure is the best of 5 repetitions of CPU time (time.process_time) per call. Also prints which
// BLAS each side has loaded (the shared objects mapped into the process, as /proc/self/maps lists them).
// Target: ratio devicescope / PyTorch <= 1.5 for every case on both devices (aim: <= 1.0).
// --no-fast-ops: DeviceScope without the C++ elementwise fast path (DEVICESCOPE_NO_FAST_OPS=1, the pure
// Python path), to see what the fast path buys in the same build.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "python/python_session.h"

namespace {

// Prints "RESULT <case> <microseconds>" lines and one "BLAS <description>" line.
const char* kScript = R"PY(
import sys, time, torch, torch.nn as nn
dev = sys.argv[1]
torch.manual_seed(0)

def best_us(fn, n, reps=5):
    fn()
    best = 1e9
    for _ in range(reps):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6

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

def linear():
    torch.relu(x @ w + bias)

def mlp_step():
    opt.zero_grad()
    loss_fn(model(xi), yi).backward()
    opt.step()

for name, fn, n in (("add", add, 4000), ("add_", add_, 4000), ("linear", linear, 1000), ("mlp_step", mlp_step, 60)):
    print("RESULT", name, best_us(fn, n))

libs = set()
with open("/proc/self/maps") as maps:
    for line in maps:
        path = line.split()[-1]
        base = path.rsplit("/", 1)[-1]
        if any(k in base for k in ("blas", "lapack", "mkl", "blis", "flexiblas")):
            libs.add(path)
info = ""
if hasattr(torch, "__config__") and hasattr(torch.__config__, "show"):
    for part in torch.__config__.show().replace(",", "\n").splitlines():
        if "BLAS_INFO" in part:
            info = part.split()[-1] + "; "
print("BLAS", info + (", ".join(sorted(libs)) or "no BLAS library mapped"))
)PY";

struct Figures {
  std::map<std::string, double> us;  // case -> microseconds per call
  std::string blas;
  std::string error;
};

Figures parse(const std::string& text) {
  Figures f;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("RESULT ", 0) == 0) {
      std::istringstream fields(line.substr(7));
      std::string name;
      double us = -1;
      fields >> name >> us;
      f.us[name] = us;
    } else if (line.rfind("BLAS ", 0) == 0) {
      f.blas = line.substr(5);
    }
  }
  return f;
}

std::string script_path() {
  const std::string path = "/tmp/devicescope_bench_python_ops.py";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fputs(kScript, f);
    std::fclose(f);
  }
  return path;
}

Figures real_pytorch() {
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(("/usr/bin/python3 " + script_path() + " cpu 2>&1").c_str(), "r"),
                                         pclose);
  if (!p) return {};
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p.get())) out += buf;
  Figures f = parse(out);
  if (f.us.empty()) f.error = out;
  return f;
}

Figures devicescope(ds::python::PythonSession& session, std::string& captured, const std::string& device) {
  captured.clear();
  const ds::python::RunResult r = session.run_source(kScript, "bench_python_ops.py", {"bench_python_ops.py", device});
  Figures f = parse(captured);
  if (!r.ok()) f.error = r.error.traceback;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--no-fast-ops") setenv("DEVICESCOPE_NO_FAST_OPS", "1", 1);
  std::string captured;
  ds::python::SessionOptions o;
  o.runtime.backend.backend = "sim";
  o.build_object_graph = false;
  o.output = [&](std::string_view text, bool) { captured += text; };
  Figures cpu, cuda;
  {
    ds::python::PythonSession session(o);
    cpu = devicescope(session, captured, "cpu");
    cuda = devicescope(session, captured, "cuda");
  }
  for (const Figures* f : {&cpu, &cuda}) {
    if (!f->error.empty()) {
      std::cerr << f->error;
      return 1;
    }
  }
  const Figures real = real_pytorch();
  const bool have_real = real.error.empty() && !real.us.empty();
  std::printf("%-10s %12s %12s %12s %10s %10s\n", "case", "ds cpu us", "ds cuda us", "torch us", "cpu ratio",
              "cuda ratio");
  double worst = 0;
  for (const char* name : {"add", "add_", "linear", "mlp_step"}) {
    const double c = cpu.us[name], g = cuda.us[name];
    if (!have_real) {
      std::printf("%-10s %12.2f %12.2f %12s\n", name, c, g, "-");
      continue;
    }
    const double t = real.us.at(name);
    std::printf("%-10s %12.2f %12.2f %12.2f %10.2f %10.2f\n", name, c, g, t, c / t, g / t);
    worst = std::max({worst, c / t, g / t});
  }
  std::printf("BLAS devicescope (numpy): %s\n", cpu.blas.c_str());
  if (!have_real) {
    std::printf("real PyTorch baseline unavailable (/usr/bin/python3 with python3-torch): %s\n", real.error.c_str());
    return 0;
  }
  std::printf("BLAS real PyTorch:        %s\n", real.blas.c_str());
  std::printf("worst ratio devicescope / PyTorch: %.2f (target <= 1.50, aim <= 1.00)\n", worst);
  return 0;
}
