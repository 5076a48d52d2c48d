// Note [Allocator node reuse]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The caching allocator's bookkeeping is node-based (the free-block sets and the Block objects themselves;
// live blocks are in an open-addressing table, Note [Live block map]), and a small op's allocate + free makes
// and drops a few nodes: the split remainder, and its set entry where it cannot take the block's (Note [Set
// entry reuse]). On a simulated device that bookkeeping is most of what an op
// costs beyond Python, so each container keeps the nodes it gave back for its next insert instead of going
// through malloc each time. Only where the bookkeeping's memory comes from changes: blocks, sizes, order and
// every figure are the same. Not thread-safe by itself: the allocator's mutex guards its containers.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

namespace ds {

// The nodes one container gave back. All of one size: the first single-object allocation fixes it, and
// anything else (a hash table's bucket array) goes to operator new as usual.
class NodeCache {
 public:
  static constexpr size_t kMaxKept = 4096;  // beyond this many idle nodes, give memory back
  NodeCache() = default;
  NodeCache(const NodeCache&) = delete;
  NodeCache& operator=(const NodeCache&) = delete;
  ~NodeCache() {
    for (void* p : free_) ::operator delete(p);
  }

  void* take(size_t bytes) {
    if (size_ == 0) size_ = bytes;
    if (bytes == size_ && !free_.empty()) {
      void* p = free_.back();
      free_.pop_back();
      return p;
    }
    return ::operator new(bytes);
  }
  void give(void* p, size_t bytes) {
    if (bytes == size_ && free_.size() < kMaxKept) {
      free_.push_back(p);
      return;
    }
    ::operator delete(p);
  }

 private:
  size_t size_ = 0;
  std::vector<void*> free_;
};

// A standard allocator over a NodeCache (null: plain operator new/delete). Single objects go through the
// cache; arrays do not.
template <class T>
struct CachedNodes {
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;

  NodeCache* cache = nullptr;

  CachedNodes() = default;
  explicit CachedNodes(NodeCache* c) : cache(c) {}
  template <class U>
  CachedNodes(const CachedNodes<U>& other) : cache(other.cache) {}

  T* allocate(size_t n) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned nodes are not cached");
    if (n == 1 && cache) return static_cast<T*>(cache->take(sizeof(T)));
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n == 1 && cache) cache->give(p, sizeof(T));
    else ::operator delete(p);
  }
  template <class U>
  bool operator==(const CachedNodes<U>& other) const {
    return cache == other.cache;
  }
  template <class U>
  bool operator!=(const CachedNodes<U>& other) const {
    return cache != other.cache;
  }
};

}  // namespace ds
