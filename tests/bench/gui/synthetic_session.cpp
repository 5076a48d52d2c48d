#include "synthetic_session.h"

namespace ds::gui {

SyntheticSession::SyntheticSession(const SyntheticOptions& options)
    : picture_(std::make_shared<const Snapshot>(make_synthetic_snapshot(options))) {
  start();
}

RunOutcome SyntheticSession::run(Job& job) {
  if (job.kind == JobKind::SetScript) return {};  // the app hands every session its editor text
  return failed("RuntimeError", "this window shows a synthetic benchmark picture; it runs no code");
}

}  // namespace ds::gui
