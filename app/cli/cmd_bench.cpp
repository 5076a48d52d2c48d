// `devicescope bench`: the transfer sweep on the terminal, with a progress bar, a table and exports.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sys/utsname.h>

#include "sweep/sweep_io.h"
#include "sweep/transfer_sweep.h"
#include "cli/commands.h"
#include "core/errors.h"
#include "core/format.h"
#include "runtime/runtime.h"
#include "trace/atomic_file.h"

namespace ds::cli {
namespace {

struct BenchArgs {
  std::string sizes = "4KiB:256MiB:x4";
  std::string routes = "h2d,d2h,d2d,p2p";
  std::string memory = "pinned,pageable";
  std::string mode = "sync,async";
  int repeat = 5;
  std::string csv, json;
  BackendFlags* flags = nullptr;
};

std::string machine_description() {
  utsname u{};
  uname(&u);
  return std::string(u.nodename) + " (" + u.sysname + " " + u.release + ", " + u.machine + ", " +
         std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
}

// A one-line bar on a terminal; plain lines every 10% when stderr is a file or a pipe.
SweepProgress progress_printer() {
  const bool tty = isatty(STDERR_FILENO);
  auto last_decile = std::make_shared<int>(-1);
  return [tty, last_decile](double f, const std::string& label) {
    const int width = 30, filled = int(f * width);
    if (tty) {
      std::fprintf(stderr, "\r[%s%s] %3d%%  %-40s", std::string(size_t(filled), '#').c_str(),
                   std::string(size_t(width - filled), '.').c_str(), int(f * 100), label.c_str());
      if (f >= 1.0) std::fprintf(stderr, "\n");
    } else if (int(f * 10) != *last_decile) {
      *last_decile = int(f * 10);
      std::fprintf(stderr, "bench: %3d%%  %s\n", int(f * 100), label.c_str());
    }
    return true;
  };
}

std::string time_text(double ns) {
  char buf[32];
  if (ns < 1e3) std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  else if (ns < 1e6) std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  return buf;
}

void print_table(const SweepResult& r) {
  std::printf("\nDeviceScope transfer sweep - backend %s, link %s%s\n", r.backend.c_str(), r.link.c_str(),
              r.simulated ? "  [SIMULATED: durations modelled from the link profile, not measured on a GPU]" : "");
  std::printf("%-5s %-9s %-6s %11s %11s %23s %9s %9s %8s %10s\n", "route", "memory", "mode", "size", "median",
              "p10 .. p90", "GB/s", "link", "vs raw", "host/call");
  for (const SweepPoint& p : r.points) {
    const std::string spread = time_text(p.p10_ns) + " .. " + time_text(p.p90_ns);
    char vs_raw[16] = "-";
    if (p.raw_ns > 0) std::snprintf(vs_raw, sizeof vs_raw, "%.3f", p.vs_raw);
    std::printf("%-5s %-9s %-6s %11s %11s %23s %9.2f %9.1f %8s %10s\n", p.route.c_str(), p.memory.c_str(),
                p.mode.c_str(), format_bytes(p.bytes).c_str(), time_text(p.median_ns).c_str(), spread.c_str(), p.gbps,
                p.link_gbps, vs_raw, time_text(p.host_ns).c_str());
  }
  if (!r.pinning.empty()) {
    std::printf("\nCost of pinning (%s) and how many H2D reuses repay it:\n",
                r.pinning.front().measured ? "cudaHostRegister, measured"
                                           : "host page-faulting measured here; SIMULATED devices");
    std::printf("%11s %11s %9s %16s %10s\n", "size", "pin cost", "GB/s", "saved per copy", "reuses");
    for (const PinningCost& c : r.pinning) {
      const std::string reuses = c.reuses_to_repay > 0 ? std::to_string(int64_t(c.reuses_to_repay)) : "never";
      std::printf("%11s %11s %9.2f %16s %10s\n", format_bytes(c.bytes).c_str(), time_text(c.pin_ns).c_str(),
                  c.pin_gbps, time_text(c.saving_ns).c_str(), reuses.c_str());
    }
  }
}

}  // namespace

Command bench_command() {
  auto args = std::make_shared<BenchArgs>();
  Command c;
  c.setup = [args](CLI::App& app, BackendFlags& flags) {
    args->flags = &flags;
    CLI::App* sub = app.add_subcommand("bench", "sweep host<->device transfer sizes and record GB/s");
    sub->add_option("--sizes", args->sizes, "LOW:HIGH[:xN] or a comma list, e.g. 4KiB:1GiB")->capture_default_str();
    sub->add_option("--routes", args->routes, "h2d,d2h,d2d,p2p")->capture_default_str();
    sub->add_option("--memory", args->memory, "host memory for h2d/d2h: pinned,pageable")->capture_default_str();
    sub->add_option("--mode", args->mode, "sync,async")->capture_default_str();
    sub->add_option("--repeat", args->repeat, "samples per point")->check(CLI::Range(1, 1000))->capture_default_str();
    sub->add_option("--csv", args->csv, "write the points as CSV");
    sub->add_option("--json", args->json, "write the sweep as JSON (opens in the app's Bench view)");
    add_backend_flags(*sub, flags);
    return sub;
  };
  c.run = [args]() {
    SweepOptions o;
    o.sizes = parse_size_list(args->sizes);
    o.routes = parse_choice_list(args->routes, {"h2d", "d2h", "d2d", "p2p"}, "route");
    o.memory = parse_choice_list(args->memory, {"pinned", "pageable"}, "memory kind");
    o.modes = parse_choice_list(args->mode, {"sync", "async"}, "mode");
    o.repeat = args->repeat;
    RuntimeOptions ro;
    ro.backend = args->flags->options();
    auto rt = Runtime::create(ro);
    if (!rt->backend_note().empty()) std::cerr << "note: " << rt->backend_note() << "\n";
    if (rt->device_count() < 2 && std::count(o.routes.begin(), o.routes.end(), "p2p"))
      std::cerr << "note: p2p skipped (needs two CUDA devices)\n";
    SweepResult r = run_sweep(*rt, o, progress_printer());
    r.devicescope_version = DEVICESCOPE_VERSION;
    r.machine = machine_description();
    print_table(r);
    if (!args->csv.empty()) write_file_atomically(args->csv, [&](std::ostream& out) { write_sweep_csv(r, out); });
    if (!args->json.empty()) write_file_atomically(args->json, [&](std::ostream& out) { write_sweep_json(r, out); });
    return 0;
  };
  return c;
}

}  // namespace ds::cli
