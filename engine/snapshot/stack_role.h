// The role a snapshot names for a block's stack. DeviceScope's own snapshots put it in the owner frame's file
// name ("<devicescope parameter>"); PyTorch's snapshots carry none (memory_viz groups by source line only).
#pragma once

#include <optional>

#include "core/role.h"
#include "snapshot/memory_snapshot.h"

namespace ds::snapshot {

// The role of the first "<devicescope ROLE>" frame of `stack`; nullopt when the stack names none.
std::optional<Role> stack_role(const MemorySnapshot& s, StackId stack);

}  // namespace ds::snapshot
