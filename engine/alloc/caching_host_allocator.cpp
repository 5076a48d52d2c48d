// PyTorch's caching pinned-host allocator (aten/src/ATen/core/CachingHostAllocator.h and
// aten/src/ATen/cuda/CachingHostAllocator.cpp) over Backend::pinned_alloc.
#include "alloc/caching_host_allocator.h"

// Rules kept from CachingHostAllocatorImpl:
//  - sizes round up to a power of two (PowerOf2Ceil); blocks are never split;
//  - one free list per power of two, reused last-in first-out (free_list_[index].list_.back());
//  - free() of a block that recorded events queues (event, block) pairs at the FRONT of one event
//    queue; process_events(), run at the start of every allocate and by empty_cache, checks the
//    queue from the BACK (oldest first) and stops at the first event that is not done, so a block is
//    reused only when all its events are done (Note [Pinned staging]);
//  - empty_cache releases only blocks on the free lists; blocks still waiting for events stay.
// DeviceScope differences: record_event takes an event the caller already recorded (Backend has the
// streams), and when the backend cannot pin more, cached blocks are released and the allocation is
// tried once more before raising (PyTorch raises at once from C10_CUDA_CHECK(cudaHostAlloc)).

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>

#include "core/errors.h"

namespace ds {
namespace {

constexpr size_t kMaxSizeIndex = 64;

struct HostBlock {
  uintptr_t addr = 0;
  size_t size = 0;
  size_t requested = 0;
  bool allocated = false;
  size_t event_count = 0;        // events queued at free that are not yet processed
  std::vector<EventId> events;   // recorded while allocated
};

size_t size_index(size_t size) {  // Log2_64_Ceil
  size_t index = 0;
  while ((size_t(1) << index) < size) ++index;
  return index;
}

}  // namespace

struct CachingHostAllocator::Impl {
  Backend& backend;
  mutable std::mutex mutex;
  std::map<uintptr_t, HostBlock*> blocks;  // every block held (live, cached, waiting), by address
  std::vector<std::deque<HostBlock*>> free_list = std::vector<std::deque<HostBlock*>>(kMaxSizeIndex);
  std::deque<std::pair<EventId, HostBlock*>> events;
  HostAllocatorStats stats;

  explicit Impl(Backend& b) : backend(b) {}

  HostBlock* find_containing(uintptr_t addr) const {
    auto it = blocks.upper_bound(addr);
    if (it == blocks.begin()) return nullptr;
    --it;
    HostBlock* b = it->second;
    return addr < b->addr + b->size ? b : nullptr;
  }

  void process_events() {
    while (!events.empty()) {
      auto& [event, block] = events.back();
      if (!backend.event_done(event)) return;
      HostBlock* b = block;
      backend.destroy_event(event);  // the allocator was its last user
      events.pop_back();
      if (--b->event_count == 0) {
        free_list[size_index(b->size)].push_back(b);
        stats.cached_blocks += 1;
      }
    }
  }

  void release_cached() {
    process_events();
    for (auto& list : free_list) {
      for (HostBlock* b : list) {
        backend.pinned_free(reinterpret_cast<void*>(b->addr), b->size);
        blocks.erase(b->addr);
        stats.reserved -= b->size;
        stats.cached_blocks -= 1;
        delete b;
      }
      list.clear();
    }
  }
};

CachingHostAllocator::CachingHostAllocator(Backend& backend) : impl_(std::make_unique<Impl>(backend)) {}

CachingHostAllocator::~CachingHostAllocator() {
  for (auto& [addr, b] : impl_->blocks) {
    impl_->backend.pinned_free(reinterpret_cast<void*>(addr), b->size);
    delete b;
  }
}

size_t CachingHostAllocator::round_size(size_t bytes) {
  if (bytes > (size_t(1) << 63)) return 0;  // no power of two fits in size_t
  size_t p = 1;
  while (p < bytes) p <<= 1;
  return p;
}

HostAllocation CachingHostAllocator::allocate(size_t bytes) {
  HostAllocation result;
  if (bytes == 0) return result;
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  m.process_events();
  const size_t size = round_size(bytes);
  if (size == 0) raise(ErrorKind::RuntimeError, "CUDA error: out of memory");
  auto& list = m.free_list[size_index(size)];
  HostBlock* block = nullptr;
  if (!list.empty()) {
    block = list.back();
    list.pop_back();
    m.stats.cached_blocks -= 1;
  } else {
    void* ptr = m.backend.pinned_alloc(size);
    if (!ptr) {
      m.release_cached();
      ptr = m.backend.pinned_alloc(size);
    }
    if (!ptr) raise(ErrorKind::RuntimeError, "CUDA error: out of memory" + m.backend.out_of_memory_note(-1));
    block = new HostBlock;
    block->addr = reinterpret_cast<uintptr_t>(ptr);
    block->size = size;
    m.blocks[block->addr] = block;
    m.stats.reserved += size;
  }
  block->allocated = true;
  block->requested = bytes;
  m.stats.allocated += size;
  m.stats.max_allocated = std::max(m.stats.max_allocated, m.stats.allocated);
  m.stats.live_blocks += 1;
  result.ptr = reinterpret_cast<void*>(block->addr);
  result.size = size;
  result.requested = bytes;
  return result;
}

void CachingHostAllocator::free(void* ptr) {
  if (!ptr) return;
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  auto it = m.blocks.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == m.blocks.end() || !it->second->allocated)
    raise(ErrorKind::RuntimeError, "free of a pointer that is not a live pinned block");
  HostBlock* block = it->second;
  block->allocated = false;
  m.stats.allocated -= block->size;
  m.stats.live_blocks -= 1;
  if (block->events.empty()) {
    m.free_list[size_index(block->size)].push_back(block);
    m.stats.cached_blocks += 1;
    return;
  }
  bool waits = false;
  for (const EventId& e : block->events) {
    if (!m.backend.event_done(e)) waits = true;
    m.events.emplace_front(e, block);
  }
  if (waits) m.stats.blocked_by_events += 1;
  block->event_count += block->events.size();
  block->events.clear();
}

void CachingHostAllocator::record_event(void* ptr, const EventId& event) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mutex);
  // Like PyTorch's record_event, a pointer that is not a live pinned block is ignored.
  HostBlock* block = m.find_containing(reinterpret_cast<uintptr_t>(ptr));
  if (block && block->allocated) block->events.push_back(event);
  else m.backend.destroy_event(event);  // the event was handed over: nobody else will use it
}

void CachingHostAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->release_cached();
}

bool CachingHostAllocator::is_pinned(const void* ptr) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->find_containing(reinterpret_cast<uintptr_t>(ptr)) != nullptr;
}

HostAllocatorStats CachingHostAllocator::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  HostAllocatorStats s = impl_->stats;
  // Blocks waiting for events are held but neither live nor on a free list yet: count them cached.
  for (const auto& [addr, b] : impl_->blocks)
    if (!b->allocated && b->event_count > 0) s.cached_blocks += 1;
  return s;
}

std::vector<SegmentInfo> CachingHostAllocator::segments() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<SegmentInfo> out;
  out.reserve(impl_->blocks.size());
  for (const auto& [addr, b] : impl_->blocks) {
    SegmentInfo seg;
    seg.device = -1;
    seg.address = addr;
    seg.size = b->size;
    BlockInfo info;
    info.address = addr;
    info.size = b->size;
    info.allocated = b->allocated;
    seg.blocks.push_back(info);
    out.push_back(std::move(seg));
  }
  return out;
}

}  // namespace ds
