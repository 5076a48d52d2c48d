// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp, default configuration) over
// Backend: rounding, small/large pools, best fit per stream, splitting, merging, flush-and-retry, OOM text.
#include "alloc/caching_device_allocator.h"

// Note [Caching allocator rules]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Mirrors DeviceCachingAllocator in c10/cuda/CUDACachingAllocator.cpp with the default
// PYTORCH_CUDA_ALLOC_CONF (max_split_size unlimited, no roundup_power2_divisions, no expandable
// segments, no memory fraction, no garbage collection). Constants, as in the source:
//   kMinBlockSize  = 512        every request rounds up to a multiple of 512, minimum 512
//   kSmallSize     = 1048576    rounded size <= 1 MiB -> small pool, else large pool
//   kSmallBuffer   = 2097152    small pool segments are 2 MiB
//   kMinLargeAlloc = 10485760   rounded size in (1 MiB, 10 MiB) -> one 20 MiB segment (kLargeBuffer)
//   kLargeBuffer   = 20971520
//   kRoundLarge    = 2097152    rounded size >= 10 MiB -> a segment of the size rounded up to 2 MiB
// malloc(orig_size, stream):
//   1. size = round_size(orig_size); pool = small/large; alloc_size = get_allocation_size(size).
//   2. get_free_block (find_free_block here): the cached block of the SAME stream with the smallest
//      size >= size (blocks are ordered by (stream, size, address)); with max_split_size unlimited
//      nothing else restricts it.
//   3. Else ask the driver (Backend::device_alloc) for a new segment of alloc_size.
//   4. On failure: release_cached_blocks() - return every cached block that is a whole segment
//      (not split), in both pools - and try once more (counted in num_alloc_retries).
//   5. Still failing: OutOfMemoryError "CUDA out of memory. Tried to allocate <alloc_size> ..."
//      (the SEGMENT size, format_size(alloc_size), not the rounded request; see oom_message()).
//   6. should_split: small pool splits when the remainder >= 512 bytes; large pool only when the
//      remainder > 1 MiB (kSmallSize). The request takes the front of the block; the remainder is
//      cached on the same stream. Without a split the caller gets the whole (larger) block, and
//      memory_allocated() counts the whole block.
// free: the block goes back to its pool and merges with free neighbours of the same segment.
//   Memory only returns to the driver in empty_cache() or the flush in step 4.
// DeviceScope addition: virtual_bytes allocations (virtual storages: accounted, never touched) use
// their own small/large pools and segments obtained with virtual_bytes=true, never mixed with real ones.
// Not modelled: recordStream/cross-stream events, CUDA graph private pools, expandable segments.
//
// Note [Allocator observer]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// torch.cuda.memory._record_memory_history needs what c10's record_trace() sees: alloc (the caller's
// size), free_requested + free_completed (the block's requested size, before merging; with no stream
// uses both happen at once), segment_alloc / segment_free (cudaMalloc / cudaFree of a segment) and oom
// (device_free, the rounded size). Events are queued under the lock and handed to the observer once it
// is released (ObserverFlush), so the observer may capture Python frames or call the allocator again.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <new>
#include <type_traits>

#include "alloc/address_map.h"
#include "alloc/node_cache.h"
#include "core/errors.h"
#include "core/format.h"

