// Snapshot figures as PyTorch computes them (issue 22): allocated bytes are block sizes rounded as c10's
// allocator rounds them and taken off at free_requested (max_memory_allocated), stacks without a Python frame are
// named for what they are, moments are checked, and two runs are compared by allocation identity.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "snapshot/memory_timeline.h"
#include "snapshot/moment_diff.h"
#include "snapshot/snapshot_moments.h"
#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"
#include "snapshot_fixtures.h"

namespace ds::snapshot {
namespace {

constexpr uint64_t MiB = 1024 * 1024;

SnapshotTraceEntry entry(TraceAction a, uint64_t addr, uint64_t size) {
  SnapshotTraceEntry e;
  e.action = a;
  e.addr = addr;
  e.size = size;
  return e;
}

// One stack of frames (innermost first) added to `s`; returns its id.
StackId add_stack(MemorySnapshot& s, const std::vector<std::pair<std::string, std::string>>& frames) {
  for (const auto& [file, name] : frames) {
    s.strings.push_back(file);
    s.strings.push_back(name);
    s.frames.push_back({uint32_t(s.strings.size() - 2), uint32_t(s.strings.size() - 1), 0});
    s.stack_frames.push_back(uint32_t(s.frames.size() - 1));
  }
  s.stack_begin.push_back(uint32_t(s.stack_frames.size()));
  return StackId(s.stack_begin.size() - 2);
}

TEST(AllocatorRounding, RoundSizeAsC10) {
  AllocatorSettings st;
  EXPECT_EQ(allocator_round_size(st, 1), 512u);
  EXPECT_EQ(allocator_round_size(st, 1000), 1024u);
  EXPECT_EQ(allocator_round_size(st, 12000000), 12000256u);
  st.roundup_power2_divisions[0] = 4;  // "1": intervals from 1 MiB (and below) in quarters
  EXPECT_EQ(allocator_round_size(st, 1363148), 1572864u) << "1.3 MiB -> 1.5 MiB";
  EXPECT_EQ(allocator_round_size(st, 1 << 20), uint64_t(1) << 20) << "a power of two stays";
}

// Requested sizes in the trace, block sizes in the count: a 1000-byte tensor holds 1024 bytes; a 12,000,000-byte
// one in a fresh 12 MiB segment leaves 582,656 bytes, too little to split off, so its block is the whole segment.
TEST(SnapshotPeak, CountsBlockSizesLikeMaxMemoryAllocated) {
  MemorySnapshot s;
  const uint64_t small = 0x1000000, large = 0x8000000;
  s.device_traces.resize(1);
  TraceEntries& t = s.device_traces[0];
  t.push_back(entry(TraceAction::SegmentAlloc, small, 2 * MiB));
  t.push_back(entry(TraceAction::Alloc, small, 1000));
  t.push_back(entry(TraceAction::SegmentAlloc, large, 12 * MiB));
  t.push_back(entry(TraceAction::Alloc, large, 12000000));
  t.push_back(entry(TraceAction::FreeRequested, large, 12000000));
  t.push_back(entry(TraceAction::FreeCompleted, large, 12000000));
  t.push_back(entry(TraceAction::SegmentFree, large, 12 * MiB));
  // The end state: the small segment with the 1024-byte block.
  SnapshotSegment seg;
  seg.address = small;
  seg.total_size = 2 * MiB;
  seg.small_pool = true;
  seg.blocks.push_back({small, 1024, 1000, BlockState::ActiveAllocated, 0});
  seg.blocks.push_back({small + 1024, 2 * MiB - 1024, 0, BlockState::Inactive, 0});
  s.segments.push_back(seg);

  const SnapshotSummary sum = summarize_snapshot(s);
  ASSERT_EQ(sum.devices.size(), 1u);
  EXPECT_EQ(sum.devices[0].peak_allocated, 1024u + 12 * MiB);
  EXPECT_EQ(sum.devices[0].peak_allocated_entries, 4u);
  EXPECT_EQ(state_at(s, 0, 4).allocated(), 1024u + 12 * MiB) << "the state at the peak moment says the same";
  EXPECT_EQ(state_at(s, 0, 5).allocated(), 1024u) << "down at free_requested, not at free_completed";
  const std::vector<MemoryTimeline> tl = memory_timelines(s, 16, 4);
  ASSERT_EQ(tl.size(), 1u);
  EXPECT_EQ(tl[0].peak, sum.devices[0].peak_allocated) << "the app's timeline: the same replay";
  EXPECT_EQ(tl[0].peak_entries, sum.devices[0].peak_allocated_entries);
}

// What later 2.x files carry, read and shown: private pools, pinned host memory, annotations, metadata.
TEST(NewerSnapshot, HostMemoryPoolsAnnotationsAndMetadata) {
  const MemorySnapshot s = load_memory_snapshot(snapshot_test::fixture("v2_newer.pickle"));
  ASSERT_EQ(s.segments.size(), 1u);
  EXPECT_TRUE(s.segments[0].private_pool());
  EXPECT_TRUE(s.has_host_records);
  ASSERT_EQ(s.host_segments.size(), 1u);
  EXPECT_EQ(s.host_trace.size(), 2u);
  ASSERT_EQ(s.annotations.size(), 1u);
  EXPECT_EQ(s.annotations[0].time_us, 5000);
  const SnapshotSummary sum = summarize_snapshot(s);
  ASSERT_EQ(sum.devices.size(), 2u);
  EXPECT_EQ(sum.devices[0].private_pool_bytes, 20 * MiB);
  EXPECT_EQ(sum.devices[1].device, kHostDevice);
  EXPECT_EQ(sum.devices[1].allocated_bytes, MiB);
  EXPECT_EQ(sum.devices[0].peak_allocated, 12 * MiB + 1024);
  EXPECT_EQ(sum.user_metadata, (std::vector<std::string>{"epoch 1"}));
  EXPECT_EQ(sum.top_owners.at(0).owner, kAutogradOwner);
  const std::vector<MemoryTimeline> tl = memory_timelines(s);
  ASSERT_EQ(tl.size(), 1u);
  std::vector<std::string> marks;
  for (const TimelineMark& m : tl[0].marks) marks.push_back(m.text + "@e:" + std::to_string(m.entries));
  EXPECT_EQ(marks, (std::vector<std::string>{"START forward@e:1", "metadata: epoch 1@e:2",
                                             "compile: [0/0] torch_dynamo_resume_in_forward@e:4"}));
}

TEST(SnapshotPeak, UnknownWithoutATrace) {
  MemorySnapshot s;
  SnapshotSegment seg;
  seg.total_size = 2 * MiB;
  seg.blocks.push_back({0, MiB, MiB, BlockState::ActiveAllocated, 0});
  s.segments.push_back(seg);
  const SnapshotSummary sum = summarize_snapshot(s);
  ASSERT_EQ(sum.devices.size(), 1u);
  EXPECT_FALSE(sum.devices[0].peak_known);
  EXPECT_EQ(sum.devices[0].allocated_bytes, MiB);
}

TEST(StackOwner, CppOnlyStacksAreNamedForWhatTheyAre) {
  MemorySnapshot s;
  const StackId backward = add_stack(s, {{"??", "torch::unwind::unwind()"},
                                         {"??", "c10::cuda::CUDACachingAllocator::Native::malloc"},
                                         {"/pytorch/torch/csrc/autograd/engine.cpp", "torch::autograd::Engine::thread_main"}});
  const StackId cpp = add_stack(s, {{"??", "torch::unwind::unwind()"}, {"libc.so.6", "start_thread"}});
  const StackId torch_only = add_stack(s, {{"??", "torch::unwind::unwind()"},
                                           {"/usr/lib/python3/torch/nn/modules/linear.py", "forward"}});
  const StackId user = add_stack(s, {{"??", "torch::unwind::unwind()"}, {"/home/u/train.py", "step"}});
  EXPECT_EQ(stack_owner(s, backward), kAutogradOwner);
  EXPECT_EQ(stack_owner(s, cpp), kCppOnlyOwner);
  EXPECT_EQ(stack_owner(s, torch_only), "/usr/lib/python3/torch/nn/modules/linear.py:0 forward") << "a Python frame, not ??:0";
  EXPECT_EQ(stack_owner(s, user), "/home/u/train.py:0 step");
  EXPECT_EQ(stack_owner(s, 0), kNoFramesOwner);
}

TEST(SnapshotMoments, EntryCountsOutsideTheTraceAreRefused) {
  MemorySnapshot s;
  s.device_traces.resize(2);
  for (int i = 0; i < 13; ++i) s.device_traces[0].push_back(entry(TraceAction::Oom, 0, 0));
  for (int i = 0; i < 4; ++i) s.device_traces[1].push_back(entry(TraceAction::Oom, 0, 0));
  EXPECT_EQ(longest_trace(s), 13u);
  EXPECT_NO_THROW(check_moment(s, 'e', 0, "f"));
  EXPECT_NO_THROW(check_moment(s, 'e', 13, "f"));
  EXPECT_THROW(check_moment(s, 'e', -1, "f"), ds::Error);
  EXPECT_THROW(check_moment(s, 'e', 14, "f"), ds::Error);
  try {
    check_moment(s, 'e', 99999, "snap.pickle");
    ADD_FAILURE() << "e:99999 accepted";
  } catch (const ds::Error& e) {
    EXPECT_NE(std::string(e.what()).find("snap.pickle@e:99999: past the end"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ds::snapshot

namespace ds {
namespace {

// The same script at two widths: storage ids (or addresses) coincide across the runs, the sizes do not. By
// allocation identity the weight is freed at A's size and allocated at B's, and the totals add up.
TEST(MomentDiff, TwoRunsAreMatchedByAllocationIdentity) {
  std::vector<LiveAllocation> a = {{"7", "model.fc.weight", "cuda:0", 400}, {"8", "model.fc.bias", "cuda:0", 16},
                                   {"9", "<unnamed>", "cuda:0", 64}};
  std::vector<LiveAllocation> b = {{"7", "model.fc.weight", "cuda:0", 1600}, {"8", "model.fc.bias", "cuda:0", 16},
                                   {"9", "<unnamed>", "cuda:0", 64}, {"10", "<unnamed>", "cuda:0", 64}};
  EXPECT_TRUE(diff_live(a, b).owners.size() == 1) << "by id only the extra unnamed block shows";
  key_by_allocation_identity(a);
  key_by_allocation_identity(b);
  const MomentDiff d = diff_live(a, b);
  ASSERT_EQ(d.owners.size(), 2u);
  EXPECT_EQ(d.owners[0].owner, "model.fc.weight");
  EXPECT_EQ(d.owners[0].freed, 400u);
  EXPECT_EQ(d.owners[0].allocated, 1600u);
  EXPECT_EQ(d.owners[1].owner, "<unnamed>");
  EXPECT_EQ(d.owners[1].allocated, 64u);
  ASSERT_EQ(d.places.size(), 1u);
  EXPECT_EQ(d.places[0].live_b - d.places[0].live_a, d.places[0].allocated - d.places[0].freed);
}

}  // namespace
}  // namespace ds
