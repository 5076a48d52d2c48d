// Checks the loaders make on every transfer read back, beyond the file's syntax: a recording with
// two transfers of the same id, a copy that ends before it starts, or a NaN timing is refused rather
// than shown as nonsense ("18446744073709.710 s").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trace/records.h"

namespace ds {

// What is wrong with one transfer ("end_ns 5 is before start_ns 10"), or "" when nothing is.
std::string transfer_problem(const TransferRecord& t);

// Collects (id, where) pairs; `where` is the caller's position (a line, an event index).
class UniqueIdCheck {
 public:
  void add(uint64_t id, size_t where) { ids_.emplace_back(id, where); }
  struct Duplicate {
    uint64_t id;
    size_t first, second;  // the two positions, in file order
  };
  // The duplicate whose second occurrence comes first in the file; nullopt when every id differs.
  std::optional<Duplicate> find_duplicate();

 private:
  std::vector<std::pair<uint64_t, size_t>> ids_;
};

}  // namespace ds
