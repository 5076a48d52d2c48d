// The typed snapshot model and its summary, on the fixtures of tests/snapshot/make_fixtures.py (the
// figures below are derived in that file's comments).
#include <gtest/gtest.h>

#include <fstream>

#include "snapshot/memory_snapshot.h"
#include "snapshot/snapshot_summary.h"
#include "snapshot_fixtures.h"

using namespace ds::snapshot;
using snapshot_test::fixture;

namespace {
constexpr uint64_t MiB = 1 << 20, KiB = 1 << 10;
}

TEST(MemorySnapshot, V2SegmentsBlocksAndFrames) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  EXPECT_EQ(s.format_major, 2);
  ASSERT_EQ(s.segments.size(), 3u);
  const SnapshotSegment& seg = s.segments[0];
  EXPECT_EQ(seg.device, 0);
  EXPECT_EQ(seg.address, 0x7F0000000000u);
  EXPECT_EQ(seg.total_size, 20 * MiB);
  EXPECT_EQ(seg.requested_size, 12 * MiB - 100);
  EXPECT_FALSE(seg.small_pool);
  EXPECT_TRUE(s.segments[1].small_pool);
  EXPECT_TRUE(s.segments[2].is_expandable);
  EXPECT_EQ(s.segments[2].stream, 7);
  ASSERT_EQ(seg.blocks.size(), 3u);
  EXPECT_EQ(seg.blocks[0].state, BlockState::ActiveAllocated);
  EXPECT_EQ(seg.blocks[1].state, BlockState::ActivePendingFree);
  EXPECT_EQ(seg.blocks[2].state, BlockState::Inactive);
  EXPECT_EQ(seg.blocks[1].address, 0x7F0000000000u + 8 * MiB);
  EXPECT_EQ(seg.blocks[0].requested_size, 8 * MiB - 100);
  ASSERT_EQ(s.stack_size(seg.blocks[0].stack), 4u);
  const SnapshotFrame& inner = s.stack_frame(seg.blocks[0].stack, 0);
  EXPECT_EQ(s.strings[inner.filename], "??");
  EXPECT_EQ(s.strings[inner.name], "c10::cuda::CUDACachingAllocator::malloc");
  EXPECT_EQ(stack_owner(s, seg.blocks[0].stack), "/home/u/model.py:17 forward");
  EXPECT_EQ(stack_owner(s, seg.blocks[1].stack), "/home/u/train.py:50 optimizer_step");
  EXPECT_EQ(stack_owner(s, seg.blocks[2].stack), "<no frames>");
  // PyTorch shares frame objects and the pickle memoizes them: five frames, each stored once.
  EXPECT_EQ(s.frames.size(), 5u);
}

TEST(MemorySnapshot, V2TraceHasEveryAction) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  ASSERT_EQ(s.device_traces.size(), 2u);
  ASSERT_EQ(s.device_traces[0].size(), 13u);
  ASSERT_EQ(s.device_traces[1].size(), 4u);
  const auto& t = s.device_traces[0];
  EXPECT_EQ(t[0].action, TraceAction::SegmentAlloc);
  EXPECT_EQ(t[1].action, TraceAction::Alloc);
  EXPECT_EQ(t[1].size, 8 * MiB);
  EXPECT_EQ(t[1].time_us, 1001);
  EXPECT_EQ(t[5].action, TraceAction::Oom);
  EXPECT_EQ(t[5].device_free, 3 * MiB);
  EXPECT_EQ(t[8].action, TraceAction::FreeRequested);
  EXPECT_EQ(t[9].action, TraceAction::FreeCompleted);
  EXPECT_EQ(t[10].action, TraceAction::SegmentFree);
  EXPECT_EQ(t[12].action, TraceAction::Snapshot);
  EXPECT_EQ(s.device_traces[1][0].action, TraceAction::SegmentMap);
  EXPECT_EQ(s.device_traces[1][3].action, TraceAction::SegmentUnmap);
  EXPECT_EQ(s.device_traces[1][0].stream, 7);
  EXPECT_EQ(s.other_actions, 0u);
  EXPECT_EQ(stack_owner(s, t[2].stack), "/home/u/train.py:50 optimizer_step");
}

