#include "gui/model/synthetic_session.h"

namespace ds::gui {

SyntheticSession::SyntheticSession(const SyntheticOptions& options)
    : snapshot_(std::make_shared<const Snapshot>(make_synthetic_snapshot(options))) {}

RunOutcome SyntheticSession::refuse() {
  RunOutcome out;
  out.ok = false;
  out.error_type = "RuntimeError";
  out.error_message = "this window shows a synthetic benchmark picture; it runs no code";
  out.traceback = out.error_type + ": " + out.error_message + "\n";
  return out;
}

}  // namespace ds::gui
