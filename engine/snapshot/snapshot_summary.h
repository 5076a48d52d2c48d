// What `devicescope inspect` says about a PyTorch memory snapshot: per device the segments, live
// blocks, bytes now and at their peak (found by replaying the trace), and the largest owners.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/memory_snapshot.h"

namespace ds::snapshot {

struct DeviceSummary {
  int device = 0;
  uint64_t segments = 0;
  uint64_t live_blocks = 0;        // active_allocated + active_pending_free blocks
  uint64_t allocated_bytes = 0;    // active blocks' sizes when the snapshot was taken
  uint64_t reserved_bytes = 0;     // segments' total_size when the snapshot was taken
  uint64_t trace_entries = 0;
  // Peaks over the trace (allocated: alloc .. free_completed, as memory_viz's active-memory timeline;
  // reserved: segment_alloc/map .. segment_free/unmap). Without a trace they are the snapshot's figures.
  uint64_t peak_allocated = 0;
  uint64_t peak_reserved = 0;
  int64_t peak_allocated_entry = -1;  // index in the device's trace of the entry that reached it; -1: at the
  int64_t peak_reserved_entry = -1;   // start of the trace (or no trace: the snapshot moment)
  int64_t peak_allocated_time_us = 0; // that entry's time_us (0 when -1 or when the file has no times)
  int64_t peak_reserved_time_us = 0;
};

struct OwnerBytes {
  std::string owner;  // innermost user frame "file:line name", or "<no frames>"
  uint64_t bytes = 0;
  uint64_t blocks = 0;
};

struct SnapshotSummary {
  int format_major = 2;
  std::vector<DeviceSummary> devices;  // by device index, only devices with segments or trace entries
  std::vector<OwnerBytes> top_owners;  // live (active_allocated) blocks, largest first
  uint64_t trace_entries = 0;
  std::array<uint64_t, kTraceActionCount> action_counts{};
  uint64_t distinct_frames = 0;
  uint64_t distinct_stacks = 0;
};

SnapshotSummary summarize_snapshot(const MemorySnapshot& s, size_t top_n = 10);

// The frame a user would call the owner: the innermost one that is not PyTorch's own Python
// (…/torch/…) or native code (.cpp/.h/.cu, "??"); the innermost frame when all are.
std::string stack_owner(const MemorySnapshot& s, StackId stack);

}  // namespace ds::snapshot
