// Names of event kinds (Chrome trace exports; the loader reads them back). Roles are named in core/role.h.
#include "trace/records.h"

namespace ds {

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::Alloc: return "alloc";
    case EventKind::Free: return "free";
    case EventKind::Copy: return "copy";
    case EventKind::CopyDone: return "copy-done";
    case EventKind::ModuleMoveBegin: return "module-move-begin";
    case EventKind::ModuleMoveEnd: return "module-move-end";
    case EventKind::Sync: return "sync";
    case EventKind::Note: return "note";
  }
  return "unknown";
}

}  // namespace ds
