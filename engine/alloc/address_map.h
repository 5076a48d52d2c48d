// Note [Live block map]
// ~~~~~~~~~~~~~~~~~~~~~
// The caching allocator finds a freed pointer's block by address (c10 keeps an ska::flat_hash_set of live
// blocks for the same purpose). std::unordered_map did it with a node per entry and a 64-bit division per
// lookup (its prime bucket count), on every allocate and every free: on a simulated device, a small op's
// largest bookkeeping cost after the free-block set. This is an open-addressing table instead: a power-of-two
// array probed linearly from a multiplicative (Fibonacci) hash of the address, removal by backward shift (no
// tombstones), at most half full. Address 0 marks an empty slot (the allocator never hands out a null block).
// Only how entries are found changes: which block a pointer names is the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ds {

template <class V>
class AddressMap {
 public:
  // The value stored under `addr`, or V{} when there is none.
  V find(uintptr_t addr) const {
    if (slots_.empty()) return V{};
    for (size_t i = home(addr);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.addr == addr) return s.value;
      if (s.addr == 0) return V{};
    }
  }

  // Stores `value` under `addr` (non-zero), replacing any value there.
  void insert(uintptr_t addr, V value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = home(addr);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.addr == addr) {
        s.value = value;
        return;
      }
      if (s.addr == 0) {
        s.addr = addr;
        s.value = value;
        ++size_;
        return;
      }
    }
  }

  // Removes `addr`; returns its value, or V{} when it was not there.
  V erase(uintptr_t addr) {
    if (slots_.empty()) return V{};
    size_t i = home(addr);
    while (slots_[i].addr != addr) {
      if (slots_[i].addr == 0) return V{};
      i = (i + 1) & mask_;
    }
    const V value = slots_[i].value;
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].addr == 0) break;
      const size_t h = home(slots_[j].addr);
      // Entry j may move to i when i lies cyclically within [h, j).
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
    return value;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uintptr_t addr = 0;
    V value{};
  };

  size_t home(uintptr_t addr) const {
    return size_t((uint64_t(addr) * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;  // the top log2(capacity) bits of the product
    size_ = 0;
    for (const Slot& s : old)
      if (s.addr != 0) insert(s.addr, s.value);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t size_ = 0;
};

}  // namespace ds
