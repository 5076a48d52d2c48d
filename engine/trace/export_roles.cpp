// export_storage_roles: Free events' roles, overridden by the live storages' roles.
#include "trace/export_roles.h"

namespace ds {

StorageRoles export_storage_roles(const std::deque<Event>& events, const StorageRoles& live) {
  StorageRoles out;
  for (const Event& e : events) {
    if (e.kind != EventKind::Alloc && e.kind != EventKind::Free) continue;
    // An Alloc only says the storage is in the file: its role comes with the tag, after the allocation.
    if (e.kind == EventKind::Free && e.role != Role::Tensor) out[e.storage_id] = e.role;
    if (auto it = live.find(e.storage_id); it != live.end()) {
      if (it->second == Role::Tensor) out.erase(e.storage_id);
      else out[e.storage_id] = it->second;
    }
  }
  return out;
}

}  // namespace ds
