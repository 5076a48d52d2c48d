// What `devicescope inspect` says about a PyTorch memory snapshot: per device the segments, live
// blocks, bytes now and at their peak (found by replaying the trace), and the largest owners.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/memory_snapshot.h"
#include "snapshot/snapshot_replay.h"

namespace ds::snapshot {

struct DeviceSummary {
  int device = 0;                  // kHostDevice (-1): pinned host memory (host_segments / host_traces)
  uint64_t segments = 0;
  uint64_t live_blocks = 0;        // active_allocated blocks (a block awaiting free is not live)
  uint64_t allocated_bytes = 0;    // their sizes when the snapshot was taken: memory_allocated()
  uint64_t awaiting_free_blocks = 0, awaiting_free_bytes = 0;  // active_pending_free: reserved, not allocated
  uint64_t reserved_bytes = 0;     // segments' total_size when the snapshot was taken
  uint64_t private_pool_bytes = 0; // segments in a private pool (segment_pool_id != (0, 0)): CUDA graphs, MemPool
  uint64_t trace_entries = 0;
  // Peaks over the trace (Note [Allocated bytes as PyTorch counts them]: max_memory_allocated() over the
  // trace; reserved: segment_alloc/map .. segment_free/unmap). Unknown without a trace (a 1.x file, or
  // history not recorded): the snapshot alone cannot say what came before it.
  bool peak_known = false;
  uint64_t peak_allocated = 0;
  uint64_t peak_reserved = 0;
  // The moment of each peak: trace entries done (the N of `diff FILE@e:N`; 0: before the trace's first entry)
  // and the time of the entry that reached it (0 when N is 0 or the file has no times).
  size_t peak_allocated_entries = 0;
  size_t peak_reserved_entries = 0;
  int64_t peak_allocated_time_us = 0;
  int64_t peak_reserved_time_us = 0;
};

struct OwnerBytes {
  std::string owner;  // stack_owner: innermost user frame "file:line name", kNoFramesOwner or a C++-only name
  uint64_t bytes = 0;
  uint64_t blocks = 0;
};

struct SnapshotSummary {
  int format_major = 2;
  std::vector<DeviceSummary> devices;  // by device index, only devices with segments or trace entries; host last
  std::vector<OwnerBytes> top_owners;  // at the snapshot's moment (its end): active_allocated blocks, largest first
  uint64_t trace_entries = 0;
  std::array<uint64_t, kTraceActionCount> action_counts{};
  uint64_t distinct_frames = 0;
  uint64_t distinct_stacks = 0;
  uint64_t annotations = 0;                   // external_annotations entries
  std::vector<std::string> user_metadata;     // distinct _set_memory_metadata texts in the traces (first 20)
  std::vector<std::string> compile_contexts;  // distinct torch.compile contexts other than "N/A" (first 20)
};

SnapshotSummary summarize_snapshot(const MemorySnapshot& s, size_t top_n = 10);

// The frame a user would call the owner: the innermost one that is not PyTorch's own Python
// (…/torch/…) or native code (.cpp/.h/.cu, "??"); else the innermost Python frame; a stack with no Python
// frame at all (the autograd engine's backward threads, C++ extensions) is named for that: kCppOnlyOwner, or
// kAutogradOwner when an autograd engine frame is in it.
std::string stack_owner(const MemorySnapshot& s, StackId stack);

inline constexpr const char* kNoFramesOwner = "<no frames>";
inline constexpr const char* kCppOnlyOwner = "<C++ only: no Python frame>";
inline constexpr const char* kAutogradOwner = "<C++ only: autograd engine (backward)>";

}  // namespace ds::snapshot
