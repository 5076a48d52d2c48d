// Display names of roles and event kinds (legend, CSV/JSON exports; the loader reads them back).
#include "trace/records.h"
#include "trace/snapshot.h"

namespace ds {

const char* role_name(Role r) {
  switch (r) {
    case Role::Tensor: return "tensor";
    case Role::Parameter: return "parameter";
    case Role::Buffer: return "buffer";
    case Role::Gradient: return "gradient";
    case Role::PlainAttribute: return "plain-attribute";
    case Role::OptimizerState: return "optimizer-state";
    case Role::Activation: return "activation";
    case Role::PinnedStaging: return "pinned-staging";
  }
  return "unknown";
}

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
