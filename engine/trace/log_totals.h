// Exact running totals of everything an EventLog has recorded, including the records that have left its
// in-memory window: what a long recording still knows about its beginning (counts, bytes, peaks).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "trace/records.h"

namespace ds {

// Per place (pageable, pinned, cuda:N): allocations and frees seen, and the peaks of the allocator
// figures the Alloc/Free events carry.
struct PlaceTotals {
  Place place;
  uint64_t allocs = 0;
  uint64_t frees = 0;
  uint64_t alloc_bytes = 0;
  uint64_t free_bytes = 0;
  uint64_t peak_allocated = 0;
  uint64_t peak_reserved = 0;
};

inline constexpr size_t kEventKindCount = 8;  // EventKind's enumerators

struct LogTotals {
  uint64_t events = 0;              // appended since the log started (or was cleared)
  uint64_t events_dropped = 0;      // the oldest ones, no longer in events()
  uint64_t transfers = 0;
  uint64_t transfers_dropped = 0;   // the oldest ones, no longer in transfers()
  uint64_t transfer_bytes = 0;      // over every transfer
  uint64_t dropped_transfer_bytes = 0;
  std::array<uint64_t, kEventKindCount> by_kind{};  // indexed by EventKind
  std::vector<PlaceTotals> places;  // in order of first appearance

  void count_event(const Event& e);
  void count_transfer(const TransferRecord& t);
  const PlaceTotals* place(const Place& p) const;
  bool windowed() const { return events_dropped > 0 || transfers_dropped > 0; }
};

}  // namespace ds
