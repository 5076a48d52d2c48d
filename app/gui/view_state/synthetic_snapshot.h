// Synthetic snapshots of any size (storages, segments, transfers, names) for --bench-frames and tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "trace/snapshot.h"

namespace ds::gui {

struct SyntheticOptions {
  size_t storages = 100000;
  size_t transfers = 1000000;
  int devices = 2;
  uint64_t capacity = 80ull << 30;  // per device
  uint64_t seed = 1;
};

// Deterministic for given options. Storages are spread over pageable, pinned and every device
// (devices get caching-allocator segments with the storages as blocks, plus some cached free blocks);
// transfers are H2D/D2H/D2D copies with modelled PCIe-like timings, in start-time order.
Snapshot make_synthetic_snapshot(const SyntheticOptions& options);

}  // namespace ds::gui
