// CachingDeviceAllocator against PyTorch's rules (Note [Caching allocator rules]), on a fake backend.
#include <gtest/gtest.h>

#include "alloc/caching_device_allocator.h"
#include "alloc/fake_backend.h"
#include "core/errors.h"
#include "core/format.h"

using ds::CachingDeviceAllocator;
using ds::DeviceAllocation;
using ds::testing::FakeBackend;

namespace {
constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * 1024;
constexpr uint64_t GiB = 1024ull * 1024 * 1024;

uintptr_t addr(const DeviceAllocation& a) { return reinterpret_cast<uintptr_t>(a.ptr); }

std::string oom_text(CachingDeviceAllocator& alloc, size_t bytes, ds::StreamId stream = 0) {
  try {
    alloc.allocate(bytes, stream);
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::OutOfMemoryError);
    return e.what();
  }
  return "<no error>";
}
}  // namespace

TEST(DeviceAllocatorRules, RoundSize) {
  EXPECT_EQ(CachingDeviceAllocator::round_size(0), 512u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(1), 512u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(511), 512u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(512), 512u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(513), 1024u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(4000), 4096u);
  EXPECT_EQ(CachingDeviceAllocator::round_size(1 * MiB), 1 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::round_size(1 * MiB + 1), 1 * MiB + 512);
  EXPECT_EQ(CachingDeviceAllocator::round_size(5 * MiB), 5 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::round_size(10 * MiB), 10 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::round_size(10 * MiB + 1), 10 * MiB + 512);
  EXPECT_EQ(CachingDeviceAllocator::round_size(25 * MiB), 25 * MiB);
}

TEST(DeviceAllocatorRules, SegmentSize) {
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(512), 2 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(1 * MiB), 2 * MiB);          // still small
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(1 * MiB + 512), 20 * MiB);   // 1-10 MiB
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(5 * MiB), 20 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(10 * MiB - 512), 20 * MiB);
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(10 * MiB), 10 * MiB);        // >= kMinLargeAlloc
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(10 * MiB + 512), 12 * MiB);  // rounded to 2 MiB
  EXPECT_EQ(CachingDeviceAllocator::allocation_size(25 * MiB), 26 * MiB);
}

TEST(DeviceAllocator, AllocatedAndReservedSequence) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB);
  EXPECT_EQ(a.size, 1024u);
  EXPECT_EQ(a.requested, 1024u);
  EXPECT_EQ(alloc.stats().allocated, 1024u);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);
  EXPECT_EQ(backend.used(), 2 * MiB);
  alloc.free(a);
  EXPECT_EQ(alloc.stats().allocated, 0u);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);  // freed, but still cached
  EXPECT_EQ(backend.used(), 2 * MiB);
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().reserved, 0u);
  EXPECT_EQ(alloc.stats().segments, 0u);
  EXPECT_EQ(backend.used(), 0u);
  EXPECT_EQ(alloc.stats().max_allocated, 1024u);
  EXPECT_EQ(alloc.stats().max_reserved, 2 * MiB);
}

TEST(DeviceAllocator, ZeroBytesIsEmpty) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(0);
  EXPECT_FALSE(a);
  EXPECT_EQ(alloc.stats().reserved, 0u);
  alloc.free(a);  // no-op
  EXPECT_EQ(backend.device_alloc_calls, 0);
}

// Every allocation hands back the device's figures right after it, an empty one too: the event log takes
// them from there (an FSDP parameter resized to 0 bytes logged "0 allocated" and broke estimate's sizes).
TEST(DeviceAllocator, FiguresAfterEveryAllocation) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB);
  EXPECT_EQ(a.after.allocated, 1024u);
  EXPECT_EQ(a.after.reserved, 2 * MiB);
  DeviceAllocation empty = alloc.allocate(0);
  EXPECT_EQ(empty.after.allocated, 1024u);
  EXPECT_EQ(empty.after.reserved, 2 * MiB);
  EXPECT_EQ(alloc.free(empty).allocated, 1024u);
  EXPECT_EQ(alloc.free(a).allocated, 0u);
}

