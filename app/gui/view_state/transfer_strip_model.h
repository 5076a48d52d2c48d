// Presenter mode's transfers strip, without GL: the newest copies as readable rows - route, size, time,
// rate and what kind of copy it was (staged through the driver's buffer, async, still in flight) - with bar
// lengths on one scale, so "the pinned copy took half as long" is visible at projector size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/snapshot.h"

namespace ds::gui {

struct TransferStripRow {
  uint64_t id = 0;
  std::string route;               // "pageable \u2192 cuda:0"
  std::string size;                // "64.00 MiB"
  std::string time;                // "5.59 ms", "in flight"
  std::string rate;                // "12.0 GB/s", "" while in flight
  std::vector<std::string> tags;   // "staged", "async", "not synchronised", "peer", ...
  std::string owner;               // "model.fc.weight" when known
  double duration_ns = 0;          // 0 while in flight
  double bar = 0;                  // 0..1 of the longest shown copy on the same clock
  bool in_flight = false;
  bool host_only = false;          // host to host (pin_memory's copy)
  uint32_t color = 0;              // transfer_color(src, dst)
};

struct TransferStripModel {
  std::vector<TransferStripRow> rows;  // newest first, at most max_rows
  size_t total = 0;                    // copies in the snapshot (its window)
  uint64_t total_bytes = 0;
  size_t earlier = 0;                  // copies not shown
  bool simulated = false;
};

TransferStripModel make_transfer_strip(const Snapshot& snap, size_t max_rows);

}  // namespace ds::gui
