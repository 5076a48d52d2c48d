// A PyTorch CUDA caching-allocator snapshot, typed: what torch.cuda.memory._snapshot() returns and
// _dump_snapshot() pickles. Two forms exist:
//   2.x: {"segments": [Segment], "device_traces": [[TraceEntry] per device], "allocator_settings": {...},
//         later 2.x also "external_annotations": [{device, time_us, ...metadata}] and, with
//         _record_memory_history(record_host=True), "host_segments" / "host_traces" (pinned host memory from
//         the CachingHostAllocator, read here with the device segments' and entries' layout)}
//        Segment: device, address, total_size, allocated_size, active_size, requested_size, stream,
//                 segment_type ("large"/"small"), segment_pool_id, is_expandable, frames, blocks
//        Block: address, size, requested_size, state ("active_allocated", "active_pending_free" - the
//               docstring's "active_awaiting_free" -, "inactive"), frames. Only active_allocated blocks count
//               in PyTorch's allocated_size / memory_allocated(): a block awaiting free is neither allocated
//               nor live (the allocator took it off allocated_bytes at its free_requested).
//        TraceEntry: action, addr, size, stream, time_us, frames, device_free (oom), compile_context,
//                    user_metadata
//        Frame: {"filename", "line", "name"}
//   1.x (1.13): a list of segments; a block carries "history": [{"addr", "real_size", "frames"}]
//        instead of frames and requested_size, and there is no trace.
// Fields a version lacks read as 0 / empty. Strings and frames are stored once (PyTorch shares
// them and the pickle memoizes them): a stack is a range of frame indexes.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "snapshot/pickle_reader.h"
#include "trace/load_progress.h"

namespace ds::snapshot {

enum class BlockState : uint8_t { ActiveAllocated, ActivePendingFree, Inactive };
const char* block_state_name(BlockState s);

enum class TraceAction : uint8_t {
  Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, SegmentMap, SegmentUnmap, Oom, Snapshot, Other
};
const char* trace_action_name(TraceAction a);
inline constexpr int kTraceActionCount = int(TraceAction::Other) + 1;

using StackId = uint32_t;  // 0: no frames

struct SnapshotFrame {
  uint32_t filename = 0;  // index into MemorySnapshot::strings
  uint32_t name = 0;
  int64_t line = 0;
};

struct SnapshotBlock {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t requested_size = 0;
  BlockState state = BlockState::Inactive;
  StackId stack = 0;
};

struct SnapshotSegment {
  int device = 0;
  uint64_t address = 0;
  uint64_t total_size = 0;
  uint64_t allocated_size = 0;
  uint64_t active_size = 0;
  uint64_t requested_size = 0;
  int64_t stream = 0;
  bool small_pool = false;  // segment_type "small"
  bool is_expandable = false;
  // segment_pool_id: (0, 0) is the default pool; anything else a private pool (CUDA graphs, MemPool).
  int64_t pool_id[2] = {0, 0};
  bool private_pool() const { return pool_id[0] != 0 || pool_id[1] != 0; }
  StackId stack = 0;
  std::vector<SnapshotBlock> blocks;
};

struct SnapshotTraceEntry {
  TraceAction action = TraceAction::Other;
  uint64_t addr = 0;
  uint64_t size = 0;
  int64_t stream = 0;
  int64_t time_us = 0;
  uint64_t device_free = 0;  // oom: free bytes on the device when it happened
  StackId stack = 0;
  uint32_t compile_context = 0;  // index into MemorySnapshot::strings: torch.compile's context ("N/A" outside one)
  uint32_t user_metadata = 0;    // index into strings: torch.cuda.memory._set_memory_metadata's text ("" none)
};

// allocator_settings: what the block sizes of a replay depend on (round_size, should_split).
struct AllocatorSettings {
  bool expandable_segments = false;
  uint64_t max_split_size = UINT64_MAX;  // -1 in the file: no limit
  uint32_t roundup_power2_divisions[16] = {};  // per power-of-two interval from 1 MiB ("1", "2", "4", ... MiB)
};

// One external_annotations entry (torch.cuda.memory annotations, e.g. record_function regions).
struct SnapshotAnnotation {
  int device = 0;
  int64_t time_us = 0;
  std::vector<std::pair<std::string, std::string>> metadata;  // the other keys, values as text
};

using TraceEntries = std::deque<SnapshotTraceEntry>;

struct MemorySnapshot {
  int format_major = 2;  // 1: the list-of-segments form
  std::vector<std::string> strings{""};  // strings[0] is ""
  std::vector<SnapshotFrame> frames;
  std::vector<uint32_t> stack_frames;    // frames of all stacks, innermost first (as PyTorch lists them)
  std::vector<uint32_t> stack_begin{0, 0};  // stack s is stack_frames[stack_begin[s], stack_begin[s+1])
  std::vector<SnapshotSegment> segments;
  // index: device. A deque: it grows while the file is read without the copy (and 1.5x peak) of a vector doubling.
  std::vector<TraceEntries> device_traces;
  uint64_t other_actions = 0;  // trace entries with an action this reader does not know
  AllocatorSettings settings;
  std::vector<SnapshotSegment> host_segments;  // pinned host memory (record_host=True); device is -1 there
  TraceEntries host_trace;
  bool has_host_records = false;               // the file has "host_segments" or "host_traces"
  std::vector<SnapshotAnnotation> annotations;

  size_t stack_size(StackId s) const { return stack_begin[s + 1] - stack_begin[s]; }
  const SnapshotFrame& stack_frame(StackId s, size_t i) const { return frames[stack_frames[stack_begin[s] + i]]; }
};

// ValueError "<name>: not a PyTorch memory snapshot: <what>" when the tree is not one of the forms.
MemorySnapshot snapshot_from_pickle(const PickleDocument& doc, const std::string& name);
// read_pickle_file + snapshot_from_pickle, streamed: each trace entry is converted as it is read and
// taken out of the pickle tree (AppendHook), so memory stays near the model's own size (bench_load_snapshot:
// peak RSS ~1.2x the file against ~3.5x for the whole tree); the rest of the tree is released before returning.
// Progress: LoadProgress bytes_read/bytes_done per 1 MiB chunk; cancel is honoured per chunk.
MemorySnapshot load_memory_snapshot(const std::string& path, LoadProgress* progress = nullptr);
// The same streamed load from memory (`name` stands for the path in messages): the fuzz target's entry.
MemorySnapshot load_memory_snapshot_bytes(std::string_view data, const std::string& name);

// Whether the first bytes look like a pickle (0x80 PROTO, a protocol-0/1 container opcode or a protocol-0
// GLOBAL) or like torch.save's zip: the files to hand to load_memory_snapshot, which refuses the zip and
// the GLOBAL with a message that names them.
bool looks_like_pickle(std::string_view head);

}  // namespace ds::snapshot
