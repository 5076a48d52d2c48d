#include "snapshot/snapshot_moments.h"

#include <algorithm>
#include <limits>

#include "core/errors.h"
#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"

namespace ds::snapshot {

size_t longest_trace(const MemorySnapshot& s) {
  size_t n = 0;
  for (const TraceEntries& t : s.device_traces) n = std::max(n, t.size());
  return n;
}

void check_moment(const MemorySnapshot& s, char unit, int64_t value, const std::string& name) {
  if (unit != 'e') return;
  const std::string what = name + "@e:" + std::to_string(value);
  if (value < 0) raise(ErrorKind::ValueError, what + ": a moment counts trace entries done, from e:0 (before the first); it cannot be negative");
  const size_t n = longest_trace(s);
  if (uint64_t(value) > n)
    raise(ErrorKind::ValueError, what + ": past the end of the trace, which has " + std::to_string(n) +
                                     " entries on its longest device (e:0 .. e:" + std::to_string(n) + ")");
}

std::vector<size_t> entries_at(const MemorySnapshot& s, char unit, int64_t value) {
  if (unit == 't') return entries_at_time(s, value);
  std::vector<size_t> out;
  for (const TraceEntries& t : s.device_traces)
    out.push_back(unit == 'e' ? std::min(t.size(), size_t(std::max<int64_t>(value, 0))) : t.size());
  return out;
}

std::vector<LiveAllocation> live_allocations(const MemorySnapshot& s, char unit, int64_t value, bool same_file) {
  const std::vector<size_t> entries = entries_at(s, unit, value);
  std::vector<LiveAllocation> out;
  for (int device : snapshot_devices(s)) {
    const size_t n = device >= 0 && size_t(device) < entries.size() ? entries[size_t(device)]
                                                                      : std::numeric_limits<size_t>::max();
    std::vector<LiveBlock> blocks = state_at(s, device, n).blocks;
    // Allocation order: those from before the trace (by address), then by the entry that made them.
    std::stable_sort(blocks.begin(), blocks.end(), [](const LiveBlock& a, const LiveBlock& b) { return a.serial < b.serial; });
    const std::string place = "cuda:" + std::to_string(device);
    std::vector<LiveAllocation> here;
    for (const LiveBlock& b : blocks) {
      if (b.state != BlockState::ActiveAllocated) continue;  // awaiting free: no longer allocated (PyTorch's count)
      const std::string key = std::to_string(device) + ":" + std::to_string(b.address) + ":" + std::to_string(b.serial);
      here.push_back({key, stack_owner(s, b.stack), place, b.size});
    }
    if (!same_file) key_by_allocation_identity(here);
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

}  // namespace ds::snapshot
