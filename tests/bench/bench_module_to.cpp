// Benchmark: Module::to("cuda") on a tree of 10,000 small parameters (ModuleList of 5,000 Linear(1, 1)) on
// simulated devices, per tensor, with the event log on and off, against plain Tensor.to on the same tensors.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "module/builders.h"
#include "module/module.h"
#include "runtime/runtime.h"
#include "tensor/tensor_ops.h"

using namespace ds;
using Clock = std::chrono::steady_clock;

namespace {

std::shared_ptr<Runtime> make_runtime(bool log_on) {
  RuntimeOptions o;
  o.backend.backend = "sim";
  o.backend.sim_devices = 2;
  o.event_log = log_on;
  return Runtime::create(o);
}

ModulePtr make_model(Runtime& rt, int layers) {
  std::vector<ModulePtr> linears;
  linears.reserve(size_t(layers));
  for (int i = 0; i < layers; ++i) linears.push_back(make_linear(rt, 1, 1));
  return make_module_list(linears);
}

// Wall time and this thread's CPU time: the machine may be shared, and CPU time is what contention
// inflates least.
struct Stamp {
  Clock::time_point wall;
  double cpu_us;
  static Stamp now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return {Clock::now(), double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3};
  }
};
struct PerTensor {
  double wall_us = 0, cpu_us = 0;
};
PerTensor per_tensor(const Stamp& a, const Stamp& b, size_t tensors) {
  return {std::chrono::duration<double, std::micro>(b.wall - a.wall).count() / double(tensors),
          (b.cpu_us - a.cpu_us) / double(tensors)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Microseconds per tensor for model.to("cuda") on a fresh runtime and model (a cold allocator, as a real
// first move is). Only the move is timed.
PerTensor module_to_us(bool log_on, int layers) {
  auto rt = make_runtime(log_on);
  ModulePtr model = make_model(*rt, layers);
  const Stamp t0 = Stamp::now();
  model->to(*rt, "cuda", "model");
  const Stamp t1 = Stamp::now();
  const size_t tensors = model->parameters().size();
  if (log_on && rt->log().transfers().size() != tensors) {
    std::fprintf(stderr, "expected %zu transfers, got %zu\n", tensors, rt->log().transfers().size());
    std::exit(1);
  }
  return per_tensor(t0, t1, tensors);
}

// Baseline: the same tensors moved with Tensor.to one by one (no module bookkeeping), results kept alive.
PerTensor tensor_to_us(bool log_on, int layers) {
  auto rt = make_runtime(log_on);
  ModulePtr model = make_model(*rt, layers);
  const std::vector<TensorPtr> params = model->parameters();
  std::vector<TensorPtr> moved;
  moved.reserve(params.size());
  const Stamp t0 = Stamp::now();
  for (const TensorPtr& p : params) moved.push_back(cuda(*rt, p));
  const Stamp t1 = Stamp::now();
  return per_tensor(t0, t1, params.size());
}

}  // namespace

int main(int argc, char** argv) {
  const int layers = argc > 1 ? std::atoi(argv[1]) : 5000;  // 2 parameters each
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
  // [case][wall/cpu] samples: module log on, module log off, Tensor.to log on, Tensor.to log off.
  std::vector<double> samples[4][2];
  for (int r = 0; r < repeats; ++r) {
    const PerTensor runs[4] = {module_to_us(true, layers), module_to_us(false, layers), tensor_to_us(true, layers),
                               tensor_to_us(false, layers)};
    for (int c = 0; c < 4; ++c) {
      samples[c][0].push_back(runs[c].wall_us);
      samples[c][1].push_back(runs[c].cpu_us);
    }
  }
  double m[4][2];
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 2; ++k) m[c][k] = median(samples[c][k]);
  std::printf("model: ModuleList of %d Linear(1, 1) = %d parameters, simulated cuda:0, median of %d cold runs\n",
              layers, 2 * layers, repeats);
  std::printf("module_to per tensor: %.2f us (log on), %.2f us (log off)   [thread CPU: %.2f us, %.2f us]\n",
              m[0][0], m[1][0], m[0][1], m[1][1]);
  std::printf("Tensor.to per tensor (baseline, same tensors): %.2f us (log on), %.2f us (log off)   "
              "[thread CPU: %.2f us, %.2f us]\n",
              m[2][0], m[3][0], m[2][1], m[3][1]);
  std::printf("ratio module_to / Tensor.to: %.2f (log on), %.2f (log off); module_to log on / off: %.2f\n",
              m[0][0] / m[2][0], m[1][0] / m[3][0], m[0][0] / m[1][0]);
  std::printf("target <= 2 us per tensor with the log on: %s (wall), %s (thread CPU)\n",
              m[0][0] <= 2.0 ? "met" : "NOT met", m[0][1] <= 2.0 ? "met" : "NOT met");
  return 0;
}
