// HostMemoryBudget: one atomic counter against physical RAM (Note [Host memory budget]).
#include "core/host_memory.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace ds {
namespace {

// Requests from this size on are also compared with MemAvailable (RAM other processes hold is not ours to
// count on): reading /proc/meminfo costs ~15 us, little next to touching 16 MiB (~2 ms), and smaller
// requests are too small to matter before a larger one is refused.
constexpr uint64_t kCheckAvailableFrom = 16ull << 20;

}  // namespace

HostMemoryBudget::HostMemoryBudget(uint64_t limit)
    : limit_(limit ? limit : physical_bytes()), check_available_(limit == 0) {}

uint64_t HostMemoryBudget::physical_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : ~0ull;
}

uint64_t HostMemoryBudget::available_bytes() {
  FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return ~0ull;
  char line[256];
  unsigned long long kb = 0;
  bool found = false;
  while (!found && std::fgets(line, sizeof line, f))
    found = std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
  std::fclose(f);
  return found ? uint64_t(kb) * 1024 : ~0ull;
}

bool HostMemoryBudget::try_take(uint64_t bytes) {
  if (bytes > limit_) return false;
  if (check_available_ && bytes >= kCheckAvailableFrom && bytes > available_bytes()) return false;
  uint64_t used = in_use_.load(std::memory_order_relaxed);
  do {
    if (used > limit_ - bytes) return false;
  } while (!in_use_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void HostMemoryBudget::take(uint64_t bytes) { in_use_.fetch_add(bytes, std::memory_order_relaxed); }

void HostMemoryBudget::give_back(uint64_t bytes) { in_use_.fetch_sub(bytes, std::memory_order_relaxed); }

}  // namespace ds
