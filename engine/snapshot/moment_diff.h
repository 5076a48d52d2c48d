// What changed between two moments, by owner: the allocations live at the first and not the second were
// freed, those live at the second and not the first were allocated (an allocation is the same one at both
// moments when its key matches: a snapshot's block by the trace entry that allocated it, a recording's
// storage by its id). Copies made in between come as routes with byte totals. Recordings and PyTorch
// snapshots both reduce to lists of LiveAllocation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ds {

struct LiveAllocation {
  std::string key;    // identity across the two moments
  std::string owner;  // "model.fc.weight", "train.py:42 step", "<unnamed>"
  std::string place;  // "cuda:0", "pinned", ...
  uint64_t bytes = 0;
};

struct OwnerChange {
  std::string owner, place;
  uint64_t bytes_a = 0, bytes_b = 0;   // live at each moment
  uint64_t allocated = 0, freed = 0;   // allocations made / released in between (still live at B / live at A)
  uint64_t blocks_allocated = 0, blocks_freed = 0;
};

struct RouteBytes {
  std::string route;  // "pageable -> cuda:0"
  std::string owner;
  uint64_t bytes = 0, copies = 0;
};

struct MomentDiff {
  std::vector<OwnerChange> owners;  // those that changed, the largest change first
  uint64_t total_a = 0, total_b = 0, allocated = 0, freed = 0;
  std::vector<RouteBytes> moved;    // copies in between (recordings), the most bytes first
};

MomentDiff diff_live(const std::vector<LiveAllocation>& a, const std::vector<LiveAllocation>& b);

// {allocated_bytes, freed_bytes, live_bytes_a, live_bytes_b, owners: [{owner, place, bytes_a, bytes_b,
// allocated, freed, blocks_allocated, blocks_freed}], moved: [{route, owner, bytes, copies}]}
nlohmann::json moment_diff_json(const MomentDiff& d);

}  // namespace ds
