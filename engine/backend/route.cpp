// Names of copy routes, as the transfer view, CSV and Chrome trace print them.
#include "backend/backend.h"

namespace ds {

const char* route_name(Route r) {
  switch (r) {
    case Route::Direct: return "direct";
    case Route::StagedPinned: return "staged-pinned";
    case Route::Peer: return "peer";
  }
  return "direct";
}

}  // namespace ds