namespace ds {
namespace {

constexpr size_t kMinBlockSize = 512;
constexpr size_t kSmallSize = 1048576;
constexpr size_t kSmallBuffer = 2097152;
constexpr size_t kMinLargeAlloc = 10485760;
constexpr size_t kLargeBuffer = 20971520;
constexpr size_t kRoundLarge = 2097152;
constexpr size_t kOneExaByte = 1152921504606846976ULL;  // NativeCachingAllocator::allocate's limit

struct Pool;

struct Block {
  uintptr_t addr = 0;
  uint64_t segment = 0;  // the segment's creation number (see BlockLess)
  size_t size = 0;
  size_t requested = 0;
  StreamId stream = kDefaultStream;
  Pool* pool = nullptr;
  bool allocated = false;
  Block* prev = nullptr;  // neighbours inside the same segment
  Block* next = nullptr;
  bool is_split() const { return prev != nullptr || next != nullptr; }
};

// BlockComparatorSize: (stream, size, address), with the address taken as a GPU's cudaMalloc gives them: a
// later segment lies above an earlier one. So ties between equal free blocks go to the older segment, then
// the lower offset, whatever addresses the backend hands out: a simulated device's real segments are host
// mappings (placed by the kernel, often downwards, differently from run to run) and virtual ones are
// placeholders; the same program then places its blocks the same way in both (issue 25's agreement check).
struct BlockLess {
  bool operator()(const Block* a, const Block* b) const {
    if (a->stream != b->stream) return a->stream < b->stream;
    if (a->size != b->size) return a->size < b->size;
    if (a->segment != b->segment) return a->segment < b->segment;
    return a->addr < b->addr;
  }
};

// Note [Allocator node reuse] (alloc/node_cache.h): set entries come from a cache.
using BlockSet = std::set<Block*, BlockLess, CachedNodes<Block*>>;
using LiveBlocks = AddressMap<Block*>;  // Note [Live block map]

struct Pool {
  bool small = false;
  bool virtual_bytes = false;
  BlockSet blocks;  // cached (free) blocks only
};

void add(uint64_t& current, uint64_t& peak, uint64_t amount) {
  current += amount;
  peak = std::max(peak, current);
}

}  // namespace

struct CachingDeviceAllocator::Impl {
  Backend& backend;
  int device;
  mutable std::mutex mutex;
  // Note [Allocator node reuse]: declared before the containers using them, so they outlive them.
  NodeCache block_nodes, set_nodes;
  Pool pools[2][2];  // [virtual_bytes][small]
  uint64_t segments_made = 0;  // segments obtained so far (Block::segment)
  // Live blocks by address, and segment heads in address order, per kind (real / virtual): the two
  // kinds may come from different address ranges of the backend, so they never share a key space.
  LiveBlocks live[2];
  std::map<uintptr_t, Block*> segment_heads[2];
  DeviceAllocatorStats stats;
  AllocatorObserver observer;                 // Note [Allocator observer]
  // Whether `observer` is set: with none, no call queues events, and ObserverFlush need not lock again.
  std::atomic<bool> observing{false};
  std::vector<AllocatorTraceEvent> pending;  // queued under the lock, handed over after it

  Impl(Backend& b, int d) : backend(b), device(d) {
    for (int v = 0; v < 2; ++v) {
      for (int s = 0; s < 2; ++s) {
        pools[v][s].small = s == 1;
        pools[v][s].virtual_bytes = v == 1;
        pools[v][s].blocks = BlockSet(BlockLess(), CachedNodes<Block*>(&set_nodes));
      }
    }
  }

  Block* new_block() { return new (block_nodes.take(sizeof(Block))) Block; }
  void drop_block(Block* b) {
    static_assert(std::is_trivially_destructible_v<Block>);
    block_nodes.give(b, sizeof(Block));
  }

  Pool& get_pool(size_t size, bool virtual_bytes) { return pools[virtual_bytes][size <= kSmallSize]; }

  void emit(AllocatorAction action, uint64_t addr, uint64_t size, StreamId stream, bool virtual_bytes) {
    if (!observer) return;
    AllocatorTraceEvent e;
    e.action = action;
    e.device = device;
    e.addr = addr;
    e.size = size;
    e.stream = stream;
    e.virtual_bytes = virtual_bytes;
    pending.push_back(e);
  }

  // The cached block of `stream` with the smallest size >= `size` (still in the pool: the caller takes it out
  // or hands its set entry to the split remainder), or the pool's end().
  BlockSet::iterator find_free_block(Pool& pool, StreamId stream, size_t size) {
    Block key;
    key.stream = stream;
    key.size = size;
    key.addr = 0;
    auto it = pool.blocks.lower_bound(&key);
    if (it != pool.blocks.end() && (*it)->stream != stream) return pool.blocks.end();
    return it;
  }

  // Note [Set entry reuse]: a small op's allocate takes a cached block and caches its remainder, and its free
  // merges the block back into that remainder: erasing one set entry and inserting another each time
  // (a rebalance and a tree descent each). When the new block sorts where the entry `it` stands (between its
  // neighbours: the usual case, the remainder of a segment's free tail), the entry is re-pointed at `value`
  // in place; otherwise it is erased and `value` inserted. The set holds the same blocks in the same order
  // either way. Precondition: every block in the set but the one `it` names has its key unchanged.
  void rekey(Pool& pool, BlockSet::iterator it, Block* value) {
    BlockLess less;
    const bool after_prev = it == pool.blocks.begin() || less(*std::prev(it), value);
    const auto next = std::next(it);
    if (after_prev && (next == pool.blocks.end() || less(value, *next))) {
      const_cast<Block*&>(*it) = value;  // the node's key only; the order it sits in still holds
      return;
    }
    pool.blocks.erase(it);  // by position: no comparison reads the entry's stale block
    pool.blocks.insert(value);
  }

