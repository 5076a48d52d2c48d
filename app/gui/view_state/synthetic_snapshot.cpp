// Builds large deterministic snapshots without running any code (the benchmark's picture).
#include "gui/view_state/synthetic_snapshot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace ds::gui {
namespace {

const Role kRoles[] = {Role::Parameter, Role::Parameter, Role::Parameter, Role::Gradient, Role::OptimizerState,
                       Role::OptimizerState, Role::Activation, Role::Buffer, Role::Tensor, Role::PlainAttribute};

}  // namespace

Snapshot make_synthetic_snapshot(const SyntheticOptions& o) {
  std::mt19937_64 rng(o.seed);
  Snapshot snap;
  snap.backend = "sim";
  snap.simulated = true;
  snap.link = "pcie4-x16";
  snap.places.push_back({Place::pageable(), "host (pageable)", "ordinary CPU memory", 0, 0, 0, false});
  snap.places.push_back({Place::pinned(), "host (pinned)", "page-locked CPU memory", 0, 0, 0, true});
  for (int d = 0; d < o.devices; ++d)
    snap.places.push_back({Place::cuda(d), "cuda:" + std::to_string(d),
                           "Simulated CUDA device " + std::to_string(d) + " (pcie4-x16)", 0, 0, o.capacity, true});

  // Storages: 10% pageable, 5% pinned, the rest over the devices. Sizes log-uniform 512 B .. 64 MiB.
  std::uniform_real_distribution<double> u(0.0, 1.0);
  snap.storages.reserve(o.storages);
  for (size_t i = 0; i < o.storages; ++i) {
    StorageInfo s;
    s.id = i + 1;
    const double r = u(rng);
    if (r < 0.10) s.place = Place::pageable();
    else if (r < 0.15) s.place = Place::pinned();
    else s.place = o.devices > 0 ? Place::cuda(int(i % size_t(o.devices))) : Place::pageable();
    s.nbytes = uint64_t(std::exp2(9.0 + u(rng) * 17.0));
    s.block_bytes = (s.nbytes + 511) / 512 * 512;
    s.role = s.place.kind == MemoryKind::Pinned ? Role::PinnedStaging : kRoles[rng() % 10];
    s.owner = "model.layers." + std::to_string(i / 8) + (s.role == Role::Parameter ? ".weight" : ".act");
    s.holders = {s.owner};
    s.dtype = "float32";
    s.shape = {int64_t(s.nbytes / 4)};
    s.created_seq = i + 1;
    snap.storages.push_back(std::move(s));
  }
  // Keep every device within its capacity (at most 70% allocated), as a real allocator must: with many
  // storages the sizes shrink, so a 1,000,000-storage picture is one of many small blocks.
  if (o.capacity > 0) {
    std::vector<double> total(size_t(std::max(o.devices, 0)), 0.0);
    for (const StorageInfo& s : snap.storages)
      if (s.place.kind == MemoryKind::Device) total[size_t(s.place.device)] += double(s.nbytes);
    for (StorageInfo& s : snap.storages) {
      if (s.place.kind != MemoryKind::Device) continue;
      const double f = std::min(1.0, 0.7 * double(o.capacity) / std::max(1.0, total[size_t(s.place.device)]));
      s.nbytes = std::max<uint64_t>(512, uint64_t(double(s.nbytes) * f) / 512 * 512);
      s.block_bytes = s.nbytes;
      s.shape = {int64_t(s.nbytes / 4)};
    }
  }
  // Device and pinned segments: consecutive storages of one place share a segment of up to ~8 blocks,
  // with a cached free block now and then (reserved > allocated, as with a real caching allocator).
  std::vector<size_t> open(size_t(o.devices) + 1, SIZE_MAX);  // index of the segment being filled
  std::vector<uint64_t> next_addr(size_t(o.devices) + 1, 1ull << 32);
  snap.segments.reserve(o.storages / 4);
  for (StorageInfo& s : snap.storages) {
    if (s.place.kind == MemoryKind::Pageable) continue;
    const size_t slot = s.place.kind == MemoryKind::Pinned ? size_t(o.devices) : size_t(s.place.device);
    if (open[slot] == SIZE_MAX || snap.segments[open[slot]].blocks.size() >= 8 || rng() % 11 == 0) {
      SegmentInfo seg;
      seg.device = s.place.kind == MemoryKind::Pinned ? -1 : s.place.device;
      seg.address = next_addr[slot];
      snap.segments.push_back(std::move(seg));
      open[slot] = snap.segments.size() - 1;
    }
    SegmentInfo& seg = snap.segments[open[slot]];
    s.address = seg.address + seg.size;
    seg.blocks.push_back({s.address, s.block_bytes, true, 0, s.id});
    seg.size += s.block_bytes;
    if (rng() % 6 == 0) {
      const uint64_t free_bytes = s.block_bytes / 2 + 512;
      seg.blocks.push_back({seg.address + seg.size, free_bytes, false, 0, 0});
      seg.size += free_bytes;
    }
    next_addr[slot] = seg.address + seg.size + (2ull << 20);
  }
  for (const StorageInfo& s : snap.storages)
    for (PlaceInfo& p : snap.places)
      if (p.place == s.place) {
        p.allocated += s.block_bytes;
        if (s.place.kind == MemoryKind::Pageable) p.reserved += s.block_bytes;
      }
  for (const SegmentInfo& seg : snap.segments)
    for (PlaceInfo& p : snap.places)
      if ((seg.device < 0 && p.place.kind == MemoryKind::Pinned) || (seg.device >= 0 && p.place == Place::cuda(seg.device)))
        p.reserved += seg.size;

  // Transfers: bursts of copies on a modelled clock; sizes log-uniform 4 KiB .. 256 MiB.
  snap.transfers.resize(o.transfers);
  uint64_t t = 1000;
  for (size_t i = 0; i < o.transfers; ++i) {
    TransferRecord& r = snap.transfers[i];
    r.id = i + 1;
    const int dev = o.devices > 0 ? int(rng() % uint64_t(o.devices)) : 0;
    const uint64_t kind = rng() % 10;
    const bool pinned = rng() % 2 == 0;
    const Place host = pinned ? Place::pinned() : Place::pageable();
    if (kind < 5) { r.src = host; r.dst = Place::cuda(dev); }
    else if (kind < 9) { r.src = Place::cuda(dev); r.dst = host; }
    else { r.src = Place::cuda(dev); r.dst = Place::cuda(o.devices > 1 ? (dev + 1) % o.devices : dev); }
    r.bytes = uint64_t(std::exp2(12.0 + u(rng) * 16.0));
    r.route = r.src.is_host() && r.src.kind == MemoryKind::Pageable ? Route::StagedPinned
              : (!r.src.is_host() && !r.dst.is_host() && r.src != r.dst) ? Route::Peer : Route::Direct;
    const double gbs = r.route == Route::StagedPinned ? 12.0 : r.route == Route::Peer ? 40.0 : 24.0;
    const uint64_t dur = uint64_t(8000.0 + double(r.bytes) / gbs);
    r.non_blocking = pinned;
    r.async = pinned;
    r.stream_device = dev;
    r.enqueue_ns = t;
    r.start_ns = t;
    r.end_ns = t + dur;
    r.simulated = true;
    r.complete = true;
    r.owner = "model.layers." + std::to_string(i % 997) + ".weight";
    t += dur / 3 + rng() % 20000;  // copies overlap a little, as on several streams
  }
  snap.time_ns = t;
  snap.seq = o.storages + o.transfers;

  // A small names graph and module tree so those views have something to draw.
  ObjectGraph& g = snap.objects;
  g.nodes.push_back({1, ObjectKind::Name, "model", "", 0, false});
  g.nodes.push_back({2, ObjectKind::Module, "Transformer(layers=12)", "cuda:0", 0, false});
  g.edges.push_back({1, 2, ""});
  g.modules.push_back({0, "model", "Transformer", ObjectKind::Module, "", "", {}, false, 0});
  for (int l = 0; l < 12 && size_t(l) < snap.storages.size(); ++l) {
    const uint64_t id = 10 + uint64_t(l);
    g.nodes.push_back({id, ObjectKind::Module, "Linear(1024, 1024)", "cuda:0", 0, l == 11});
    g.edges.push_back({2, id, std::to_string(l)});
    g.modules.push_back({1, "model.layers." + std::to_string(l), "Linear", ObjectKind::Module, "", "", {}, false, 0});
    g.modules.push_back({2, "model.layers." + std::to_string(l) + ".weight", "Parameter", ObjectKind::Parameter,
                         l == 11 ? "cpu" : "cuda:0", "float32", {1024, 1024}, l == 11, snap.storages[size_t(l)].id});
  }
  return snap;
}

}  // namespace ds::gui
