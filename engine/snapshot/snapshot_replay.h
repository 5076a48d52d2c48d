// The allocator's state at any moment of a PyTorch memory snapshot's trace, as memory_viz finds it: the
// snapshot holds the segments and blocks at its end; walking the trace backwards undoes each action
// (an alloc removes its block, a free_completed brings one back, segment_alloc / segment_free the same for
// segments) back to the trace's start; from there the trace is replayed forwards to the moment asked for,
// so that every block knows the entry that allocated it (two moments then agree on which blocks are the
// same allocation).
#pragma once

#include <cstdint>
#include <vector>

#include "snapshot/memory_snapshot.h"

namespace ds::snapshot {

struct LiveBlock {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t requested_size = 0;  // 0 when the file does not say
  BlockState state = BlockState::ActiveAllocated;
  StackId stack = 0;
  uint64_t serial = 0;  // 1 + the index of the trace entry that allocated it; 0: allocated before the trace began
};

struct LiveSegment {
  uint64_t address = 0;
  uint64_t size = 0;
  int64_t stream = 0;
  bool small_pool = false;
};

// One device at one moment: its segments and its active blocks, both in address order.
struct DeviceState {
  int device = 0;
  std::vector<LiveSegment> segments;
  std::vector<LiveBlock> blocks;  // active_allocated and active_pending_free
  uint64_t allocated() const;
  uint64_t reserved() const;
};

// The state of `device` after the first `entries` entries of its trace (entries >= the trace's length:
// the snapshot's own moment).
DeviceState state_at(const MemorySnapshot& s, int device, size_t entries);

// The devices the snapshot knows (segments or a trace), ascending.
std::vector<int> snapshot_devices(const MemorySnapshot& s);

// How many entries of each device's trace happened at or before `time_us` (every entry when the trace
// has no times, as in 1.x files; time_us < 0: none).
std::vector<size_t> entries_at_time(const MemorySnapshot& s, int64_t time_us);

}  // namespace ds::snapshot