  Block* alloc_block(Pool& pool, StreamId stream, size_t alloc_size) {
    void* ptr = backend.device_alloc(device, alloc_size, pool.virtual_bytes);
    if (!ptr) return nullptr;
    Block* block = new_block();
    block->addr = reinterpret_cast<uintptr_t>(ptr);
    block->segment = ++segments_made;
    block->size = alloc_size;
    block->stream = stream;
    block->pool = &pool;
    segment_heads[pool.virtual_bytes][block->addr] = block;
    add(stats.reserved, stats.max_reserved, alloc_size);
    stats.segments += 1;
    emit(AllocatorAction::SegmentAlloc, block->addr, alloc_size, stream, pool.virtual_bytes);
    return block;
  }

  static bool should_split(const Block* block, size_t size) {
    const size_t remaining = block->size - size;
    if (block->pool->small) return remaining >= kMinBlockSize;
    return remaining > kSmallSize;  // (size < max_split_size) always holds by default
  }

  // Whole free segments go back to the driver (release_blocks on every pool).
  void release_cached_blocks() {
    for (auto& by_kind : pools)
      for (Pool& pool : by_kind) {
        for (auto it = pool.blocks.begin(); it != pool.blocks.end();) {
          Block* block = *it;
          if (block->is_split()) {
            ++it;
            continue;
          }
          it = pool.blocks.erase(it);
          release_block(block);
        }
      }
  }

  void release_block(Block* block) {
    const bool virt = block->pool->virtual_bytes;
    backend.device_free(device, reinterpret_cast<void*>(block->addr), block->size, virt);
    emit(AllocatorAction::SegmentFree, block->addr, block->size, block->stream, virt);
    segment_heads[virt].erase(block->addr);
    stats.reserved -= block->size;
    stats.segments -= 1;
    drop_block(block);
  }

  // Back into the pool, merged with free neighbours of the same segment. The lower-address object survives,
  // so a segment's head block object never changes; the merged block takes a neighbour's set entry where
  // it has one (Note [Set entry reuse]).
  void free_block(Block* block) {
    Pool& pool = *block->pool;
    Block* const prev = block->prev && !block->prev->allocated ? block->prev : nullptr;
    Block* const next = block->next && !block->next->allocated ? block->next : nullptr;
    // Located before any key changes (the lookups compare keys).
    auto entry = pool.blocks.end();
    if (next) entry = pool.blocks.find(next);
    if (prev) {
      if (entry == pool.blocks.end()) entry = pool.blocks.find(prev);
      else pool.blocks.erase(prev);
    }
    Block* head = block;
    if (prev) {
      prev->size += block->size;
      prev->next = block->next;
      if (prev->next) prev->next->prev = prev;
      drop_block(block);
      head = prev;
    }
    if (next) {
      head->size += next->size;
      head->next = next->next;
      if (head->next) head->next->prev = head;
    }
    head->allocated = false;
    head->requested = 0;
    if (entry == pool.blocks.end()) pool.blocks.insert(head);
    else rekey(pool, entry, head);
    if (next) drop_block(next);  // after rekey: its entry named `next` until then
  }

  // Hands the events queued during one call to the observer once the call's lock is released (declared
  // before the lock_guard, so it runs after it, also when the call raises).
  class ObserverFlush {
   public:
    explicit ObserverFlush(Impl& m) : m_(m) {}
    ~ObserverFlush() {
      // Nothing queued without an observer (emit() drops events then; set_observer({}) clears the queue).
      if (!m_.observing.load(std::memory_order_acquire)) return;
      std::vector<AllocatorTraceEvent> events;
      AllocatorObserver observer;
      {
        std::lock_guard<std::mutex> lock(m_.mutex);
        if (m_.pending.empty()) return;
        events.swap(m_.pending);
        observer = m_.observer;
      }
      if (!observer) return;
      try {
        for (const AllocatorTraceEvent& e : events) observer(e);
      } catch (...) {
        // An observer only records; a failure there must never turn into an allocation failure.
      }
    }
    ObserverFlush(const ObserverFlush&) = delete;
    ObserverFlush& operator=(const ObserverFlush&) = delete;

