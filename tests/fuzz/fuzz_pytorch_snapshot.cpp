// Fuzzes the restricted unpickler and the PyTorch memory snapshot model (what `devicescope inspect` and
// the app run on a .pickle): only ds::Error may come out, ASan/UBSan stay quiet, and
//   - the streamed load (load_memory_snapshot: entries, frames and frame lists converted while reading)
//     and the whole-tree conversion (read_pickle_bytes + snapshot_from_pickle) agree on every file the
//     streamed load accepts (the streamed one may refuse more: a memoized frame or frame list reused as
//     something else is refused there, once converted);
//   - every index in an accepted model is in range (a stack's frames, a frame's strings), checked by
//     walking all of them and summarizing the snapshot.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "snapshot/memory_snapshot.h"
#include "snapshot/pickle_reader.h"
#include "snapshot/snapshot_summary.h"

namespace {

void check_indexes(const ds::snapshot::MemorySnapshot& s) {
  using namespace ds::snapshot;
  if (s.stack_begin.size() < 2 || s.stack_begin.back() != s.stack_frames.size()) ds_fuzz::finding("stack_begin does not end at stack_frames");
  for (size_t i = 0; i + 1 < s.stack_begin.size(); ++i)
    if (s.stack_begin[i] > s.stack_begin[i + 1]) ds_fuzz::finding("stack ranges out of order");
  for (uint32_t f : s.stack_frames)
    if (f >= s.frames.size()) ds_fuzz::finding("a stack names a frame that does not exist");
  for (const SnapshotFrame& f : s.frames)
    if (f.filename >= s.strings.size() || f.name >= s.strings.size()) ds_fuzz::finding("a frame names a string that does not exist");
  const size_t stacks = s.stack_begin.size() - 1;
  for (const SnapshotSegment& seg : s.segments) {
    if (seg.stack >= stacks) ds_fuzz::finding("a segment's stack does not exist");
    for (const SnapshotBlock& b : seg.blocks)
      if (b.stack >= stacks) ds_fuzz::finding("a block's stack does not exist");
  }
  for (const TraceEntries& t : s.device_traces)
    for (const SnapshotTraceEntry& e : t)
      if (e.stack >= stacks) ds_fuzz::finding("a trace entry's stack does not exist");
}

bool same(const ds::snapshot::MemorySnapshot& a, const ds::snapshot::MemorySnapshot& b) {
  if (a.format_major != b.format_major || a.segments.size() != b.segments.size() ||
      a.device_traces.size() != b.device_traces.size() || a.other_actions != b.other_actions)
    return false;
  for (size_t d = 0; d < a.device_traces.size(); ++d) {
    if (a.device_traces[d].size() != b.device_traces[d].size()) return false;
    for (size_t i = 0; i < a.device_traces[d].size(); ++i) {
      const auto &x = a.device_traces[d][i], &y = b.device_traces[d][i];
      if (x.action != y.action || x.addr != y.addr || x.size != y.size || x.time_us != y.time_us ||
          x.device_free != y.device_free || a.stack_size(x.stack) != b.stack_size(y.stack))
        return false;
    }
  }
  for (size_t i = 0; i < a.segments.size(); ++i)
    if (a.segments[i].blocks.size() != b.segments[i].blocks.size() || a.segments[i].total_size != b.segments[i].total_size)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ds::snapshot::MemorySnapshot streamed;
  if (!ds_fuzz::parses("load_memory_snapshot_bytes", [&] { streamed = ds::snapshot::load_memory_snapshot_bytes(bytes, "fuzz.pickle"); })) {
    // The generic reader alone must still only raise ds::Error.
    ds_fuzz::parses("read_pickle_bytes", [&] { ds::snapshot::read_pickle_bytes(bytes, "fuzz.pickle"); });
    return 0;
  }
  check_indexes(streamed);
  ds::snapshot::summarize_snapshot(streamed);
  for (size_t st = 0; st + 1 < streamed.stack_begin.size(); ++st) ds::snapshot::stack_owner(streamed, ds::snapshot::StackId(st));
  ds::snapshot::MemorySnapshot whole;
  if (!ds_fuzz::parses("snapshot_from_pickle", [&] {
        whole = ds::snapshot::snapshot_from_pickle(ds::snapshot::read_pickle_bytes(bytes, "fuzz.pickle"), "fuzz.pickle");
      }))
    ds_fuzz::finding("the streamed load accepted a file the whole-tree conversion refuses");
  check_indexes(whole);
  if (!same(streamed, whole)) ds_fuzz::finding("the streamed load and the whole-tree conversion disagree");
  return 0;
}
