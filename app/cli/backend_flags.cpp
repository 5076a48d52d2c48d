// Shared backend flags: how the runtime is asked for simulated or real CUDA devices.
#include "cli/commands.h"

#include "backend/link_profile.h"
#include "core/errors.h"
#include "core/format.h"

namespace ds::cli {

void add_backend_flags(CLI::App& app, BackendFlags& f) {
  app.add_option("--backend", f.backend, "auto (real CUDA when a GPU answers, else simulated), sim, or cuda")
      ->check(CLI::IsMember({"auto", "sim", "cuda"}))
      ->capture_default_str();
  app.add_option("--sim-devices", f.sim_devices, "number of simulated CUDA devices (0 turns CUDA off)")
      ->check(CLI::Range(0, 16))
      ->capture_default_str();
  app.add_option("--sim-memory", f.sim_memory, "capacity of each simulated device, e.g. 16GiB, 80GiB")
      ->capture_default_str();
  app.add_option("--link", f.link, "link profile of the simulated devices (see `devicescope devices`)")
      ->capture_default_str();
}

BackendOptions BackendFlags::options() const {
  BackendOptions o;
  o.backend = backend;
  o.sim_devices = sim_devices;
  o.sim_memory = parse_bytes(sim_memory);
  check(o.sim_memory >= (1ull << 20), "--sim-memory must be at least 1MiB, got " + sim_memory, ErrorKind::ValueError);
  o.link = find_link_profile(link).name;
  return o;
}

}  // namespace ds::cli
