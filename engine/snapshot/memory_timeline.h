// Active memory over time for one device of a PyTorch memory snapshot (memory_viz's "Active Memory
// Timeline"), stacked by owner: the few owners holding the most at the peak, then everything else; and
// stacked by category (parameter, gradient, optimizer state, ...: the roles DeviceScope's own snapshots name;
// "unknown" for blocks whose stack names none, as every block of a PyTorch-written snapshot). The
// trace is cut into buckets; each bucket keeps the bytes of every category at its end and the highest total
// inside it, so a peak between two bucket ends is still drawn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/memory_snapshot.h"

namespace ds::snapshot {

// A labelled moment on the timeline: an external_annotations entry of the device ("forward START"), or where a
// trace's user_metadata (torch.cuda.memory._set_memory_metadata) or compile_context changes.
struct TimelineMark {
  int64_t x = 0;         // in the timeline's units (time_us, or entries done)
  size_t entries = 0;    // trace entries done at the mark (the moment e:N)
  std::string text;      // "forward START", "metadata: epoch 1", "compile: [0/0] ..."
};

struct MemoryTimeline {
  int device = 0;
  bool timed = false;                         // x is time_us; else the number of entries done
  std::vector<int64_t> x;                     // each bucket's end
  std::vector<size_t> entries;                // trace entries done at each bucket's end
  std::vector<std::string> categories;        // owners (stack_owner), largest at the peak first; "other" last
  std::vector<std::vector<uint64_t>> bytes;   // [category][bucket]: live bytes at the bucket's end
  // By category: role labels ("parameter", "optimizer state") in core/role.h's order, then "unknown"; only
  // those holding bytes at some bucket's end.
  std::vector<std::string> roles;
  std::vector<std::vector<uint64_t>> role_bytes;  // [role][bucket], as bytes
  bool roles_known = false;                   // some block's stack names its role
  std::vector<uint64_t> bucket_max;           // the highest total inside each bucket
  uint64_t peak = 0;                          // the highest total over the whole trace (or its start)
  size_t peak_entries = 0;                    // entries done when it was reached
  std::vector<TimelineMark> marks;            // in x order
};

// One timeline per device with a trace; `top` owners get a category of their own.
std::vector<MemoryTimeline> memory_timelines(const MemorySnapshot& s, size_t buckets = 1024, size_t top = 6);

}  // namespace ds::snapshot
