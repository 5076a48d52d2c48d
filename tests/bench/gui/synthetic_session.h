// SyntheticSession: the session behind the frame benchmark (bench_gui_frames). It shows one synthetic
// picture of any size (make_synthetic_snapshot) and runs no code: every job says so.
#pragma once

#include <memory>

#include "gui/view_state/synthetic_snapshot.h"
#include "session/session.h"

namespace ds::gui {

class SyntheticSession : public Session {
 public:
  explicit SyntheticSession(const SyntheticOptions& options);
  ~SyntheticSession() override { stop(); }
  bool runs_code() const override { return false; }

 protected:
  RunOutcome run(Job& job) override;
  std::shared_ptr<const Snapshot> picture() override { return picture_; }
  SessionStatus current_status() override { return {0, 0, 0, "synthetic benchmark picture"}; }
  void interrupt_job() override {}

 private:
  std::shared_ptr<const Snapshot> picture_;
};

}  // namespace ds::gui
