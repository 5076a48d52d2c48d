// Transfer timeline without GL: one lane per device and direction, each sorted by start time.
// Note [Two clocks on one timeline]: on simulated devices a host copy (pin_memory's memcpy) is measured on
// this machine's wall clock, device copies follow the link model, and the modelled clock does not advance
// for host work. Drawn to one scale, a 138 ms pinning dwarfs 5.6 vs 2.7 ms copies, and the copy out of the
// pinned buffer appears to start at the instant the pinning began. So the axis is the modelled clock with
// a break wherever measured host work happened: the break is the host work's own width (its measured time
// times host_scale, one scale for all host work, chosen so host work takes at most a third of the axis),
// copies issued after the host work start after the break, and no modelled time passes inside one.
// Positions (lane start/end, t_min/t_max, visible()'s t0/t1) are on this display axis, in ns.
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
  bool measured = false;  // a host lane whose bars are measured wall time in clock breaks (two clocks)
};

// Measured host work inserted into the modelled axis (Note [Two clocks on one timeline]).
struct ClockBreak {
  uint64_t at_ns = 0;        // the modelled instant the host work happened at
  uint64_t transfer_id = 0;  // its copy, which orders it among copies issued at the same instant
  double measured_ns = 0;    // wall-clock time of the host work
  double display_start = 0;  // where the break begins on the display axis
  double width = 0;          // measured_ns * host_scale
};

// Where the host read the destination of a copy still in flight (TransferRecord::host_read_ns).
struct HostReadMarker {
  size_t lane = 0;
  uint32_t item = 0;     // lane item index
  double at = 0;         // display axis
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
  bool two_clocks = false;   // measured host work beside modelled device copies: breaks on the axis
  double host_scale = 1;     // display ns per measured ns inside breaks
  std::vector<ClockBreak> breaks;     // by (at_ns, transfer_id)
  std::vector<HostReadMarker> host_reads;
  double now = 0;            // the snapshot's time on the display axis

  // A time of the copy `transfer_id` on the display axis: shifted by every break before it (a break at
  // the same instant counts when its host work was issued first).
  double display(uint64_t t_ns, uint64_t transfer_id) const;
  // The modelled time at a display position (a position inside a break: the break's instant).
  double modelled_at(double display_ns) const;
  // The break at a display position, or -1.
  int break_at(double display_ns) const;

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
