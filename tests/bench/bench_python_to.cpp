// Per-parameter cost of `model.to("cuda")` from Python through DeviceScope's torch (ModuleList of 5,000
// nn.Linear(1, 1) = 10,000 parameters), against real PyTorch's `model.to(torch.float64)` on the same
// module measured in the same run (Debian's /usr/bin/python3 with python3-torch, CPU only: a dtype
// conversion goes through the same Module._apply / Tensor.to path as a device move). Target (issue 23): ratio
// <= 0.8. Each side's figure is CPU time (time.process_time, as bench_python_ops), best of 5 fresh models, and
// the two sides run alternately twice, each keeping its better round: on a shared 2-core machine a build
// running beside one side would otherwise decide the ratio.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "python/python_session.h"

namespace {

// Prints "<CPU seconds per parameter>" on the last line: best of 5 fresh models.
const char* kScript = R"PY(
import sys, time, torch, torch.nn as nn
target = sys.argv[1]
best = 1e9
for _ in range(5):
    m = nn.ModuleList([nn.Linear(1, 1) for _ in range(5000)])
    n = sum(1 for _ in m.parameters())
    t0 = time.process_time()
    m.to("cuda") if target == "cuda" else m.to(torch.float64)
    best = min(best, time.process_time() - t0)
print(best / n)
)PY";

double last_number(const std::string& text) {
  const size_t end = text.find_last_not_of(" \n");
  if (end == std::string::npos) return -1;
  const size_t start = text.find_last_of('\n', end);
  try {
    return std::stod(text.substr(start == std::string::npos ? 0 : start + 1));
  } catch (...) {
    return -1;
  }
}

double real_pytorch_seconds_per_param() {
  const std::string path = "/tmp/devicescope_bench_python_to.py";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fputs(kScript, f);
    std::fclose(f);
  }
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(("/usr/bin/python3 " + path + " float64 2>/dev/null").c_str(), "r"),
                                         pclose);
  if (!p) return -1;
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p.get())) out += buf;
  return last_number(out);
}

}  // namespace

int main() {
  // One interpreter per process (Note [One runtime per interpreter]): DeviceScope's rounds share a session.
  std::string ours_out;
  ds::python::SessionOptions o;
  o.runtime.backend.backend = "sim";
  o.build_object_graph = false;
  o.output = [&](std::string_view text, bool) { ours_out += text; };
  ds::python::PythonSession session(o);
  double ours = 1e9, real = 1e9;
  for (int round = 0; round < 2; ++round) {
    ours_out.clear();
    const ds::python::RunResult r = session.run_source(kScript, "bench_python_to.py", {"bench_python_to.py", "cuda"});
    if (!r.ok()) {
      std::cerr << r.error.traceback;
      return 1;
    }
    const double mine = last_number(ours_out);
    if (mine <= 0) {
      std::cerr << "no figure in DeviceScope's output:\n" << ours_out;
      return 1;
    }
    ours = std::min(ours, mine);
    const double theirs = real_pytorch_seconds_per_param();
    if (theirs > 0) real = std::min(real, theirs);
  }
  std::printf("devicescope model.to(\"cuda\"):        %.2f us/parameter (CPU time)\n", ours * 1e6);
  if (real >= 1e9) {
    std::printf("real PyTorch baseline unavailable (/usr/bin/python3 with python3-torch)\n");
    return 0;
  }
  std::printf("PyTorch model.to(torch.float64):     %.2f us/parameter (CPU time)\n", real * 1e6);
  std::printf("ratio devicescope / PyTorch:         %.2f (target <= 0.80)\n", ours / real);
  return 0;
}