TEST(DeviceAllocator, SmallPoolSplitsAndPacks) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(100);
  DeviceAllocation b = alloc.allocate(1000);
  EXPECT_EQ(addr(b), addr(a) + 512);
  EXPECT_EQ(b.size, 1024u);
  EXPECT_EQ(alloc.stats().allocated, 1536u);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);
  auto segs = alloc.segments();
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_TRUE(segs[0].small_pool);
  EXPECT_EQ(segs[0].size, 2 * MiB);
  ASSERT_EQ(segs[0].blocks.size(), 3u);
  EXPECT_EQ(segs[0].blocks[0].size, 512u);
  EXPECT_TRUE(segs[0].blocks[0].allocated);
  EXPECT_EQ(segs[0].blocks[1].size, 1024u);
  EXPECT_TRUE(segs[0].blocks[1].allocated);
  EXPECT_EQ(segs[0].blocks[2].size, 2 * MiB - 1536);
  EXPECT_FALSE(segs[0].blocks[2].allocated);
  EXPECT_EQ(segs[0].blocks[2].address, addr(a) + 1536);
}

TEST(DeviceAllocator, SmallPoolTwoOneMiBBlocksFillASegment) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * MiB);
  DeviceAllocation b = alloc.allocate(1 * MiB);
  EXPECT_EQ(addr(b), addr(a) + MiB);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);
  EXPECT_EQ(alloc.segments()[0].blocks.size(), 2u);
  DeviceAllocation c = alloc.allocate(1);  // segment full: a second one
  EXPECT_EQ(alloc.stats().reserved, 4 * MiB);
  EXPECT_EQ(alloc.stats().segments, 2u);
  (void)c;
}

TEST(DeviceAllocator, LargePoolSplitsOnlyAboveOneMiBRemainder) {
  {
    FakeBackend backend;
    CachingDeviceAllocator alloc(backend, 0);
    DeviceAllocation a = alloc.allocate(5 * MiB);  // 20 MiB segment: [5 used | 15 free]
    EXPECT_EQ(alloc.stats().reserved, 20 * MiB);
    EXPECT_EQ(a.size, 5 * MiB);
    DeviceAllocation b = alloc.allocate(13 * MiB + 512 * KiB);  // remainder 1.5 MiB > 1 MiB: split
    EXPECT_EQ(addr(b), addr(a) + 5 * MiB);
    EXPECT_EQ(b.size, 13 * MiB + 512 * KiB);
    EXPECT_EQ(alloc.stats().allocated, 18 * MiB + 512 * KiB);
    EXPECT_EQ(alloc.stats().reserved, 20 * MiB);
    EXPECT_EQ(alloc.segments()[0].blocks.size(), 3u);
  }
  {
    FakeBackend backend;
    CachingDeviceAllocator alloc(backend, 0);
    DeviceAllocation a = alloc.allocate(5 * MiB);
    DeviceAllocation b = alloc.allocate(14 * MiB);  // remainder exactly 1 MiB: no split, whole block
    EXPECT_EQ(addr(b), addr(a) + 5 * MiB);
    EXPECT_EQ(b.size, 15 * MiB);
    EXPECT_EQ(b.requested, 14 * MiB);
    EXPECT_EQ(alloc.stats().allocated, 20 * MiB);
    EXPECT_EQ(alloc.segments()[0].blocks.size(), 2u);
  }
  {
    FakeBackend backend;
    CachingDeviceAllocator alloc(backend, 0);
    DeviceAllocation a = alloc.allocate(25 * MiB);  // 26 MiB segment, remainder 1 MiB: not split
    EXPECT_EQ(a.size, 26 * MiB);
    EXPECT_EQ(alloc.stats().allocated, 26 * MiB);
    EXPECT_EQ(alloc.stats().reserved, 26 * MiB);
  }
  {
    FakeBackend backend;
    CachingDeviceAllocator alloc(backend, 0);
    DeviceAllocation a = alloc.allocate(10 * MiB + 1);  // 12 MiB segment, remainder 1.5 MiB: split
    EXPECT_EQ(a.size, 10 * MiB + 512);
    EXPECT_EQ(alloc.stats().reserved, 12 * MiB);
    EXPECT_EQ(alloc.segments()[0].blocks.size(), 2u);
    EXPECT_FALSE(alloc.segments()[0].small_pool);
  }
}