TEST(MemorySnapshot, SummaryPeaksByReplayAndOwners) {
  const SnapshotSummary sum = summarize_snapshot(load_memory_snapshot(fixture("v2_small.pickle")));
  ASSERT_EQ(sum.devices.size(), 2u);
  const DeviceSummary& d0 = sum.devices[0];
  EXPECT_EQ(d0.segments, 2u);
  // The 4 MiB block awaits free (active_pending_free): PyTorch's allocated_size leaves it out, and so do we.
  EXPECT_EQ(d0.live_blocks, 2u);
  EXPECT_EQ(d0.allocated_bytes, 8 * MiB + 512 * KiB);
  EXPECT_EQ(d0.awaiting_free_blocks, 1u);
  EXPECT_EQ(d0.awaiting_free_bytes, 4 * MiB);
  EXPECT_EQ(d0.reserved_bytes, 22 * MiB);
  EXPECT_TRUE(d0.peak_known);
  EXPECT_EQ(d0.peak_allocated, 44 * MiB + 512 * KiB);
  EXPECT_EQ(d0.peak_allocated_entries, 8u) << "the moment e:8: after the alloc at index 7";
  EXPECT_EQ(d0.peak_allocated_time_us, 1007);
  EXPECT_EQ(d0.peak_reserved, 86 * MiB);
  EXPECT_EQ(d0.peak_reserved_entries, 7u);
  const DeviceSummary& d1 = sum.devices[1];
  EXPECT_EQ(d1.device, 1);
  EXPECT_EQ(d1.peak_reserved, 4 * MiB);
  EXPECT_EQ(d1.peak_reserved_entries, 3u);
  EXPECT_EQ(d1.peak_allocated, 1 * MiB);
  EXPECT_EQ(sum.trace_entries, 17u);
  EXPECT_EQ(sum.action_counts[size_t(TraceAction::Alloc)], 5u);
  EXPECT_EQ(sum.action_counts[size_t(TraceAction::SegmentMap)], 2u);
  ASSERT_EQ(sum.top_owners.size(), 2u);
  EXPECT_EQ(sum.top_owners[0].owner, "/home/u/model.py:17 forward");
  EXPECT_EQ(sum.top_owners[0].bytes, 8 * MiB + 512 * KiB);
  EXPECT_EQ(sum.top_owners[0].blocks, 2u);
  EXPECT_EQ(sum.top_owners[1].bytes, 1 * MiB);
}

TEST(MemorySnapshot, EveryProtocolGivesTheSameSummary) {
  const SnapshotSummary a = summarize_snapshot(load_memory_snapshot(fixture("v2_small.pickle")));
  for (const char* name : {"v2_proto2.pickle", "v2_proto0.pickle", "v2_unshared.pickle"}) {
    const SnapshotSummary b = summarize_snapshot(load_memory_snapshot(fixture(name)));
    ASSERT_EQ(b.devices.size(), a.devices.size()) << name;
    for (size_t i = 0; i < a.devices.size(); ++i) {
      EXPECT_EQ(b.devices[i].peak_allocated, a.devices[i].peak_allocated) << name;
      EXPECT_EQ(b.devices[i].peak_reserved, a.devices[i].peak_reserved) << name;
    }
    EXPECT_EQ(b.action_counts, a.action_counts) << name;
    EXPECT_EQ(b.top_owners.size(), a.top_owners.size()) << name;
    EXPECT_EQ(b.distinct_frames, a.distinct_frames) << name;
    EXPECT_EQ(b.distinct_stacks, a.distinct_stacks) << name;
    for (size_t i = 0; i < a.top_owners.size() && i < b.top_owners.size(); ++i)
      EXPECT_EQ(b.top_owners[i].owner, a.top_owners[i].owner) << name;
  }
}

TEST(MemorySnapshot, V1ListOfSegmentsWithHistory) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v1_list.pickle"));
  EXPECT_EQ(s.format_major, 1);
  EXPECT_TRUE(s.device_traces.empty());
  ASSERT_EQ(s.segments.size(), 1u);
  const auto& b = s.segments[0].blocks;
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[1].address, 0x7F0000000000u + 2 * MiB) << "1.x blocks tile their segment";
  EXPECT_EQ(b[2].address, 0x7F0000000000u + 3 * MiB);
  EXPECT_EQ(b[0].requested_size, 2 * MiB - 8) << "from history real_size";
  EXPECT_EQ(stack_owner(s, b[0].stack), "/home/u/model.py:17 forward");
  const SnapshotSummary sum = summarize_snapshot(s);
  ASSERT_EQ(sum.devices.size(), 1u);
  EXPECT_EQ(sum.devices[0].allocated_bytes, 3 * MiB);
  EXPECT_FALSE(sum.devices[0].peak_known) << "a 1.x file has no trace: its peak is unknown, not its current value";
}

