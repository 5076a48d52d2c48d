// SyntheticSession: the Session behind --bench-frames. It shows one synthetic picture of any size
// (make_synthetic_snapshot) and runs no code: every run/step/console call says so.
#pragma once

#include <memory>
#include <string>

#include "gui/model/session.h"
#include "gui/model/synthetic_snapshot.h"

namespace ds::gui {

class SyntheticSession : public Session {
 public:
  explicit SyntheticSession(const SyntheticOptions& options);

  std::shared_ptr<const Snapshot> snapshot() override { return snapshot_; }
  uint64_t version() const override { return 1; }
  void set_script(const std::string& code, bool appended_already_ran = false) override {}
  RunOutcome run_script() override { return refuse(); }
  RunOutcome step() override { return refuse(); }
  RunOutcome step_back() override { return refuse(); }
  void reset() override {}
  RunOutcome run_line(const std::string& line) override { return refuse(); }
  void interrupt() override {}
  int current_statement_line() const override { return 0; }
  int statements_done() const override { return 0; }
  int statement_count() const override { return 0; }
  std::string describe() const override { return "synthetic benchmark picture"; }
  std::deque<Event> events() override { return {}; }

 private:
  static RunOutcome refuse();
  std::shared_ptr<const Snapshot> snapshot_;
};

}  // namespace ds::gui
