// CachingDeviceAllocator against a model of PyTorch's rules built from its own segment records, over long
// random sequences: every allocation must be the best fit the rules pick among the free blocks the records
// show (same stream and pool, smallest size, then older segment, then lower address), split as the rules
// say, and every free must leave no two free neighbours unmerged. Guards the bookkeeping shortcuts of
// Note [Set entry reuse] (a set entry re-pointed in place instead of erased and re-inserted): the set's
// order decides which block a request gets, so a wrong in-place key shows up here as a different address.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "alloc/caching_device_allocator.h"
#include "alloc/fake_backend.h"

using ds::AllocatorSegmentRecord;
using ds::CachingDeviceAllocator;
using ds::DeviceAllocation;
using ds::testing::FakeBackend;

namespace {
constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * 1024;

// The block the rules pick for `bytes` on `stream`, from the records: its address, or 0 when no cached
// block fits (a new segment). FakeBackend's addresses only grow, so address order is segment age order.
uint64_t expected_address(const std::vector<AllocatorSegmentRecord>& segments, size_t bytes, ds::StreamId stream) {
  const size_t size = CachingDeviceAllocator::round_size(bytes);
  const bool small = size <= 1 * MiB;
  const AllocatorSegmentRecord::Block* best = nullptr;
  for (const AllocatorSegmentRecord& seg : segments) {
    if (seg.small_pool != small || seg.stream != stream || seg.virtual_bytes) continue;
    for (const AllocatorSegmentRecord::Block& b : seg.blocks) {
      if (b.allocated || b.size < size) continue;
      if (!best || b.size < best->size) best = &b;  // records come in address order: ties keep the older
    }
  }
  return best ? best->address : 0;
}

size_t expected_block_size(size_t found_size, size_t bytes) {
  const size_t size = CachingDeviceAllocator::round_size(bytes);
  const size_t remaining = found_size - size;
  const bool small = size <= 1 * MiB;
  const bool split = small ? remaining >= 512 : remaining > 1 * MiB;
  return split ? size : found_size;
}

size_t free_block_size_at(const std::vector<AllocatorSegmentRecord>& segments, uint64_t address) {
  for (const AllocatorSegmentRecord& seg : segments)
    for (const AllocatorSegmentRecord::Block& b : seg.blocks)
      if (b.address == address) return b.size;
  return 0;
}

// Blocks cover their segment back to back, no two free blocks are neighbours, and memory_allocated() is
// the sum of the allocated blocks.
void check_layout(const CachingDeviceAllocator& alloc, const std::vector<AllocatorSegmentRecord>& segments) {
  uint64_t allocated = 0;
  for (const AllocatorSegmentRecord& seg : segments) {
    uint64_t at = seg.address;
    bool prev_free = false;
    for (const AllocatorSegmentRecord::Block& b : seg.blocks) {
      ASSERT_EQ(b.address, at);
      at += b.size;
      ASSERT_FALSE(prev_free && !b.allocated) << "unmerged free neighbours at " << b.address;
      prev_free = !b.allocated;
      if (b.allocated) allocated += b.size;
    }
    ASSERT_EQ(at, seg.address + seg.size);
  }
  ASSERT_EQ(alloc.stats().allocated, allocated);
}

void run_sequence(uint32_t seed, int steps) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  std::mt19937 rng(seed);
  std::vector<DeviceAllocation> live;
  const size_t sizes[] = {1, 400, 512, 513, 4 * KiB, 100 * KiB, 1 * MiB - 100, 1 * MiB, 1 * MiB + 1,
                          3 * MiB, 9 * MiB, 12 * MiB, 30 * MiB};
  for (int step = 0; step < steps; ++step) {
    const bool do_free = !live.empty() && (rng() % 100) < 45;
    if (do_free) {
      const size_t i = rng() % live.size();
      alloc.free(live[i]);
      live[i] = live.back();
      live.pop_back();
    } else {
      const size_t bytes = sizes[rng() % std::size(sizes)] + rng() % 3 * 100;
      const ds::StreamId stream = ds::StreamId(rng() % 2);
      const std::vector<AllocatorSegmentRecord> before = alloc.segment_records();
      const uint64_t want = expected_address(before, bytes, stream);
      const DeviceAllocation a = alloc.allocate(bytes, stream);
      if (want) {
        ASSERT_EQ(reinterpret_cast<uint64_t>(a.ptr), want) << "seed " << seed << " step " << step << " bytes " << bytes;
        ASSERT_EQ(a.size, expected_block_size(free_block_size_at(before, want), bytes));
      } else {
        for (const AllocatorSegmentRecord& seg : before)
          ASSERT_FALSE(reinterpret_cast<uint64_t>(a.ptr) >= seg.address &&
                       reinterpret_cast<uint64_t>(a.ptr) < seg.address + seg.size)
              << "a new segment was expected, seed " << seed << " step " << step;
      }
      live.push_back(a);
    }
    check_layout(alloc, alloc.segment_records());
    if (step % 97 == 96) alloc.empty_cache();  // segments go and come back: ages and pools reshuffle
  }
  for (const DeviceAllocation& a : live) alloc.free(a);
  EXPECT_EQ(alloc.stats().allocated, 0u);
}
}  // namespace

TEST(DeviceAllocatorModel, RandomSequencesPickTheBestFit) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run_sequence(seed, 600);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The small-op pattern: one block taken from a segment's free tail and given back, over and over, with
// other blocks of the same and other sizes cached around it.
TEST(DeviceAllocatorModel, RepeatedTakeAndReturnKeepsTheSameAddress) {
  FakeBackend backend;
  CachingDeviceAllocator alloc(backend, 0);
  const DeviceAllocation keep1 = alloc.allocate(400);
  const DeviceAllocation gap = alloc.allocate(400);
  const DeviceAllocation keep2 = alloc.allocate(4 * KiB);
  alloc.free(gap);  // a cached 512-byte hole before the tail
  DeviceAllocation first = alloc.allocate(1000);  // does not fit the hole: the tail's front
  const uintptr_t at = reinterpret_cast<uintptr_t>(first.ptr);
  alloc.free(first);
  for (int i = 0; i < 1000; ++i) {
    DeviceAllocation a = alloc.allocate(1000);
    ASSERT_EQ(reinterpret_cast<uintptr_t>(a.ptr), at);
    DeviceAllocation hole = alloc.allocate(300);  // the 512-byte hole is the best fit for this one
    ASSERT_EQ(hole.ptr, gap.ptr);
    alloc.free(hole);
    alloc.free(a);
    check_layout(alloc, alloc.segment_records());
  }
  alloc.free(keep1);
  alloc.free(keep2);
  EXPECT_EQ(alloc.segment_records().size(), 1u);
  EXPECT_EQ(alloc.segment_records()[0].blocks.size(), 1u);  // all merged back into one free block
}