TEST(DeviceAllocator, ReuseIsBestFitOnTheSameStream) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(4 * KiB);
  DeviceAllocation sep1 = alloc.allocate(512);
  DeviceAllocation b = alloc.allocate(8 * KiB);
  DeviceAllocation sep2 = alloc.allocate(512);
  alloc.free(b);
  alloc.free(a);
  // Free blocks: 4 KiB (a), 8 KiB (b), and the segment's tail. 3 KiB fits a best; 6 KiB fits b.
  DeviceAllocation c = alloc.allocate(3 * KiB);
  EXPECT_EQ(addr(c), addr(a));
  DeviceAllocation d = alloc.allocate(6 * KiB);
  EXPECT_EQ(addr(d), addr(b));
  // The 1 KiB and 2 KiB remainders were cached; 2 KiB exactly reuses b's remainder.
  DeviceAllocation e = alloc.allocate(2 * KiB);
  EXPECT_EQ(addr(e), addr(b) + 6 * KiB);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);
  EXPECT_EQ(backend.device_alloc_calls, 1);
  (void)sep1;
  (void)sep2;
}

TEST(DeviceAllocator, FreedBlockIsReusedAtTheSameAddress) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(5 * MiB);
  const uintptr_t where = addr(a);
  alloc.free(a);
  DeviceAllocation b = alloc.allocate(5 * MiB);
  EXPECT_EQ(addr(b), where);
  EXPECT_EQ(alloc.stats().reserved, 20 * MiB);
  EXPECT_EQ(backend.device_alloc_calls, 1);
}

TEST(DeviceAllocator, StreamsDoNotShareCachedBlocks) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB, 0);
  alloc.free(a);
  DeviceAllocation b = alloc.allocate(1 * KiB, 1);
  EXPECT_NE(addr(b), addr(a));
  EXPECT_EQ(b.stream, 1);
  EXPECT_EQ(alloc.stats().reserved, 4 * MiB);
  auto segs = alloc.segments();
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].blocks[0].stream, 0);
  EXPECT_EQ(segs[1].blocks[0].stream, 1);
  DeviceAllocation c = alloc.allocate(1 * KiB, 0);  // stream 0 gets its own block back
  EXPECT_EQ(addr(c), addr(a));
}

TEST(DeviceAllocator, FreeMergesWithFreeNeighbours) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB);
  DeviceAllocation b = alloc.allocate(1 * KiB);
  DeviceAllocation c = alloc.allocate(1 * KiB);
  alloc.free(b);
  auto blocks = alloc.segments()[0].blocks;
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_FALSE(blocks[1].allocated);
  alloc.free(a);  // merges with b
  blocks = alloc.segments()[0].blocks;
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].address, addr(a));
  EXPECT_EQ(blocks[0].size, 2 * KiB);
  EXPECT_FALSE(blocks[0].allocated);
  EXPECT_TRUE(blocks[1].allocated);
  alloc.free(c);  // merges both sides: one free block covering the segment
  blocks = alloc.segments()[0].blocks;
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].size, 2 * MiB);
  EXPECT_EQ(blocks[0].address, addr(a));
  alloc.empty_cache();
  EXPECT_TRUE(alloc.segments().empty());
  EXPECT_EQ(backend.used(), 0u);
}

TEST(DeviceAllocator, EmptyCacheKeepsSegmentsWithLiveBlocks) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB);
  DeviceAllocation b = alloc.allocate(5 * MiB);
  DeviceAllocation c = alloc.allocate(30 * MiB);
  alloc.free(b);
  alloc.free(c);
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB + 20 * MiB + 30 * MiB);
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().reserved, 2 * MiB);
  EXPECT_EQ(alloc.stats().allocated, 1 * KiB);
  EXPECT_EQ(alloc.stats().segments, 1u);
  (void)a;
}