TEST(MemorySnapshot, WrongShapesAreValueErrors) {
  auto refusal = [](const std::string& bytes) -> std::string {
    try {
      snapshot_from_pickle(read_pickle_bytes(bytes, "mem"), "mem");
    } catch (const ds::Error& e) {
      EXPECT_EQ(e.kind(), ds::ErrorKind::ValueError);
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal("\x80\x04K\x05.").find("not a PyTorch memory snapshot: the file holds a int"), std::string::npos);
  EXPECT_NE(refusal("\x80\x04}.").find("no \"segments\""), std::string::npos);
  // {"segments": [{"blocks": [{"size": 1}]}]}: a block without a state
  EXPECT_NE(refusal("\x80\x04}\x8c\x08segments](}\x8c\x06" "blocks](}\x8c\x04sizeK\x01seses.").find("no \"state\""),
            std::string::npos);
  EXPECT_THROW(load_memory_snapshot(fixture("not_snapshot.pickle")), ds::Error);
}

namespace {
void expect_same_traces(const MemorySnapshot& a, const MemorySnapshot& b, const std::string& name) {
  ASSERT_EQ(a.device_traces.size(), b.device_traces.size()) << name;
  for (size_t d = 0; d < a.device_traces.size(); ++d) {
    ASSERT_EQ(a.device_traces[d].size(), b.device_traces[d].size()) << name;
    for (size_t i = 0; i < a.device_traces[d].size(); ++i) {
      const SnapshotTraceEntry &x = a.device_traces[d][i], &y = b.device_traces[d][i];
      EXPECT_EQ(x.action, y.action) << name << " " << d << "/" << i;
      EXPECT_EQ(x.addr, y.addr) << name << " " << d << "/" << i;
      EXPECT_EQ(x.size, y.size) << name << " " << d << "/" << i;
      EXPECT_EQ(x.time_us, y.time_us) << name << " " << d << "/" << i;
      EXPECT_EQ(x.device_free, y.device_free) << name << " " << d << "/" << i;
      EXPECT_EQ(stack_owner(a, x.stack), stack_owner(b, y.stack)) << name << " " << d << "/" << i;
    }
  }
}
}  // namespace

TEST(MemorySnapshot, StreamedLoadEqualsTheWholeTree) {
  // load_memory_snapshot converts trace entries while reading and recycles their slots;
  // snapshot_from_pickle over read_pickle_bytes keeps the whole tree. Both must agree.
  for (const char* name : {"v2_small.pickle", "v2_proto2.pickle", "v2_proto0.pickle", "v2_unshared.pickle",
                           "v2_one_device.pickle", "v1_list.pickle"}) {
    const MemorySnapshot streamed = load_memory_snapshot(fixture(name));
    const MemorySnapshot whole = snapshot_from_pickle(read_pickle_bytes(snapshot_test::read_all(fixture(name)), name), name);
    expect_same_traces(streamed, whole, name);
    EXPECT_EQ(streamed.segments.size(), whole.segments.size()) << name;
  }
  const MemorySnapshot one = load_memory_snapshot(fixture("v2_one_device.pickle"));
  ASSERT_EQ(one.device_traces.size(), 1u);
  EXPECT_EQ(one.device_traces[0].size(), 13u);
}

TEST(MemorySnapshot, StreamingKeepsValuesOtherEntriesShare) {
  // Two entries; the second's "addr" is a memo GET of the first's int (Python never writes this, a
  // hand-made file may): taking the first entry must not recycle a value the second still needs.
  auto s8 = [](const std::string& t) { return "\x8c" + std::string(1, char(t.size())) + t; };
  std::string p = "\x80\x04}(" + s8("segments") + "]" + s8("device_traces") + "]]";
  p += "}(" + s8("action") + s8("alloc") + s8("addr") + "J" + std::string("\xd2\x04\0\0", 4) + std::string("q\0", 2) +
       s8("size") + "K\x07" "u" "a";
  p += "}(" + s8("action") + s8("free_completed") + s8("addr") + std::string("h\0", 2) + s8("size") + "K\x09" "u" "a";
  p += "au.";
  const std::string path = fixture("shared_int.pickle");
  { std::ofstream(path, std::ios::binary) << p; }
  const MemorySnapshot s = load_memory_snapshot(path);
  ASSERT_EQ(s.device_traces.size(), 1u);
  ASSERT_EQ(s.device_traces[0].size(), 2u);
  EXPECT_EQ(s.device_traces[0][0].addr, 1234u);
  EXPECT_EQ(s.device_traces[0][0].size, 7u);
  EXPECT_EQ(s.device_traces[0][1].action, TraceAction::FreeCompleted);
  EXPECT_EQ(s.device_traces[0][1].addr, 1234u);
  EXPECT_EQ(s.device_traces[0][1].size, 9u);
}
