// What changed between two moments, by owner: the allocations live at the first and not the second were
// freed, those live at the second and not the first were allocated (an allocation is the same one at both
// moments when its key matches: within one file, a snapshot's block by the trace entry that allocated it and a
// recording's storage by its id; across two files - two runs, whose ids and addresses mean nothing to each
// other - by allocation identity: place, owner, size and its order among that owner's allocations).
// A key also fixes the bytes, so per place b.live - a.live == allocated - freed. Copies made in between come as routes with byte totals. Recordings and PyTorch
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

struct PlaceChange {
  std::string place;
  uint64_t live_a = 0, live_b = 0, allocated = 0, freed = 0;
};

struct MomentDiff {
  std::vector<OwnerChange> owners;  // those that changed, the largest change first
  std::vector<PlaceChange> places;  // every place live at either moment, by name
  uint64_t total_a = 0, total_b = 0, allocated = 0, freed = 0;
  std::vector<RouteBytes> moved;    // copies in between (recordings), the most bytes first
};

MomentDiff diff_live(const std::vector<LiveAllocation>& a, const std::vector<LiveAllocation>& b);

// Keys for comparing two files: place, owner, bytes and the allocation's order among its owner's at that
// place. `live` must be in allocation order.
void key_by_allocation_identity(std::vector<LiveAllocation>& live);

// {allocated_bytes, freed_bytes, live_bytes_a, live_bytes_b, owners: [{owner, place, bytes_a, bytes_b,
// allocated, freed, blocks_allocated, blocks_freed}], places: [{place, live_bytes_a, live_bytes_b,
// allocated_bytes, freed_bytes}], moved: [{route, owner, bytes, copies}]}
nlohmann::json moment_diff_json(const MomentDiff& d);

}  // namespace ds