TEST(DeviceAllocator, SegmentsAreInAddressOrderAndCoverEachSegment) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  alloc.allocate(5 * MiB);
  alloc.allocate(1 * KiB);
  alloc.allocate(12 * MiB);  // fits the 15 MiB remainder of the first segment: split there
  alloc.allocate(30 * MiB);
  auto segs = alloc.segments();
  ASSERT_EQ(segs.size(), 3u);
  for (size_t i = 0; i < segs.size(); ++i) {
    if (i) {
      EXPECT_LT(segs[i - 1].address, segs[i].address);
    }
    uint64_t at = segs[i].address, total = 0;
    for (const auto& block : segs[i].blocks) {
      EXPECT_EQ(block.address, at);
      at += block.size;
      total += block.size;
    }
    EXPECT_EQ(total, segs[i].size);
    EXPECT_EQ(segs[i].device, 0);
  }
  EXPECT_EQ(segs[0].size, 20 * MiB);
  EXPECT_EQ(segs[1].size, 2 * MiB);
  EXPECT_EQ(segs[2].size, 30 * MiB);
  ASSERT_EQ(segs[0].blocks.size(), 3u);
  EXPECT_EQ(segs[0].blocks[1].size, 12 * MiB);
  EXPECT_EQ(segs[0].blocks[2].size, 3 * MiB);
  EXPECT_FALSE(segs[0].blocks[2].allocated);
}

TEST(DeviceAllocator, FlushesCacheAndRetriesOnce) {
  FakeBackend backend(30 * MiB);
  CachingDeviceAllocator alloc(backend, 0);
  alloc.free(alloc.allocate(1 * KiB));
  alloc.free(alloc.allocate(5 * MiB));
  EXPECT_EQ(alloc.stats().reserved, 22 * MiB);
  // Stream 1 cannot use stream 0's cache; 12 MiB does not fit next to 22 MiB: flush, then retry.
  DeviceAllocation big = alloc.allocate(12 * MiB, 1);
  EXPECT_TRUE(big);
  EXPECT_EQ(alloc.stats().reserved, 12 * MiB);
  EXPECT_EQ(alloc.stats().alloc_retries, 1u);
  EXPECT_EQ(alloc.stats().ooms, 0u);
  EXPECT_EQ(backend.device_free_calls, 2);
  EXPECT_EQ(backend.device_alloc_calls, 4);  // 2 segments, the failed try, the retry
}

TEST(DeviceAllocator, OutOfMemoryMessageMatchesPyTorch) {
  // 16 GiB device, 89 MiB used outside the allocator, 16280 MiB allocated and 12 MiB cached in a
  // split segment (which empty_cache cannot return): a 20 MiB request fails even after the flush.
  FakeBackend backend(16 * GiB);
  backend.set_other_usage(89 * MiB);
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(8 * MiB);        // 20 MiB segment: 8 used, 12 cached
  DeviceAllocation b = alloc.allocate(16272 * MiB);    // its own segment
  EXPECT_EQ(backend.device_free_bytes(0), 3 * MiB);
  EXPECT_EQ(oom_text(alloc, 20 * MiB),
            "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 16.00 GiB of "
            "which 3.00 MiB is free. Of the allocated memory 15.90 GiB is allocated by PyTorch, and 12.00 MiB "
            "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
            "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)");
  EXPECT_EQ(alloc.stats().ooms, 1u);
  EXPECT_EQ(alloc.stats().alloc_retries, 1u);
  EXPECT_EQ(alloc.stats().allocated, 16280 * MiB);
  EXPECT_EQ(alloc.stats().reserved, 16292 * MiB);
  (void)a;
  (void)b;
}

TEST(DeviceAllocator, OutOfMemoryPrintsTheSegmentSize) {
  // PyTorch prints format_size(alloc_size): a 1 KiB request that needs a new small segment
  // "tries to allocate" 2 MiB; a 5 MiB request 20 MiB.
  FakeBackend backend(1 * MiB);
  CachingDeviceAllocator alloc(backend, 0);
  const std::string small = oom_text(alloc, 1 * KiB);
  EXPECT_EQ(small.rfind("CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of "
                        "1024.00 KiB of which 1024.00 KiB is free. Of the allocated memory 0 bytes is "
                        "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.", 0),
            0u)
      << small;
  const std::string large = oom_text(alloc, 5 * MiB);
  EXPECT_EQ(large.rfind("CUDA out of memory. Tried to allocate 20.00 MiB.", 0), 0u) << large;
  EXPECT_EQ(alloc.stats().ooms, 2u);
}

TEST(DeviceAllocator, MoreThanOneExabyte) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  EXPECT_EQ(oom_text(alloc, size_t(1) << 60), "CUDA out of memory. Tried to allocate more than 1EB memory.");
}

