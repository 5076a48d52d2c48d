// CachingHostAllocator: power-of-two blocks, reuse of freed blocks, and event-guarded reuse.
#include <gtest/gtest.h>

#include <thread>

#include "alloc/caching_host_allocator.h"
#include "alloc/fake_backend.h"
#include "core/errors.h"

using ds::CachingHostAllocator;
using ds::HostAllocation;
using ds::testing::FakeBackend;

namespace {
char* p(const HostAllocation& a, size_t offset = 0) { return static_cast<char*>(a.ptr) + offset; }
}  // namespace

TEST(HostAllocatorRules, PowerOfTwo) {
  EXPECT_EQ(CachingHostAllocator::round_size(0), 1u);
  EXPECT_EQ(CachingHostAllocator::round_size(1), 1u);
  EXPECT_EQ(CachingHostAllocator::round_size(3), 4u);
  EXPECT_EQ(CachingHostAllocator::round_size(1000), 1024u);
  EXPECT_EQ(CachingHostAllocator::round_size(4096), 4096u);
  EXPECT_EQ(CachingHostAllocator::round_size(4097), 8192u);
  EXPECT_EQ(CachingHostAllocator::round_size(5 << 20), 8u << 20);
}

TEST(HostAllocator, FreedBlocksAreCachedAndReused) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(1000);
  EXPECT_EQ(a.size, 1024u);
  EXPECT_EQ(a.requested, 1000u);
  EXPECT_EQ(alloc.stats().allocated, 1024u);
  EXPECT_EQ(alloc.stats().reserved, 1024u);
  alloc.free(a.ptr);
  EXPECT_EQ(alloc.stats().allocated, 0u);
  EXPECT_EQ(alloc.stats().reserved, 1024u);
  EXPECT_EQ(alloc.stats().cached_blocks, 1u);
  HostAllocation b = alloc.allocate(600);  // same power of two: the cached block
  EXPECT_EQ(b.ptr, a.ptr);
  EXPECT_EQ(backend.pinned_alloc_calls, 1);
  HostAllocation c = alloc.allocate(2000);  // another size class: new block
  EXPECT_EQ(c.size, 2048u);
  EXPECT_NE(c.ptr, a.ptr);
  auto s = alloc.stats();
  EXPECT_EQ(s.allocated, 3072u);
  EXPECT_EQ(s.reserved, 3072u);
  EXPECT_EQ(s.max_allocated, 3072u);
  EXPECT_EQ(s.live_blocks, 2u);
  EXPECT_EQ(s.cached_blocks, 0u);
}

TEST(HostAllocator, BlocksAreNotSplitOrShared) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation big = alloc.allocate(8192);
  alloc.free(big.ptr);
  HostAllocation small = alloc.allocate(100);  // a cached 8 KiB block does not serve 128 bytes
  EXPECT_NE(small.ptr, big.ptr);
  EXPECT_EQ(small.size, 128u);
  EXPECT_EQ(alloc.stats().reserved, 8192u + 128u);
}

TEST(HostAllocator, EventGuardsReuse) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(4096);
  const ds::EventId copy = backend.record_event(0, 0);
  alloc.record_event(p(a, 100), copy);  // any address inside the block
  alloc.free(a.ptr);
  EXPECT_EQ(alloc.stats().blocked_by_events, 1u);
  EXPECT_EQ(alloc.stats().cached_blocks, 1u);

  HostAllocation b = alloc.allocate(4096);  // copy still in flight: a new block
  EXPECT_NE(b.ptr, a.ptr);
  alloc.free(b.ptr);
  backend.set_event_done(copy);
  HostAllocation c = alloc.allocate(4096);
  HostAllocation d = alloc.allocate(4096);
  // Both are now free; the most recently freed one (a, released by its event) comes first.
  EXPECT_EQ(c.ptr, a.ptr);
  EXPECT_EQ(d.ptr, b.ptr);
  EXPECT_EQ(backend.pinned_alloc_calls, 2);
}

TEST(HostAllocator, EveryEventMustComplete) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(64);
  const ds::EventId e1 = backend.record_event(0, 0);
  const ds::EventId e2 = backend.record_event(0, 1);
  alloc.record_event(a.ptr, e1);
  alloc.record_event(a.ptr, e2);
  alloc.free(a.ptr);
  backend.set_event_done(e1);
  backend.set_event_done(e2);
  backend.set_event_done(e2, false);
  HostAllocation b = alloc.allocate(64);
  EXPECT_NE(b.ptr, a.ptr);
  backend.set_event_done(e2);
  HostAllocation c = alloc.allocate(64);
  EXPECT_EQ(c.ptr, a.ptr);
}

