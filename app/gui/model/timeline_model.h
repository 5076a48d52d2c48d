// Transfer timeline without GL: one lane per device and direction, each sorted by start time.
// visible() visits only the time range on screen (binary search) and merges items narrower than a few
// pixels, and items starting within a few pixels of each other however long, into one folded item with
// a count, Tracy-style, so a frame costs O(pixels log n), not O(n), whatever the density.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/snapshot.h"

namespace ds::gui {

enum class Direction : int8_t { H2D, D2H, D2D, Host };
const char* direction_name(Direction d);  // "H2D", ...

struct TimelineLane {
  std::string name;      // "cuda:0 H2D"
  int device = -1;       // the device side of the copy (-1: host to host)
  Direction direction = Direction::H2D;
  uint32_t color = 0;
  std::vector<uint32_t> index;       // into Snapshot::transfers, by start time
  std::vector<uint64_t> start, end;  // per item
  std::vector<uint64_t> end_max;     // running maximum of `end` (non-decreasing: binary-searchable)
  std::vector<uint64_t> bytes_prefix;  // bytes of items [0, i)
  std::vector<uint8_t> in_flight;
};

struct TimelineItem {
  double x0 = 0, x1 = 0;  // pixels from the left of the visible range
  uint32_t first = 0;     // lane item index
  uint32_t count = 1;     // > 1: folded
  uint64_t bytes = 0;
  bool in_flight = false;
};

struct TimelineModel {
  std::vector<TimelineLane> lanes;
  uint64_t t_min = 0, t_max = 0;  // over all transfers
  size_t transfers = 0;

  void build(const Snapshot& snap);
  // Items of `lane` overlapping [t0, t1] (ns) at `px_per_ns`; items narrower than `min_px`, or starting
  // within `min_px` of each other, are merged (at most about 2 items per `min_px` of the range).
  void visible(size_t lane, double t0, double t1, double px_per_ns, double min_px, std::vector<TimelineItem>& out) const;
  // Lane item under time t (with a pixel tolerance); -1 when none.
  int item_at(size_t lane, double t, double tolerance_ns) const;
};

// Lane of a transfer.
Direction transfer_direction(const TransferRecord& t);

}  // namespace ds::gui
