// The roles an export writes for its storages (the "storage_roles" object `devicescope record` writes too),
// so that an opened `devicescope run --trace` file is coloured by role as the live window was.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "core/role.h"
#include "trace/records.h"

namespace ds {

using StorageRoles = std::unordered_map<uint64_t, Role>;

// storage id -> role for every storage the events allocate or free: a freed storage keeps the role it had when
// freed (its Free event's), a storage live at the export the role it has now (`live`, which wins). Tensor roles
// are left out (what a reader assumes for a storage it has no role for).
StorageRoles export_storage_roles(const std::deque<Event>& events, const StorageRoles& live);

}  // namespace ds
