// The CUDA caching allocator's rules (c10/cuda/CUDACachingAllocator.cpp), written once over Backend,
// so the simulated and real devices account memory exactly like PyTorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "backend/backend.h"
#include "trace/snapshot.h"

namespace ds {

// memory_allocated() / memory_reserved() as one call left them: what the runtime's Alloc and Free events
// carry, handed back by allocate() and free() from inside their lock instead of a second stats() call.
struct AllocatorFigures {
  uint64_t allocated = 0;
  uint64_t reserved = 0;
};

struct DeviceAllocation {
  void* ptr = nullptr;
  size_t size = 0;           // rounded block size (what memory_allocated counts)
  size_t requested = 0;      // what the caller asked for
  StreamId stream = kDefaultStream;
  bool virtual_bytes = false;
  AllocatorFigures after;    // the device's figures right after this allocation
  explicit operator bool() const { return ptr != nullptr; }
};

struct DeviceAllocatorStats {
  uint64_t allocated = 0;       // memory_allocated(): rounded sizes of live blocks
  uint64_t reserved = 0;        // memory_reserved(): all segments obtained from the backend
  uint64_t max_allocated = 0;
  uint64_t max_reserved = 0;
  uint64_t active_blocks = 0;
  uint64_t segments = 0;
  uint64_t alloc_retries = 0;   // times the cache was flushed to satisfy a request
  uint64_t ooms = 0;
};

// What the allocator did, as PyTorch's memory history records it (c10 TraceEntry actions; the
// "snapshot" action is the recorder's, not the allocator's).
enum class AllocatorAction : uint8_t { Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, Oom };

struct AllocatorTraceEvent {
  AllocatorAction action = AllocatorAction::Alloc;
  int device = 0;
  uint64_t addr = 0;   // block or segment address; for Oom the device's free bytes (PyTorch's device_free)
  uint64_t size = 0;   // Alloc/Free*: the requested bytes; Segment*: the segment size; Oom: the rounded request
  StreamId stream = kDefaultStream;
  bool virtual_bytes = false;
};

// Called after the allocator's lock is released, on the thread that made the call, in the order
// the allocator acted; it may call back into the allocator. Must not throw.
using AllocatorObserver = std::function<void(const AllocatorTraceEvent&)>;

// One segment with its blocks, for torch.cuda.memory._snapshot() (which also needs requested sizes).
struct AllocatorSegmentRecord {
  struct Block {
    uint64_t address = 0;
    uint64_t size = 0;
    uint64_t requested = 0;  // what the caller asked for; 0 for a free block
    bool allocated = false;
    StreamId stream = kDefaultStream;
  };
  uint64_t address = 0;
  uint64_t size = 0;
  StreamId stream = kDefaultStream;  // the stream it was allocated for (all its blocks share it)
  bool small_pool = false;
  bool virtual_bytes = false;
  std::vector<Block> blocks;  // address order, covering the segment
};

class CachingDeviceAllocator {
 public:
  CachingDeviceAllocator(Backend& backend, int device);
  ~CachingDeviceAllocator();  // returns every segment to the backend
  CachingDeviceAllocator(const CachingDeviceAllocator&) = delete;
  CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

  // PyTorch's malloc: round, pick pool, reuse a cached block of the same stream (splitting per the
  // rules), else get a segment from the backend; on failure free cached segments and retry; then
  // raise OutOfMemoryError with PyTorch's message. bytes == 0 returns an empty allocation.
  DeviceAllocation allocate(size_t bytes, StreamId stream = kDefaultStream, bool virtual_bytes = false);
  // Back to the cache of its stream (merging with free neighbours). Never returns memory to the backend.
  // Returns the device's figures right after the free.
  AllocatorFigures free(const DeviceAllocation& allocation);
  // Release every segment that has no live block (torch.cuda.empty_cache()).
  void empty_cache();

  DeviceAllocatorStats stats() const;
  void reset_peak_stats();
  std::vector<SegmentInfo> segments() const;  // address order, blocks inside
  std::vector<AllocatorSegmentRecord> segment_records() const;  // the same, with requested sizes and streams

  // Sees every alloc / free / segment alloc / segment free / OOM from now on; an empty function stops it.
  void set_observer(AllocatorObserver observer);

  // The rounding and segment-size rules, exposed for tests and the lessons.
  static size_t round_size(size_t bytes);         // multiple of 512, minimum 512
  static size_t allocation_size(size_t rounded);  // segment size requested from the backend

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ds
