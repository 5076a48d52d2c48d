// CachingDeviceAllocator's observer (Note [Allocator observer]): the trace c10's record_trace() writes
// for torch.cuda.memory._record_memory_history, and segment_records() for _snapshot().
#include <gtest/gtest.h>

#include <vector>

#include "alloc/caching_device_allocator.h"
#include "alloc/fake_backend.h"
#include "core/errors.h"

using ds::AllocatorAction;
using ds::AllocatorTraceEvent;
using ds::CachingDeviceAllocator;
using ds::DeviceAllocation;
using ds::testing::FakeBackend;

namespace {
constexpr size_t MiB = 1024 * 1024;

uint64_t addr(const DeviceAllocation& a) { return reinterpret_cast<uint64_t>(a.ptr); }

struct Recorder {
  std::vector<AllocatorTraceEvent> events;
  void attach(CachingDeviceAllocator& a) {
    a.set_observer([this](const AllocatorTraceEvent& e) { events.push_back(e); });
  }
};
}  // namespace

TEST(AllocatorObserver, AllocFreeAndSegmentsInOrder) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  Recorder rec;
  rec.attach(alloc);

  DeviceAllocation a = alloc.allocate(1000, 3);  // new 2 MiB small segment, block rounded to 1024
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[0].action, AllocatorAction::SegmentAlloc);
  EXPECT_EQ(rec.events[0].addr, addr(a));
  EXPECT_EQ(rec.events[0].size, 2 * MiB);
  EXPECT_EQ(rec.events[0].stream, 3);
  EXPECT_EQ(rec.events[1].action, AllocatorAction::Alloc);
  EXPECT_EQ(rec.events[1].addr, addr(a));
  EXPECT_EQ(rec.events[1].size, 1000u);  // c10 records the caller's size (orig_size)
  EXPECT_EQ(rec.events[1].stream, 3);

  alloc.free(a);  // free_requested then free_completed, both with the requested size
  ASSERT_EQ(rec.events.size(), 4u);
  EXPECT_EQ(rec.events[2].action, AllocatorAction::FreeRequested);
  EXPECT_EQ(rec.events[3].action, AllocatorAction::FreeCompleted);
  EXPECT_EQ(rec.events[2].addr, addr(a));
  EXPECT_EQ(rec.events[3].size, 1000u);

  alloc.empty_cache();  // the whole segment goes back: segment_free with its size
  ASSERT_EQ(rec.events.size(), 5u);
  EXPECT_EQ(rec.events[4].action, AllocatorAction::SegmentFree);
  EXPECT_EQ(rec.events[4].addr, addr(a));
  EXPECT_EQ(rec.events[4].size, 2 * MiB);
}

TEST(AllocatorObserver, OomReportsDeviceFreeAndRoundedSize) {
  FakeBackend backend(64 * MiB);
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation keep = alloc.allocate(40 * MiB);
  Recorder rec;
  rec.attach(alloc);
  EXPECT_THROW(alloc.allocate(30 * MiB + 1), ds::Error);
  ASSERT_FALSE(rec.events.empty());
  const AllocatorTraceEvent& oom = rec.events.back();
  EXPECT_EQ(oom.action, AllocatorAction::Oom);
  EXPECT_EQ(oom.addr, backend.device_free_bytes(0));  // device_free takes addr's place
  EXPECT_EQ(oom.size, CachingDeviceAllocator::round_size(30 * MiB + 1));
  alloc.free(keep);
}

TEST(AllocatorObserver, ObserverMayCallTheAllocator) {
  // Events are handed over after the lock is released: reading the allocator from the observer
  // must not deadlock, and it sees the state after the call.
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  uint64_t allocated_seen = 0;
  alloc.set_observer([&](const AllocatorTraceEvent& e) {
    if (e.action == AllocatorAction::Alloc) allocated_seen = alloc.stats().allocated;
  });
  DeviceAllocation a = alloc.allocate(4096);
  EXPECT_EQ(allocated_seen, 4096u);
  alloc.set_observer({});
  alloc.free(a);
  EXPECT_EQ(allocated_seen, 4096u);  // no longer observed
}

TEST(AllocatorObserver, SegmentRecordsCarryRequestedSizesAndStreams) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1000, 2);
  DeviceAllocation b = alloc.allocate(5000, 2);
  auto records = alloc.segment_records();
  ASSERT_EQ(records.size(), 1u);
  const ds::AllocatorSegmentRecord& seg = records[0];
  EXPECT_EQ(seg.size, 2 * MiB);
  EXPECT_EQ(seg.stream, 2);
  EXPECT_TRUE(seg.small_pool);
  ASSERT_EQ(seg.blocks.size(), 3u);
  EXPECT_EQ(seg.blocks[0].requested, 1000u);
  EXPECT_EQ(seg.blocks[0].size, 1024u);
  EXPECT_EQ(seg.blocks[1].requested, 5000u);
  EXPECT_EQ(seg.blocks[1].size, 5120u);
  EXPECT_FALSE(seg.blocks[2].allocated);
  EXPECT_EQ(seg.blocks[2].requested, 0u);
  uint64_t total = 0;
  for (const auto& blk : seg.blocks) total += blk.size;
  EXPECT_EQ(total, seg.size);
  // segments() is the same picture.
  auto infos = alloc.segments();
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_EQ(infos[0].size, seg.size);
  EXPECT_EQ(infos[0].blocks.size(), seg.blocks.size());
  alloc.free(a);
  alloc.free(b);
}