TEST(DeviceAllocator, VirtualBytesUseTheirOwnSegments) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation v = alloc.allocate(1 * KiB, 0, /*virtual_bytes=*/true);
  EXPECT_TRUE(v.virtual_bytes);
  DeviceAllocation r = alloc.allocate(1 * KiB, 0, false);
  EXPECT_FALSE(r.virtual_bytes);
  EXPECT_EQ(alloc.stats().reserved, 4 * MiB);  // a real block never lands in a virtual segment
  EXPECT_EQ(alloc.stats().allocated, 2 * KiB);
  ASSERT_EQ(backend.device_segments.size(), 2u);
  EXPECT_TRUE(backend.device_segments.begin()->second.virtual_bytes);
  EXPECT_FALSE(backend.device_segments.rbegin()->second.virtual_bytes);
  auto segs = alloc.segments();
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_TRUE(segs[0].virtual_bytes);
  EXPECT_FALSE(segs[1].virtual_bytes);

  alloc.free(v);
  DeviceAllocation r2 = alloc.allocate(1 * KiB, 0, false);  // the virtual cache is not used
  EXPECT_EQ(addr(r2), addr(r) + 1 * KiB);
  DeviceAllocation v2 = alloc.allocate(1 * KiB, 0, true);  // the virtual cache is
  EXPECT_EQ(addr(v2), addr(v));
  alloc.free(v2);
  alloc.free(r);
  alloc.free(r2);
  alloc.empty_cache();
  EXPECT_TRUE(backend.device_segments.empty());  // device_free got the matching virtual flag
}

TEST(DeviceAllocator, PeaksAndReset) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(5 * MiB);
  DeviceAllocation b = alloc.allocate(1 * KiB);
  alloc.free(a);
  auto s = alloc.stats();
  EXPECT_EQ(s.allocated, 1 * KiB);
  EXPECT_EQ(s.max_allocated, 5 * MiB + 1 * KiB);
  EXPECT_EQ(s.max_reserved, 22 * MiB);
  EXPECT_EQ(s.active_blocks, 1u);
  EXPECT_EQ(s.segments, 2u);
  alloc.empty_cache();
  alloc.reset_peak_stats();
  s = alloc.stats();
  EXPECT_EQ(s.max_allocated, 1 * KiB);
  EXPECT_EQ(s.max_reserved, 2 * MiB);
  (void)b;
}

TEST(DeviceAllocator, InvalidFreeRaises) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  DeviceAllocation a = alloc.allocate(1 * KiB);
  alloc.free(a);
  try {
    alloc.free(a);
    FAIL() << "double free accepted";
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::RuntimeError);
    EXPECT_EQ(std::string(e.what()).rfind("invalid device pointer: 0x", 0), 0u) << e.what();
  }
}

TEST(DeviceAllocator, DestructorReturnsEverySegment) {
  FakeBackend backend;
  {
    CachingDeviceAllocator alloc(backend, 0);
    alloc.allocate(1 * KiB);
    alloc.allocate(5 * MiB);
    alloc.free(alloc.allocate(30 * MiB));
    alloc.allocate(1 * KiB, 0, true);
    EXPECT_EQ(backend.device_segments.size(), 4u);
  }
  EXPECT_TRUE(backend.device_segments.empty());
  EXPECT_EQ(backend.used(), 0u);
}

TEST(FormatBytes, MatchesFormatSize) {
  EXPECT_EQ(ds::format_bytes(0), "0 bytes");
  EXPECT_EQ(ds::format_bytes(1024), "1024 bytes");
  EXPECT_EQ(ds::format_bytes(1025), "1.00 KiB");
  EXPECT_EQ(ds::format_bytes(1 * MiB), "1024.00 KiB");
  EXPECT_EQ(ds::format_bytes(1 * MiB + 1), "1.00 MiB");
  EXPECT_EQ(ds::format_bytes(20 * MiB), "20.00 MiB");
  EXPECT_EQ(ds::format_bytes(GiB), "1024.00 MiB");
  EXPECT_EQ(ds::format_bytes(16 * GiB), "16.00 GiB");
  EXPECT_EQ(ds::format_bytes(16280 * MiB), "15.90 GiB");
}