TEST(HostAllocator, EventsRecordedBeforeAnEarlierFreeAreCheckedFirst) {
  // PyTorch's event queue is processed oldest first and stops at the first event not done.
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(64);
  HostAllocation b = alloc.allocate(64);
  const ds::EventId ea = backend.record_event(0, 0);
  const ds::EventId eb = backend.record_event(0, 0);
  alloc.record_event(a.ptr, ea);
  alloc.record_event(b.ptr, eb);
  alloc.free(a.ptr);
  alloc.free(b.ptr);
  backend.set_event_done(eb);  // b's copy finished, a's did not: a blocks the queue
  HostAllocation c = alloc.allocate(64);
  EXPECT_NE(c.ptr, a.ptr);
  EXPECT_NE(c.ptr, b.ptr);
  backend.set_event_done(ea);
  HostAllocation d = alloc.allocate(64);
  EXPECT_EQ(d.ptr, b.ptr);  // both released in queue order a, b; the last one pushed is reused first
}

TEST(HostAllocator, IsPinnedCoversLiveAndCachedBlocks) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(1000);
  EXPECT_TRUE(alloc.is_pinned(p(a)));
  EXPECT_TRUE(alloc.is_pinned(p(a, 1023)));
  EXPECT_FALSE(alloc.is_pinned(p(a, 1024)));
  EXPECT_FALSE(alloc.is_pinned(p(a) - 1));
  alloc.free(a.ptr);
  EXPECT_TRUE(alloc.is_pinned(p(a, 10)));
  alloc.empty_cache();
  EXPECT_FALSE(alloc.is_pinned(p(a, 10)));
  EXPECT_EQ(alloc.stats().reserved, 0u);
  EXPECT_TRUE(backend.pinned_blocks.empty());
}

TEST(HostAllocator, EmptyCacheKeepsBlocksWaitingForEvents) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(512);
  HostAllocation b = alloc.allocate(512);
  const ds::EventId e = backend.record_event(0, 0);
  alloc.record_event(a.ptr, e);
  alloc.free(a.ptr);
  alloc.free(b.ptr);
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().reserved, 512u);
  EXPECT_TRUE(alloc.is_pinned(a.ptr));
  EXPECT_FALSE(alloc.is_pinned(b.ptr));
  backend.set_event_done(e);
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().reserved, 0u);
  EXPECT_EQ(alloc.stats().cached_blocks, 0u);
}

TEST(HostAllocator, OutOfMemoryAfterFreeingTheCache) {
  FakeBackend backend(1ull << 30, /*pinned_capacity=*/12288);
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(8192);
  alloc.free(a.ptr);
  HostAllocation b = alloc.allocate(4096);
  // 8 KiB cached + 4 KiB live fill the pinned capacity; 2 KiB fits once the cached block is released.
  HostAllocation c = alloc.allocate(2000);
  EXPECT_EQ(c.size, 2048u);
  EXPECT_FALSE(alloc.is_pinned(a.ptr));
  EXPECT_EQ(alloc.stats().reserved, 4096u + 2048u);
  try {
    alloc.allocate(16384);
    FAIL() << "no error";
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::RuntimeError);
    EXPECT_STREQ(e.what(), "CUDA error: out of memory");
  }
  EXPECT_EQ(alloc.stats().live_blocks, 2u);
  (void)b;
}

TEST(HostAllocator, SegmentsOnePerBlock) {
  FakeBackend backend;
  CachingHostAllocator alloc(backend);
  HostAllocation a = alloc.allocate(100);
  HostAllocation b = alloc.allocate(5000);
  alloc.free(a.ptr);
  auto segs = alloc.segments();
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].device, -1);
  EXPECT_EQ(segs[0].address, reinterpret_cast<uintptr_t>(a.ptr));
  EXPECT_EQ(segs[0].size, 128u);
  ASSERT_EQ(segs[0].blocks.size(), 1u);
  EXPECT_FALSE(segs[0].blocks[0].allocated);
  EXPECT_EQ(segs[1].size, 8192u);
  EXPECT_TRUE(segs[1].blocks[0].allocated);
  (void)b;
}

TEST(HostAllocator, ZeroBytesAndDestructor) {
  FakeBackend backend;
  {
    CachingHostAllocator alloc(backend);
    EXPECT_FALSE(alloc.allocate(0));
    alloc.allocate(100);
    alloc.free(alloc.allocate(3000).ptr);
    EXPECT_EQ(backend.pinned_blocks.size(), 2u);
  }
  EXPECT_TRUE(backend.pinned_blocks.empty());
}

TEST(HostAllocator, ConcurrentPinThreads) {
  // The DataLoader pin thread allocates while the main thread frees: the counts must add up.
  FakeBackend backend(1ull << 30, 1ull << 30);
  CachingHostAllocator alloc(backend);
  auto work = [&] {
    for (int i = 0; i < 2000; ++i) {
      HostAllocation a = alloc.allocate(size_t(64) << (i % 6));
      alloc.free(a.ptr);
    }
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
  auto s = alloc.stats();
  EXPECT_EQ(s.allocated, 0u);
  EXPECT_EQ(s.live_blocks, 0u);
  EXPECT_EQ(s.cached_blocks, backend.pinned_blocks.size());
}
