// The allocator's state at any moment of a snapshot's trace (snapshot_replay: the end state with the tail
// undone) and active memory over time (memory_timeline), checked against the forward replay that
// summarize_snapshot does and against the fixture's own figures.
#include <gtest/gtest.h>

#include "snapshot/memory_timeline.h"
#include "snapshot/moment_diff.h"
#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"
#include "snapshot_fixtures.h"

namespace ds::snapshot {
namespace {

using snapshot_test::fixture;
constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

// As c10 counts allocated_bytes: up at the alloc, down at free_requested (the fixture's sizes are already
// multiples of 512 and split exactly, so the block sizes are the entries' sizes).
int64_t allocated_delta(const SnapshotTraceEntry& e) {
  if (e.action == TraceAction::Alloc) return int64_t(e.size);
  if (e.action == TraceAction::FreeRequested) return -int64_t(e.size);
  return 0;
}

TEST(SnapshotReplay, TheEndStateIsTheSnapshotsOwn) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  EXPECT_EQ(snapshot_devices(s), (std::vector<int>{0, 1}));
  const DeviceState end = state_at(s, 0, SIZE_MAX);
  EXPECT_EQ(end.segments.size(), 2u);
  EXPECT_EQ(end.blocks.size(), 3u);  // the block awaiting free still occupies its segment...
  EXPECT_EQ(end.live_blocks(), 2u);   // ...but is neither live nor allocated
  EXPECT_EQ(end.allocated(), 8 * MiB + 512 * KiB);
  EXPECT_EQ(end.reserved(), 22 * MiB);
  EXPECT_EQ(state_at(s, 0, s.device_traces[0].size()).allocated(), end.allocated());
}

// Every moment: the backward reconstruction agrees with the forward replay, entry by entry.
TEST(SnapshotReplay, EachMomentDiffersFromTheNextByThatEntry) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  for (int device : {0, 1}) {
    const TraceEntries& trace = s.device_traces[size_t(device)];
    for (size_t k = 0; k < trace.size(); ++k) {
      const int64_t before = int64_t(state_at(s, device, k).allocated());
      const int64_t after = int64_t(state_at(s, device, k + 1).allocated());
      EXPECT_EQ(after - before, allocated_delta(trace[k])) << "device " << device << " entry " << k;
    }
  }
  // The peak summarize_snapshot finds is the state after its entry.
  const SnapshotSummary sum = summarize_snapshot(s);
  EXPECT_EQ(state_at(s, 0, sum.devices[0].peak_allocated_entries).allocated(), 44 * MiB + 512 * KiB);
  EXPECT_EQ(state_at(s, 0, sum.devices[0].peak_reserved_entries).reserved(), 86 * MiB);
}

TEST(SnapshotReplay, ATimeMeansTheEntriesDoneByThen) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  const std::vector<size_t> at = entries_at_time(s, 1007);  // device 0's peak entry (index 7) has time 1007
  EXPECT_EQ(at[0], 8u);
  EXPECT_EQ(entries_at_time(s, -1), (std::vector<size_t>{0, 0}));
}

TEST(MemoryTimeline, StackedByOwnerWithThePeakKept) {
  const MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  const SnapshotSummary sum = summarize_snapshot(s);
  const std::vector<MemoryTimeline> ts = memory_timelines(s, 4, 2);
  ASSERT_EQ(ts.size(), 2u);
  const MemoryTimeline& t = ts[0];
  EXPECT_EQ(t.device, 0);
  EXPECT_TRUE(t.timed);
  EXPECT_EQ(t.peak, sum.devices[0].peak_allocated);
  EXPECT_EQ(t.peak_entries, sum.devices[0].peak_allocated_entries) << "one moment numbering: e:N everywhere";
  ASSERT_EQ(t.x.size(), 4u);
  EXPECT_EQ(t.categories.back(), "other");
  EXPECT_LE(t.categories.size(), 3u);
  // The last bucket ends with the snapshot's state; every bucket's stack matches the state at its end.
  EXPECT_EQ(t.entries.back(), s.device_traces[0].size());
  for (size_t b = 0; b < t.x.size(); ++b) {
    uint64_t stacked = 0;
    for (const auto& c : t.bytes) stacked += c[b];
    EXPECT_EQ(stacked, state_at(s, 0, t.entries[b]).allocated()) << "bucket " << b;
    EXPECT_GE(t.bucket_max[b], stacked);
  }
  uint64_t highest = 0;
  for (uint64_t m : t.bucket_max) highest = std::max(highest, m);
  EXPECT_EQ(highest, t.peak);  // the peak falls inside a bucket, not at its end, and is still kept
}

