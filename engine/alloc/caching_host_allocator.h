// Caching pinned-host allocator (PyTorch's CachingHostAllocator): power-of-two blocks, cached on free,
// and a block with an in-flight async copy is not reused until that copy's event has completed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/backend.h"
#include "trace/snapshot.h"

namespace ds {

struct HostAllocation {
  void* ptr = nullptr;
  size_t size = 0;       // power-of-two block size
  size_t requested = 0;
  explicit operator bool() const { return ptr != nullptr; }
};

struct HostAllocatorStats {
  uint64_t allocated = 0;   // bytes in live blocks
  uint64_t reserved = 0;    // bytes held from the backend (live + cached)
  uint64_t max_allocated = 0;
  uint64_t live_blocks = 0;
  uint64_t cached_blocks = 0;
  uint64_t blocked_by_events = 0;  // frees whose reuse waited for a copy event
};

class CachingHostAllocator {
 public:
  explicit CachingHostAllocator(Backend& backend);
  ~CachingHostAllocator();
  CachingHostAllocator(const CachingHostAllocator&) = delete;
  CachingHostAllocator& operator=(const CachingHostAllocator&) = delete;

  // Raises RuntimeError ("CUDA error: out of memory" wording) when the backend cannot pin more.
  HostAllocation allocate(size_t bytes);
  void free(void* ptr);
  // An async copy uses this block: it is not reused until `event` is done (Note [Pinned staging]).
  void record_event(void* ptr, const EventId& event);
  void empty_cache();  // release cached blocks whose events completed
  bool is_pinned(const void* ptr) const;  // ptr anywhere inside a block this allocator handed out

  HostAllocatorStats stats() const;
  std::vector<SegmentInfo> segments() const;  // one per block (device = -1)

  static size_t round_size(size_t bytes);  // next power of two (>= 1)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ds
