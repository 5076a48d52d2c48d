// The allocator's state at any moment of a PyTorch memory snapshot's trace, as memory_viz finds it: the
// snapshot holds the segments and blocks at its end; walking the trace backwards undoes each action
// (an alloc removes its block, a free_completed brings one back, segment_alloc / segment_free the same for
// segments) back to the trace's start; from there the trace is replayed forwards (DeviceReplay), so that every
// block knows the entry that allocated it (two moments then agree on which blocks are the same allocation).
//
// Note [Allocated bytes as PyTorch counts them]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// c10's CUDACachingAllocator adds a block's *size* to allocated_bytes at malloc (alloc_found_block) and takes
// it off at free() - the moment it records free_requested - even when the block then waits for other streams
// (active_pending_free) until free_completed. The trace entries carry the *requested* size, so the replay
// gives each allocation the block size the allocator would have handed out: round_size (512-byte multiples,
// or roundup_power2_divisions) and, in the large pool, the whole free block when the rest would be <= 1 MiB
// (should_split). A block still live at the snapshot's end takes its size from the snapshot itself.
// max_memory_allocated() is then the highest level of this replay; inspect, diff and the app all use it.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "snapshot/memory_snapshot.h"

namespace ds::snapshot {

// The "device" of pinned host memory (host_segments / host_traces): DeviceReplay and state_at take it too.
inline constexpr int kHostDevice = -1;

struct LiveBlock {
  uint64_t address = 0;
  uint64_t size = 0;            // the block's size (what allocated_bytes counts)
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
  std::vector<LiveBlock> blocks;  // active_allocated and active_pending_free (both occupy memory)
  uint64_t allocated() const;     // active_allocated blocks only: memory_allocated()
  uint64_t live_blocks() const;   // active_allocated blocks only
  uint64_t reserved() const;
};

// The forward replay of one device's trace from the state before it (Note [Allocated bytes as PyTorch counts
// them]). step() applies the next entry; the figures are those after the entries done so far.
class DeviceReplay {
 public:
  DeviceReplay(const MemorySnapshot& s, int device);
  size_t size() const { return trace_->size(); }
  size_t done() const { return done_; }
  const SnapshotTraceEntry& entry(size_t i) const { return (*trace_)[i]; }
  // Applies entry done(); returns the change of allocated bytes it made (0 for most actions).
  int64_t step();
  uint64_t allocated() const { return allocated_; }
  uint64_t reserved() const { return reserved_; }
  const std::map<uint64_t, LiveBlock>& blocks() const { return blocks_; }
  const std::map<uint64_t, LiveSegment>& segments() const { return segments_; }
  // The block the last step allocated or freed (nullptr for other actions, or an address the replay lacked).
  const LiveBlock* last_block() const { return last_ ? &last_block_ : nullptr; }

 private:
  uint64_t block_size(uint64_t addr, uint64_t requested) const;

  const MemorySnapshot& s_;
  const TraceEntries* trace_;
  std::map<uint64_t, LiveSegment> segments_;
  std::map<uint64_t, LiveBlock> blocks_;
  std::unordered_map<size_t, uint64_t> end_size_;  // alloc entry index -> the snapshot's size of the block it made, if still live
  uint64_t allocated_ = 0, reserved_ = 0;
  size_t done_ = 0;
  bool last_ = false;
  LiveBlock last_block_;
};

// c10's round_size with the file's roundup_power2_divisions.
uint64_t allocator_round_size(const AllocatorSettings& settings, uint64_t requested);

// The state of `device` after the first `entries` entries of its trace (entries >= the trace's length:
// the snapshot's own moment).
DeviceState state_at(const MemorySnapshot& s, int device, size_t entries);

// The devices the snapshot knows (segments or a trace), ascending.
std::vector<int> snapshot_devices(const MemorySnapshot& s);

// How many entries of each device's trace happened at or before `time_us` (every entry when the trace
// has no times, as in 1.x files; time_us < 0: none).
std::vector<size_t> entries_at_time(const MemorySnapshot& s, int64_t time_us);

}  // namespace ds::snapshot
