// LogTotals: folds each record into the running totals as it is appended (O(1), a few places only).
#include "trace/log_totals.h"

#include <algorithm>

namespace ds {

void LogTotals::count_event(const Event& e) {
  ++events;
  const auto kind = size_t(e.kind);
  if (kind < by_kind.size()) ++by_kind[kind];
  if (e.kind != EventKind::Alloc && e.kind != EventKind::Free) return;
  auto it = std::find_if(places.begin(), places.end(), [&](const PlaceTotals& p) { return p.place == e.place; });
  if (it == places.end()) it = places.insert(places.end(), PlaceTotals{e.place});
  if (e.kind == EventKind::Alloc) {
    ++it->allocs;
    it->alloc_bytes += e.bytes;
  } else {
    ++it->frees;
    it->free_bytes += e.bytes;
  }
  it->peak_allocated = std::max(it->peak_allocated, e.allocated_after);
  it->peak_reserved = std::max(it->peak_reserved, e.reserved_after);
}

void LogTotals::count_transfer(const TransferRecord& t) {
  ++transfers;
  transfer_bytes += t.bytes;
}

const PlaceTotals* LogTotals::place(const Place& p) const {
  for (const PlaceTotals& t : places)
    if (t.place == p) return &t;
  return nullptr;
}

}  // namespace ds
