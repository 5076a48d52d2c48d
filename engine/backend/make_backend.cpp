// Backend selection: real CUDA when a GPU answers (or is demanded), else the simulated devices,
// with a note saying why. Always compiled; reaches the CUDA backend only when it was built.
#include <memory>
#include <string>

#include "backend/backend.h"
#include "backend/sim_backend.h"
#include "core/errors.h"

#if DEVICESCOPE_HAVE_CUDA
#include "backend/cuda_backend.h"
#endif

namespace ds {

int cuda_device_count(std::string* why_not) {
#if DEVICESCOPE_HAVE_CUDA
  return cuda_probe_device_count(why_not);
#else
  if (why_not) *why_not = "built without the CUDA toolkit";
  return 0;
#endif
}

namespace {

std::unique_ptr<Backend> make_sim(const BackendOptions& o) {
  return std::make_unique<SimBackend>(o.sim_devices, o.sim_memory, o.link);
}

std::string sim_summary(const BackendOptions& o) {
  return "using " + std::to_string(o.sim_devices) + " simulated CUDA device" + (o.sim_devices == 1 ? "" : "s") +
         " (SIMULATED)";
}

// Only called after cuda_device_count() > 0, which needs the toolkit.
std::unique_ptr<Backend> make_cuda() {
#if DEVICESCOPE_HAVE_CUDA
  return std::make_unique<CudaBackend>();
#else
  raise(ErrorKind::RuntimeError, "built without the CUDA toolkit");
#endif
}

std::string cuda_summary(const Backend& b) {
  const int n = b.device_count();
  std::string s = "using " + std::to_string(n) + " real CUDA device" + (n == 1 ? "" : "s");
  if (n > 0) s += " (" + b.props(0).name + ")";
  return s;
}

}  // namespace

BackendChoice make_backend(const BackendOptions& o) {
  if (o.backend != "auto" && o.backend != "sim" && o.backend != "cuda")
    raise(ErrorKind::ValueError, "unknown backend '" + o.backend + "' (known: auto, sim, cuda)");
  check(o.sim_devices >= 0, "number of simulated devices must not be negative, got " + std::to_string(o.sim_devices),
        ErrorKind::ValueError);

  BackendChoice c;
  if (o.backend == "sim") {
    c.backend = make_sim(o);
    c.note = "--backend sim: " + sim_summary(o);
    return c;
  }
  std::string why;
  if (o.backend == "cuda") {
    if (cuda_device_count(&why) == 0)
      raise(ErrorKind::RuntimeError, "--backend cuda: no CUDA device is available (" + why +
                                         "). Use --backend sim for simulated devices.");
    c.backend = make_cuda();
    c.note = cuda_summary(*c.backend);
    return c;
  }
  // auto. Zero simulated devices is how a user turns CUDA off (SEMANTICS.md §1), GPU or not.
  if (o.sim_devices == 0) {
    c.backend = make_sim(o);
    c.note = "CUDA is off (0 simulated devices requested): no CUDA devices";
    return c;
  }
  if (cuda_device_count(&why) > 0) {
    try {
      c.backend = make_cuda();
      c.note = cuda_summary(*c.backend);
      return c;
    } catch (const Error& e) {
      why = e.what();  // a GPU answered the probe but could not be set up: still fall back
    }
  }
  c.backend = make_sim(o);
  c.note = "No CUDA device answered (" + why + "); " + sim_summary(o);
  return c;
}

}  // namespace ds
