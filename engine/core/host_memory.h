// HostMemoryBudget: the host RAM this process's tensors hold - pageable storages, and with the simulated
// backend its device and pinned memory too (simulated device memory is lazily-mapped host memory).
// Note [Host memory budget]: every real host-backed allocation takes from one budget checked in total against
// physical RAM, so that a script asking for more than the machine has gets an out-of-memory error at
// allocation instead of the kernel's OOM killer when the pages are touched (which would also lose the
// recording). Virtual storages hold no bytes and never take from it.
#pragma once

#include <atomic>
#include <cstdint>

namespace ds {

class HostMemoryBudget {
 public:
  // limit 0: the machine's physical RAM, and large requests are also checked against what the kernel
  // says is available now (other processes use RAM too). An explicit limit (tests) is the only check.
  explicit HostMemoryBudget(uint64_t limit = 0);

  bool try_take(uint64_t bytes);   // false, taking nothing, when it would not fit
  void take(uint64_t bytes);       // memory that already exists (numpy's buffer shared by from_numpy)
  void give_back(uint64_t bytes);
  uint64_t in_use() const { return in_use_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }

  static uint64_t physical_bytes();   // sysconf; ~0 when unknown
  static uint64_t available_bytes();  // /proc/meminfo MemAvailable; ~0 when unknown

 private:
  std::atomic<uint64_t> in_use_{0};
  uint64_t limit_;
  bool check_available_;
};

}  // namespace ds
