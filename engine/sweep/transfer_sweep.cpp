// Runs the transfer sweep through Runtime::copy_bytes (the same path every tensor copy takes).
#include "sweep/transfer_sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "backend/raw_baseline.h"
#include "core/errors.h"
#include "core/format.h"

namespace ds {
namespace {

double wall_ns() {
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count());
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * double(v.size() - 1);
  const size_t lo = size_t(std::floor(pos)), hi = size_t(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

Place host_place(const std::string& memory) { return memory == "pinned" ? Place::pinned() : Place::pageable(); }

RawRoute raw_route(const std::string& route) {
  if (route == "h2d") return RawRoute::H2D;
  if (route == "d2h") return RawRoute::D2H;
  if (route == "d2d") return RawRoute::D2D;
  return RawRoute::P2P;
}

const RouteRate& nominal(const LinkProfile& l, const std::string& route, const std::string& memory) {
  if (route == "h2d") return memory == "pinned" ? l.h2d_pinned : l.h2d_pageable;
  if (route == "d2h") return memory == "pinned" ? l.d2h_pinned : l.d2h_pageable;
  if (route == "d2d") return l.d2d;
  return l.p2p;
}

// Writes every byte so no page fault lands inside a timed copy.
void touch(Runtime& rt, Storage& s) {
  if (!s.data() || s.nbytes() == 0) return;
  if (s.place().kind == MemoryKind::Device) rt.backend().memset(s.place().device, s.data(), 1, s.nbytes());
  else std::memset(s.data(), 1, s.nbytes());
}

SweepPoint measure_point(Runtime& rt, const SweepOptions& o, const std::string& route, const std::string& memory,
                         const std::string& mode, uint64_t bytes) {
  Place src_place, dst_place;
  if (route == "h2d") { src_place = host_place(memory); dst_place = Place::cuda(0); }
  else if (route == "d2h") { src_place = Place::cuda(0); dst_place = host_place(memory); }
  else if (route == "d2d") { src_place = Place::cuda(0); dst_place = Place::cuda(0); }
  else { src_place = Place::cuda(0); dst_place = Place::cuda(1); }
  StoragePtr src = rt.allocate(src_place, bytes);
  StoragePtr dst = rt.allocate(dst_place, bytes);
  touch(rt, *src);
  touch(rt, *dst);

  SweepPoint p;
  p.route = route;
  p.memory = memory;
  p.mode = mode;
  p.bytes = bytes;
  p.simulated = rt.backend().caps().simulated;
  p.link_gbps = nominal(rt.backend().link(), route, memory).bandwidth_gbs;
  const bool async = mode == "async";
  const int stream_device = 0;
  std::vector<double> host;
  for (int i = 0; i < o.warmup + o.repeat; ++i) {
    const double t0 = wall_ns();
    const uint64_t id = rt.copy_bytes(*dst, 0, *src, 0, bytes, async, stream_device);
    if (async) rt.backend().synchronize_stream(stream_device, rt.current_stream(stream_device));
    rt.poll();
    const double t1 = wall_ns();
    if (i < o.warmup) continue;
    const TransferRecord* r = rt.log().find_transfer(id);
    check(r && r->complete, "bench: the copy did not complete after a stream synchronize");
    p.samples_ns.push_back(r->duration_ns());
    host.push_back(t1 - t0);
  }
  p.median_ns = percentile(p.samples_ns, 0.5);
  p.p10_ns = percentile(p.samples_ns, 0.1);
  p.p90_ns = percentile(p.samples_ns, 0.9);
  p.host_ns = percentile(host, 0.5);
  p.gbps = p.median_ns > 0 ? double(bytes) / p.median_ns : 0;
  if (!p.simulated) {
    const int per_batch = int(std::clamp<uint64_t>((256ull << 20) / std::max<uint64_t>(bytes, 1), 1, 100));
    const RawBaseline raw = raw_cuda_copy(raw_route(route), memory == "pinned", bytes, std::max(3, o.repeat), per_batch);
    if (raw.available) {
      p.raw_ns = raw.ns_per_copy;
      p.vs_raw = p.median_ns > 0 ? raw.ns_per_copy / p.median_ns : 0;
    }
  }
  return p;
}

PinningCost pinning_cost(Runtime& rt, uint64_t bytes, const std::vector<SweepPoint>& points) {
  PinningCost c;
  c.bytes = bytes;
  if (!rt.backend().caps().simulated) {
    c.pin_ns = raw_cuda_pin_ns(bytes);
    c.measured = c.pin_ns > 0;
  }
  if (!c.measured) {
    // Simulated backend: page-locking is at least faulting every page in; measure that on this host.
    void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    const double t0 = wall_ns();
    if (p) std::memset(p, 1, bytes);  // non-zero: malloc+memset(0) may be folded into calloc
    asm volatile("" : : "r"(p) : "memory");  // keep the stores: they are what is being measured
    c.pin_ns = wall_ns() - t0;
    std::free(p);
  }
  c.pin_gbps = c.pin_ns > 0 ? double(bytes) / c.pin_ns : 0;
  double pinned = 0, pageable = 0;
  for (const SweepPoint& pt : points) {
    if (pt.route != "h2d" || pt.mode != "sync" || pt.bytes != bytes) continue;
    (pt.memory == "pinned" ? pinned : pageable) = pt.median_ns;
  }
  if (pinned > 0 && pageable > 0) {
    c.saving_ns = pageable - pinned;
    c.reuses_to_repay = c.saving_ns > 0 ? std::ceil(c.pin_ns / c.saving_ns) : 0;
  }
  return c;
}

}  // namespace

SweepResult run_sweep(Runtime& rt, const SweepOptions& o, const SweepProgress& progress) {
  check(rt.device_count() > 0, "bench: no CUDA devices (CUDA is off); use --sim-devices N or a GPU machine",
        ErrorKind::ValueError);
  check(o.repeat >= 1, "bench: --repeat must be at least 1", ErrorKind::ValueError);
  SweepResult result;
  result.backend = rt.backend().name();
  result.link = rt.backend().link().name;
  result.simulated = rt.backend().caps().simulated;

  struct Job { std::string route, memory, mode; uint64_t bytes; };
  std::vector<Job> jobs;
  for (const std::string& route : o.routes) {
    if (route == "p2p" && rt.device_count() < 2) continue;  // said in the output by the caller
    const bool host_route = route == "h2d" || route == "d2h";
    const std::vector<std::string> memories = host_route ? o.memory : std::vector<std::string>{"device"};
    for (const std::string& memory : memories)
      for (const std::string& mode : o.modes)
        for (uint64_t bytes : o.sizes) jobs.push_back({route, memory, mode, bytes});
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& j = jobs[i];
    if (progress && !progress(double(i) / double(jobs.size()),
                              j.route + " " + j.memory + " " + j.mode + " " + format_bytes(j.bytes))) {
      result.cancelled = true;
      return result;
    }
    result.points.push_back(measure_point(rt, o, j.route, j.memory, j.mode, j.bytes));
  }
  const bool has_h2d_both = std::count(o.routes.begin(), o.routes.end(), "h2d") &&
                            std::count(o.memory.begin(), o.memory.end(), "pinned") &&
                            std::count(o.memory.begin(), o.memory.end(), "pageable") &&
                            std::count(o.modes.begin(), o.modes.end(), "sync");
  if (has_h2d_both)
    for (uint64_t bytes : o.sizes) result.pinning.push_back(pinning_cost(rt, bytes, result.points));
  if (progress) progress(1.0, "done");
  return result;
}

std::vector<uint64_t> parse_size_list(const std::string& text) {
  std::vector<uint64_t> sizes;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) sizes.push_back(parse_bytes(item));
  } else {
    const std::string rest = text.substr(colon + 1);
    const auto colon2 = rest.find(':');
    const uint64_t lo = parse_bytes(text.substr(0, colon));
    const uint64_t hi = parse_bytes(rest.substr(0, colon2));
    uint64_t factor = 2;
    if (colon2 != std::string::npos) {
      const std::string step = rest.substr(colon2 + 1);
      check(step.size() > 1 && step[0] == 'x', "invalid size step '" + step + "' (expected e.g. x2 or x4)",
            ErrorKind::ValueError);
      factor = std::strtoull(step.c_str() + 1, nullptr, 10);
      check(factor >= 2, "invalid size step '" + step + "' (expected e.g. x2 or x4)", ErrorKind::ValueError);
    }
    check(lo > 0 && lo <= hi, "invalid size range '" + text + "' (expected LOW:HIGH, e.g. 4KiB:1GiB)",
          ErrorKind::ValueError);
    for (uint64_t s = lo; s <= hi; s *= factor) sizes.push_back(s);
  }
  check(!sizes.empty(), "no sizes in '" + text + "'", ErrorKind::ValueError);
  for (uint64_t s : sizes) check(s > 0, "sizes must be positive", ErrorKind::ValueError);
  return sizes;
}

std::vector<std::string> parse_choice_list(const std::string& text, const std::vector<std::string>& allowed,
                                           const std::string& what) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      std::string choices;
      for (const auto& a : allowed) choices += (choices.empty() ? "" : ", ") + a;
      raise(ErrorKind::ValueError, "unknown " + what + " '" + item + "' (choose from " + choices + ")");
    }
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
  check(!out.empty(), "no " + what + " given", ErrorKind::ValueError);
  return out;
}

}  // namespace ds
