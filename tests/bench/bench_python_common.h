// Shared by the Python benchmarks that compare DeviceScope's torch with real PyTorch in one run
// (bench_python_ops, bench_python_conv): a script printing "RESULT <case> <microseconds>" lines and one
// "BLAS <description>" line runs twice in DeviceScope (device "cpu" and simulated "cuda") and twice under
// Debian's /usr/bin/python3 with python3-torch (CPU only; before and after DeviceScope); each side keeps its
// faster figure per case, and a table of per-case ratios is printed.
//
// Both sides load the same BLAS (the libblas.so.3 alternative; OpenBLAS when installed), with the same
// OpenBLAS settings: OPENBLAS_CORETYPE / OPENBLAS_NUM_THREADS are set in this process's environment
// (tensor/blas_gemm.h prepare_blas_environment, the settings a PythonSession loads the BLAS with) before real
// PyTorch is started from it.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "python/python_session.h"
#include "tensor/blas_gemm.h"

namespace bench {

// The opening of every benchmark script: the device from argv[1], a fixed seed, and best_us(fn, n): after one
// warm-up call, the best of REPS repetitions of the CPU time (time.process_time) per call, in microseconds.
inline const char* kScriptPrologue = R"PY(
import sys, time, torch, torch.nn as nn
dev = sys.argv[1]
torch.manual_seed(0)

def best_us(fn, n, reps=REPS):
    fn()
    best = 1e9
    for _ in range(reps):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6
)PY";

// A benchmark's whole script: the prologue (best of `reps`), its own `body`, then the BLAS report below.
inline std::string script(int reps, const char* body);

// Appended to every benchmark script: which BLAS shared objects the process has mapped, and PyTorch's
// BLAS_INFO when the torch is real.
inline const char* kBlasReport = R"PY(
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

inline std::string script(int reps, const char* body) {
  std::string prologue = kScriptPrologue;
  prologue.replace(prologue.find("REPS"), 4, std::to_string(reps));
  return prologue + body + kBlasReport;
}

struct Figures {
  std::map<std::string, double> us;  // case -> microseconds per call
  std::string blas;
  std::string error;
};

inline Figures parse(const std::string& text) {
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

inline std::string write_script(const std::string& name, const std::string& source) {
  const std::string path = "/tmp/devicescope_" + name + ".py";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fputs(source.c_str(), f);
    std::fclose(f);
  }
  return path;
}

inline Figures real_pytorch(const std::string& name, const std::string& source) {
  std::unique_ptr<FILE, int (*)(FILE*)> p(
      popen(("/usr/bin/python3 " + write_script(name, source) + " cpu 2>&1").c_str(), "r"), pclose);
  if (!p) return {};
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p.get())) out += buf;
  Figures f = parse(out);
  if (f.us.empty()) f.error = out;
  return f;
}

// Runs `source` in DeviceScope on "cpu" and on the simulated "cuda", then real PyTorch on the CPU, and prints
// the table. Returns the process exit code (1 when DeviceScope's run failed).
inline int compare(const std::string& name, const std::string& source, const std::vector<std::string>& cases) {
  std::string captured;
  ds::python::SessionOptions o;
  o.runtime.backend.backend = "sim";
  o.build_object_graph = false;
  o.output = [&](std::string_view text, bool) { captured += text; };
  Figures cpu, cuda;
  // Real PyTorch runs before and after DeviceScope and each case keeps its faster figure: on a shared machine
  // the load changes within seconds, and one run on each side would compare different machines.
  ds::prepare_blas_environment();  // the OpenBLAS settings DeviceScope runs with, for both sides
  Figures real = real_pytorch(name, source);
  {
    ds::python::PythonSession session(o);
    // Twice each, interleaved with the devices, keeping the faster figure per case (as for real PyTorch).
    for (int round = 0; round < 2; ++round) {
      for (auto [device, figures] : {std::pair{"cpu", &cpu}, std::pair{"cuda", &cuda}}) {
        captured.clear();
        const ds::python::RunResult r = session.run_source(source, name + ".py", {name + ".py", device});
        Figures f = parse(captured);
        if (!r.ok()) f.error = r.error.traceback;
        if (round == 0) {
          *figures = f;
        } else {
          for (auto& [c, us] : figures->us)
            if (f.us.count(c)) us = std::min(us, f.us.at(c));
        }
      }
    }
  }
  for (const Figures* f : {&cpu, &cuda}) {
    if (!f->error.empty()) {
      std::cerr << f->error;
      return 1;
    }
  }
  const Figures again = real_pytorch(name, source);
  if (real.error.empty()) {
    for (auto& [c, us] : real.us)
      if (again.us.count(c)) us = std::min(us, again.us.at(c));
  }
  const bool have_real = real.error.empty() && !real.us.empty();
  std::printf("%-12s %12s %12s %12s %10s %10s\n", "case", "ds cpu us", "ds cuda us", "torch us", "cpu ratio",
              "cuda ratio");
  double worst = 0;
  for (const std::string& c : cases) {
    const double dc = cpu.us[c], dg = cuda.us[c];
    if (!have_real || !real.us.count(c)) {
      std::printf("%-12s %12.2f %12.2f %12s\n", c.c_str(), dc, dg, "-");
      continue;
    }
    const double t = real.us.at(c);
    std::printf("%-12s %12.2f %12.2f %12.2f %10.2f %10.2f\n", c.c_str(), dc, dg, t, dc / t, dg / t);
    worst = std::max({worst, dc / t, dg / t});
  }
  const char* core = std::getenv("OPENBLAS_CORETYPE");
  const char* threads = std::getenv("OPENBLAS_NUM_THREADS");
  std::printf("OpenBLAS settings (both sides): OPENBLAS_CORETYPE=%s OPENBLAS_NUM_THREADS=%s\n", core ? core : "-",
              threads ? threads : "-");
  std::printf("BLAS devicescope (numpy): %s\n", cpu.blas.c_str());
  if (!have_real) {
    std::printf("real PyTorch baseline unavailable (/usr/bin/python3 with python3-torch): %s\n", real.error.c_str());
    return 0;
  }
  std::printf("BLAS real PyTorch:        %s\n", real.blas.c_str());
  std::printf("worst ratio devicescope / PyTorch: %.2f\n", worst);
  return 0;
}

}  // namespace bench