// By category (issue 24): the roles DeviceScope's snapshots name ("<devicescope ROLE>" frames), "unknown"
// for blocks that name none; the rows stack to the same totals as the owners'.
TEST(MemoryTimeline, StackedByCategory) {
  MemorySnapshot s = load_memory_snapshot(fixture("v2_small.pickle"));
  {
    const std::vector<MemoryTimeline> plain = memory_timelines(s, 4, 2);
    EXPECT_EQ(plain[0].roles, std::vector<std::string>{"unknown"}) << "a PyTorch-written snapshot names no roles";
    EXPECT_FALSE(plain[0].roles_known);
  }
  // Make model.py's frames DeviceScope owner frames of parameters.
  bool renamed = false;
  for (std::string& text : s.strings)
    if (text == "/home/u/model.py") text = "<devicescope parameter>", renamed = true;
  ASSERT_TRUE(renamed);
  const std::vector<MemoryTimeline> ts = memory_timelines(s, 4, 2);
  const MemoryTimeline& t = ts[0];
  EXPECT_TRUE(t.roles_known);
  ASSERT_FALSE(t.roles.empty());
  EXPECT_EQ(t.roles.front(), "parameter");  // core/role.h's order; "unknown" last when present
  ASSERT_EQ(t.role_bytes.size(), t.roles.size());
  for (size_t b = 0; b < t.x.size(); ++b) {
    uint64_t by_role = 0, by_owner = 0;
    for (const auto& r : t.role_bytes) by_role += r[b];
    for (const auto& c : t.bytes) by_owner += c[b];
    EXPECT_EQ(by_role, by_owner) << "bucket " << b;
  }
}

}  // namespace
}  // namespace ds::snapshot

namespace ds {
namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

TEST(MomentDiff, AllocatedFreedAndKeptByOwner) {
  const std::vector<LiveAllocation> a = {{"1", "model.fc.weight", "cuda:0", 400}, {"2", "x", "cuda:0", 100},
                                         {"3", "x", "cuda:0", 50}};
  const std::vector<LiveAllocation> b = {{"1", "model.fc.weight", "cuda:0", 400}, {"3", "x", "cuda:0", 50},
                                         {"4", "y", "cuda:1", 1000}};
  const MomentDiff d = diff_live(a, b);
  EXPECT_EQ(d.total_a, 550u);
  EXPECT_EQ(d.total_b, 1450u);
  EXPECT_EQ(d.allocated, 1000u);
  EXPECT_EQ(d.freed, 100u);
  ASSERT_EQ(d.owners.size(), 2u);  // model.fc.weight did not change
  EXPECT_EQ(d.owners[0].owner, "y");
  EXPECT_EQ(d.owners[0].place, "cuda:1");
  EXPECT_EQ(d.owners[0].allocated, 1000u);
  EXPECT_EQ(d.owners[1].owner, "x");
  EXPECT_EQ(d.owners[1].bytes_a, 150u);
  EXPECT_EQ(d.owners[1].bytes_b, 50u);
  EXPECT_EQ(d.owners[1].freed, 100u);
  EXPECT_EQ(d.owners[1].blocks_freed, 1u);
}

// Within one trace a block is the same allocation at two moments only when the same entry made it: an
// address freed and allocated again in between counts as freed and allocated.
TEST(MomentDiff, SnapshotBlocksKnowTheEntryThatMadeThem) {
  const snapshot::MemorySnapshot s = snapshot::load_memory_snapshot(snapshot_test::fixture("v2_small.pickle"));
  const snapshot::DeviceState end = snapshot::state_at(s, 0, SIZE_MAX);
  for (const snapshot::LiveBlock& b : end.blocks)
    if (b.serial) EXPECT_EQ(s.device_traces[0][b.serial - 1].action, snapshot::TraceAction::Alloc);
  const snapshot::DeviceState peak = snapshot::state_at(s, 0, 8);
  EXPECT_EQ(peak.allocated(), 44 * MiB + 512 * KiB);
  for (const snapshot::LiveBlock& b : peak.blocks) EXPECT_LE(b.serial, 8u);
}

}  // namespace
}  // namespace ds
