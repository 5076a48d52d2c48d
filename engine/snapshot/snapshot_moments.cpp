#include "snapshot/snapshot_moments.h"

#include <algorithm>
#include <limits>

#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"

namespace ds::snapshot {

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
    for (const LiveBlock& b : state_at(s, device, n).blocks) {
      const std::string owner = stack_owner(s, b.stack);
      std::string key = std::to_string(device) + ":" + std::to_string(b.address) + ":";
      key += same_file ? std::to_string(b.serial) : std::to_string(b.size) + ":" + owner;
      out.push_back({key, owner, "cuda:" + std::to_string(device), b.size});
    }
  }
  return out;
}

}  // namespace ds::snapshot
