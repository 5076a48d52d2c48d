// The names a recording written by `devicescope run --trace/--csv` gives its storages and copies.
//
// Note [Names in exports]
// While a script runs, a storage's owner is what the torch package tagged it with (`weight`, `conv1.weight`,
// `Adam.state[0].exp_avg`, a cuBLAS workspace) and a copy's owner is the hint of the moment (`conv1.weight`
// while `Net().to(device)` moves it: the model has no variable name yet). The window and _dump_snapshot name a
// live storage after what the script's names reach it by ("model.conv1.weight", "model.fc.weight.grad",
// "x"): pick_owner_name() below, over the names graph's holders. An export names every storage the same way,
// once, and writes that one name into each of its events (alloc and free) and copies, so a storage keeps its
// name across moments (before: every alloc was unnamed, as the tag came after the allocation):
// 1. a storage live at the export: pick_owner_name(its tag, its holders);
// 2. a freed one: the last tag it had, qualified by the live names (`conv1.weight` -> `model.conv1.weight`
//    when exactly one live name ends with `.conv1.weight`; `conv1.weight.grad` through `conv1.weight`);
// 3. a gradient (a storage the torch package noted as made for a parameter's storage): that storage's name
//    + ".grad", so gradients freed by zero_grad(set_to_none=True) before the export are named too;
// 4. still unnamed: the (qualified) owner of a copy that wrote it.
// A copy is named after its destination or source when their name is its owner qualified (or it has none),
// else its owner, qualified.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/records.h"

namespace ds {

// A storage live when the export is written: its tag (Storage::owner()) and the names holding it.
struct LiveStorageName {
  uint64_t id = 0;
  std::string tag;
  std::vector<std::string> holders;
};

// The name a user calls a storage by: the holder that is its tag qualified ("weight" -> "model.fc.weight"),
// else its tag, else its first holder. The one rule: _dump_snapshot's owner frames (bindings_cuda_memory_history.cpp)
// call it too, so a snapshot and an export name a storage alike.
std::string pick_owner_name(const std::string& tag, const std::vector<std::string>& holders);

// storage id -> its one name (Note [Names in exports]); storages with no name are left out.
// gradient_of: gradient storage id -> the storage id of the parameter it was made for.
std::unordered_map<uint64_t, std::string> export_storage_names(
    const std::vector<LiveStorageName>& live, const std::deque<Event>& events,
    const std::deque<TransferRecord>& transfers, const std::unordered_map<uint64_t, uint64_t>& gradient_of = {});

// Writes the names in: every alloc/free event of a named storage carries its name, every copy (and its
// copy events) the name of what it carried.
void apply_export_names(const std::unordered_map<uint64_t, std::string>& names, std::deque<Event>& events,
                        std::deque<TransferRecord>& transfers);

}  // namespace ds
