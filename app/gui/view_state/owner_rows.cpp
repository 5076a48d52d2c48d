// Owner rows for the file view's table.
#include "gui/view_state/owner_rows.h"

#include <algorithm>
#include <map>

#include "core/format.h"
#include "gui/view_state/memory_layout.h"

namespace ds::gui {

std::string timeline_moment_text(const snapshot::MemoryTimeline& t, size_t b) {
  if (b >= t.x.size()) return "";
  if (t.timed) return format_duration(double(t.x[b] - t.x.front()) * 1000.0);
  return "entry " + std::to_string(b < t.entries.size() ? t.entries[b] : 0);
}

std::vector<OwnerRow> owner_rows(const Snapshot& snap, const std::vector<snapshot::MemoryTimeline>* timelines) {
  std::map<std::pair<std::string, std::string>, OwnerRow> by;
  for (const StorageInfo& s : snap.storages) {
    const std::string place = s.place.str();
    OwnerRow& r = by[{display_name(s), place}];
    r.owner = display_name(s);
    r.place = place;
    r.bytes += s.block_bytes ? s.block_bytes : s.nbytes;
    ++r.blocks;
  }
  std::vector<OwnerRow> rows;
  for (auto& [key, r] : by) {
    if (timelines)
      for (const snapshot::MemoryTimeline& t : *timelines) {
        if (r.place != "cuda:" + std::to_string(t.device)) continue;
        const auto c = std::find(t.categories.begin(), t.categories.end(), r.owner);
        if (c == t.categories.end() || size_t(c - t.categories.begin()) >= t.bytes.size()) continue;
        const std::vector<uint64_t>& series = t.bytes[size_t(c - t.categories.begin())];
        for (size_t b = 0; b < series.size(); ++b)
          if (series[b]) {
            if (r.first < 0) r.first = int64_t(b);
            r.last = int64_t(b);
          }
        if (r.first >= 0) {
          r.first_text = timeline_moment_text(t, size_t(r.first));
          r.last_text = timeline_moment_text(t, size_t(r.last));
        }
      }
    rows.push_back(std::move(r));
  }
  sort_owner_rows(rows, OwnerColumn::Bytes, false);
  return rows;
}

void sort_owner_rows(std::vector<OwnerRow>& rows, OwnerColumn by, bool ascending) {
  auto key_less = [by](const OwnerRow& a, const OwnerRow& b) {
    switch (by) {
      case OwnerColumn::Owner: return a.owner < b.owner;
      case OwnerColumn::Place: return a.place < b.place;
      case OwnerColumn::Bytes: return a.bytes < b.bytes;
      case OwnerColumn::Blocks: return a.blocks < b.blocks;
      case OwnerColumn::First: return a.first < b.first;
      case OwnerColumn::Last: return a.last < b.last;
    }
    return false;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const OwnerRow& a, const OwnerRow& b) {
    if (key_less(a, b)) return ascending;
    if (key_less(b, a)) return !ascending;
    return a.owner < b.owner;  // ties in a stable, readable order
  });
}

}  // namespace ds::gui
