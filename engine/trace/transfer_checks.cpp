// transfer_problem and UniqueIdCheck. Exports list transfers in id order (CSV) or lane order (Chrome
// trace), so duplicates are found by sorting, not hashing: a few hundred ms for millions of rows.
#include "trace/transfer_checks.h"

#include <algorithm>
#include <cmath>

namespace ds {

std::string transfer_problem(const TransferRecord& t) {
  if (!std::isfinite(t.measured_ns)) return "measured_ns is not a finite number";
  if (t.measured_ns < 0) return "measured_ns is negative";
  // start_ns/end_ns of a copy still in flight are not final (end_ns is 0), so only complete ones are held to this.
  if (t.complete && t.end_ns < t.start_ns)
    return "end_ns " + std::to_string(t.end_ns) + " is before start_ns " + std::to_string(t.start_ns);
  return {};
}

std::optional<UniqueIdCheck::Duplicate> UniqueIdCheck::find_duplicate() {
  const bool increasing =
      std::adjacent_find(ids_.begin(), ids_.end(), [](const auto& a, const auto& b) { return a.first >= b.first; }) ==
      ids_.end();
  if (increasing) return std::nullopt;
  std::sort(ids_.begin(), ids_.end());  // by id, then position
  std::optional<Duplicate> found;
  for (size_t i = 1; i < ids_.size(); ++i)
    if (ids_[i].first == ids_[i - 1].first && (!found || ids_[i].second < found->second))
      found = Duplicate{ids_[i].first, ids_[i - 1].second, ids_[i].second};
  return found;
}

}  // namespace ds