   private:
    Impl& m_;
  };

  std::string oom_message(size_t alloc_size) const {
    // The message of DeviceCachingAllocator::malloc, word for word. Its optional parts:
    //  - proc_info comes from reportProcessMemoryInfo(), which asks NVML for the processes using the
    //    GPU ("Including non-PyTorch memory, this process has X memory in use. "). The Backend
    //    interface reports no per-process usage (and a simulated device has no NVML), so it is empty
    //    here, as it is in PyTorch builds without NVML.
    //  - allowed_info only with set_per_process_memory_fraction, private_pool_msg only with CUDA
    //    graph pools: neither exists here.
    // "total capacity" and "free" are cudaMemGetInfo's figures: props().total_bytes and
    // device_free_bytes() of the backend.
    const uint64_t total = backend.props(device).total_bytes;
    const uint64_t free_bytes = backend.device_free_bytes(device);
    std::string msg = "CUDA out of memory. Tried to allocate " + format_bytes(alloc_size) + ". GPU " +
                      std::to_string(device) + " has a total capacity of " + format_bytes(total) +
                      " of which " + format_bytes(free_bytes) + " is free. ";
    msg += "Of the allocated memory " + format_bytes(stats.allocated) + " is allocated by PyTorch, and " +
           format_bytes(stats.reserved - stats.allocated) + " is reserved by PyTorch but unallocated." +
           " If reserved but unallocated memory is large try setting" +
           " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid" +
           " fragmentation.  See documentation for Memory Management " +
           " (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";
    return msg + backend.out_of_memory_note(device);  // why a simulated device with room still failed
  }
};

CachingDeviceAllocator::CachingDeviceAllocator(Backend& backend, int device)
    : impl_(std::make_unique<Impl>(backend, device)) {}

CachingDeviceAllocator::~CachingDeviceAllocator() {
  // Every segment goes back, live blocks included: the allocator owns the device memory.
  for (int v = 0; v < 2; ++v) {
    for (auto& [addr, head] : impl_->segment_heads[v]) {
      size_t size = 0;
      for (Block* b = head; b;) {
        Block* next = b->next;
        size += b->size;
        impl_->drop_block(b);
        b = next;
      }
      impl_->backend.device_free(impl_->device, reinterpret_cast<void*>(addr), size, v == 1);
    }
  }
}

size_t CachingDeviceAllocator::round_size(size_t bytes) {
  if (bytes < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((bytes + kMinBlockSize - 1) / kMinBlockSize);
}

size_t CachingDeviceAllocator::allocation_size(size_t rounded) {
  if (rounded <= kSmallSize) return kSmallBuffer;
  if (rounded < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((rounded + kRoundLarge - 1) / kRoundLarge);
}

DeviceAllocation CachingDeviceAllocator::allocate(size_t bytes, StreamId stream, bool virtual_bytes) {
  DeviceAllocation result;
  result.stream = stream;
  result.virtual_bytes = virtual_bytes;
  if (bytes == 0) {  // PyTorch hands out a null data pointer for empty storages; the figures are still current
    std::lock_guard<std::mutex> lock(impl_->mutex);
    result.after = {impl_->stats.allocated, impl_->stats.reserved};
    return result;
  }
  if (bytes >= kOneExaByte)
    raise(ErrorKind::OutOfMemoryError, "CUDA out of memory. Tried to allocate more than 1EB memory.");

  Impl& m = *impl_;
  Impl::ObserverFlush flush(m);
  std::lock_guard<std::mutex> lock(m.mutex);
  const size_t size = round_size(bytes);
  Pool& pool = m.get_pool(size, virtual_bytes);
  const size_t alloc_size = allocation_size(size);

  const auto found = m.find_free_block(pool, stream, size);
  const bool cached = found != pool.blocks.end();
  Block* block = cached ? *found : nullptr;
  if (!block) {
    block = m.alloc_block(pool, stream, alloc_size);
    if (!block) {
      m.release_cached_blocks();
      m.stats.alloc_retries += 1;
      block = m.alloc_block(pool, stream, alloc_size);
    }
    if (!block) {
      m.stats.ooms += 1;
      m.emit(AllocatorAction::Oom, m.backend.device_free_bytes(m.device), size, stream, virtual_bytes);
      raise(ErrorKind::OutOfMemoryError, m.oom_message(alloc_size));
    }
  }

  if (Impl::should_split(block, size)) {
    // The request takes the front; the remainder stays cached on the same stream.
    Block* rest = m.new_block();
    rest->addr = block->addr + size;
    rest->segment = block->segment;
    rest->size = block->size - size;
    rest->stream = block->stream;
    rest->pool = block->pool;
    rest->prev = block;
    rest->next = block->next;
    if (rest->next) rest->next->prev = rest;
    block->next = rest;
    block->size = size;
    if (cached) m.rekey(pool, found, rest);  // the remainder takes the block's set entry
    else pool.blocks.insert(rest);
  } else if (cached) {
    pool.blocks.erase(found);
  }
  block->allocated = true;
  block->requested = bytes;
  m.live[virtual_bytes].insert(block->addr, block);
  add(m.stats.allocated, m.stats.max_allocated, block->size);
  m.stats.active_blocks += 1;
  m.emit(AllocatorAction::Alloc, block->addr, bytes, stream, virtual_bytes);

  result.ptr = reinterpret_cast<void*>(block->addr);
  result.size = block->size;
  result.requested = bytes;
  result.after = {m.stats.allocated, m.stats.reserved};
  return result;
}

AllocatorFigures CachingDeviceAllocator::free(const DeviceAllocation& allocation) {
  Impl& m = *impl_;
  if (!allocation.ptr) {
    std::lock_guard<std::mutex> lock(m.mutex);
    return {m.stats.allocated, m.stats.reserved};
  }
  Impl::ObserverFlush flush(m);
  std::lock_guard<std::mutex> lock(m.mutex);
  Block* block = m.live[allocation.virtual_bytes].erase(reinterpret_cast<uintptr_t>(allocation.ptr));
  if (!block) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%p", allocation.ptr);
    raise(ErrorKind::RuntimeError, std::string("invalid device pointer: ") + buf);
  }
  m.stats.allocated -= block->size;
  m.stats.active_blocks -= 1;
  // c10 records both before the block merges: no stream uses are modelled, so the free completes at once.
  m.emit(AllocatorAction::FreeRequested, block->addr, block->requested, block->stream, allocation.virtual_bytes);
  m.emit(AllocatorAction::FreeCompleted, block->addr, block->requested, block->stream, allocation.virtual_bytes);
  m.free_block(block);
  return {m.stats.allocated, m.stats.reserved};
}

void CachingDeviceAllocator::empty_cache() {
  Impl::ObserverFlush flush(*impl_);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->release_cached_blocks();
}

DeviceAllocatorStats CachingDeviceAllocator::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

void CachingDeviceAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stats.max_allocated = impl_->stats.allocated;
  impl_->stats.max_reserved = impl_->stats.reserved;
}

std::vector<AllocatorSegmentRecord> CachingDeviceAllocator::segment_records() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<AllocatorSegmentRecord> out;
  for (int v = 0; v < 2; ++v) {
    for (const auto& [addr, head] : impl_->segment_heads[v]) {
      AllocatorSegmentRecord seg;
      seg.address = addr;
      seg.stream = head->stream;
      seg.small_pool = head->pool->small;
      seg.virtual_bytes = v == 1;
      for (const Block* b = head; b; b = b->next) {
        seg.blocks.push_back({b->addr, b->size, b->allocated ? b->requested : 0, b->allocated, b->stream});
        seg.size += b->size;
      }
      out.push_back(std::move(seg));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const AllocatorSegmentRecord& a, const AllocatorSegmentRecord& b) {
    return a.address < b.address;
  });
  return out;
}

std::vector<SegmentInfo> CachingDeviceAllocator::segments() const {
  std::vector<SegmentInfo> out;
  for (const AllocatorSegmentRecord& r : segment_records()) {
    SegmentInfo seg;
    seg.device = impl_->device;
    seg.address = r.address;
    seg.size = r.size;
    seg.small_pool = r.small_pool;
    seg.virtual_bytes = r.virtual_bytes;
    for (const AllocatorSegmentRecord::Block& b : r.blocks) {
      BlockInfo info;
      info.address = b.address;
      info.size = b.size;
      info.allocated = b.allocated;
      info.stream = b.stream;
      seg.blocks.push_back(info);
    }
    out.push_back(std::move(seg));
  }
  return out;
}

void CachingDeviceAllocator::set_observer(AllocatorObserver observer) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->observer = std::move(observer);
  impl_->observing.store(bool(impl_->observer), std::memory_order_release);
  if (!impl_->observer) impl_->pending.clear();
}

}  // namespace ds
