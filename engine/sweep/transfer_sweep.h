// The transfer bandwidth sweep behind `devicescope bench` and the app's Bench view: sizes x routes x
// memory kinds x sync/async through DeviceScope's own copy path, with a raw CUDA baseline on real GPUs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/runtime.h"

namespace ds {

struct SweepOptions {
  std::vector<uint64_t> sizes;                                   // bytes
  std::vector<std::string> routes = {"h2d", "d2h", "d2d", "p2p"};
  std::vector<std::string> memory = {"pinned", "pageable"};      // host side of h2d/d2h
  std::vector<std::string> modes = {"sync", "async"};
  int repeat = 5;  // samples per point (after warm-up)
  int warmup = 1;
};

struct SweepPoint {
  std::string route, memory, mode;  // memory is "device" for d2d/p2p
  uint64_t bytes = 0;
  std::vector<double> samples_ns;   // copy durations (modelled on simulated devices, CUDA events on real ones)
  double median_ns = 0, p10_ns = 0, p90_ns = 0;
  double host_ns = 0;               // median host wall time per call through the engine (its overhead)
  double gbps = 0;                  // bytes / median (1e9 bytes per second)
  double link_gbps = 0;             // the link profile's nominal rate for this route
  double raw_ns = 0;                // raw cudaMemcpyAsync baseline (real CUDA only, 0 otherwise)
  double vs_raw = 0;                // raw_ns / median_ns: DeviceScope's throughput over raw (>= 0.97 target)
  bool simulated = false;
};

struct PinningCost {
  uint64_t bytes = 0;
  double pin_ns = 0;         // cost of pinning a buffer of `bytes`
  double pin_gbps = 0;
  bool measured = false;     // real cudaHostRegister; else host page-faulting measured on the simulated backend
  double saving_ns = 0;      // pageable minus pinned H2D time per transfer at this size
  double reuses_to_repay = 0;  // 0 when pinning never pays off
};

struct SweepResult {
  std::string backend, link, devicescope_version, machine;
  bool simulated = false;
  std::vector<SweepPoint> points;
  std::vector<PinningCost> pinning;
  bool cancelled = false;
};

// Progress: fraction done and a label; return false to cancel (the points measured so far are kept).
using SweepProgress = std::function<bool(double fraction, const std::string& label)>;

SweepResult run_sweep(Runtime& rt, const SweepOptions& options, const SweepProgress& progress = {});

// "4KiB:1GiB" (powers of two), "4KiB:1GiB:x4" (every 4x), or "4KiB,1MiB,256MiB". Raises ValueError.
std::vector<uint64_t> parse_size_list(const std::string& text);
// Comma list checked against `allowed`; raises ValueError naming the bad item and the choices.
std::vector<std::string> parse_choice_list(const std::string& text, const std::vector<std::string>& allowed,
                                           const std::string& what);

}  // namespace ds
