// The names graph of an opened file (a recording or a PyTorch snapshot runs no script, so no names graph comes
// from Python): one Name node per distinct owner of a live storage ("model.fc.weight", "x", a snapshot's
// "train.py:42 step"), an edge to one node per storage it names (kind from the storage's role: Parameter,
// Buffer or Tensor; storage_id set), and StorageHolders {id, {owner}}. The Names view lists these like a script's
// names; a storage without an owner gets none.
#pragma once

#include "trace/snapshot.h"

namespace ds::gui {

// Fills picture.objects (replacing what was there) and each named storage's `holders` from the storages' owners.
void publish_owner_names(Snapshot& picture);

}  // namespace ds::gui
