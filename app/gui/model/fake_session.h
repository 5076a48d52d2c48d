// FakeSession: a stand-in code runner until the embedded Python runner exists. It understands a small
// Python subset (tensors, nn layers, .to/.cuda/.cpu/.half/.pin_memory, aliases, del, print) over the
// real engine Runtime, so the app shows real allocator segments and transfers. Also serves synthetic
// snapshots of any size for --bench-frames.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.h"
#include "gui/model/fake_values.h"
#include "gui/model/script_statements.h"
#include "gui/model/session.h"
#include "gui/model/synthetic_snapshot.h"
#include "runtime/runtime.h"

namespace ds::gui {

class FakeSession : public Session {
 public:
  explicit FakeSession(BackendOptions backend);
  // A session that only shows a synthetic picture (benchmarks); running code says so.
  static std::unique_ptr<FakeSession> synthetic(const SyntheticOptions& options);
  ~FakeSession() override;

  std::shared_ptr<const Snapshot> snapshot() override;
  uint64_t version() const override { return version_.load(); }
  void set_script(const std::string& code, bool appended_already_ran = false) override;
  RunOutcome run_script() override;
  RunOutcome step() override;
  RunOutcome step_back() override;
  void reset() override;
  RunOutcome run_line(const std::string& line) override;
  void interrupt() override { interrupt_.store(true); }
  int current_statement_line() const override;
  int statements_done() const override { return cursor_; }
  int statement_count() const override { return int(statements_.size()); }
  std::string describe() const override;
  std::deque<Event> events() override;

 private:
  struct Eval;  // the evaluator (fake_eval.cpp)
  friend struct Eval;

  RunOutcome run_statement(const std::string& text, int first_line, const std::string& file, bool quiet);
  void publish();  // builds names/roles/module tree, takes a snapshot, bumps the version
  void build_objects(ObjectGraph& graph, bool with_graph);  // roles/owners always; the graph when asked
  void tag_storages();

  BackendOptions backend_options_;
  std::shared_ptr<Runtime> runtime_;
  std::shared_ptr<const Snapshot> snapshot_;
  std::atomic<uint64_t> version_{0};
  std::atomic<bool> interrupt_{false};
  bool synthetic_ = false;

  std::string script_;
  std::vector<Statement> statements_;
  int cursor_ = 0;  // statements run

  // The namespace: insertion order kept (the names graph lists names the way the script made them).
  std::vector<std::pair<std::string, fake::ValuePtr>> globals_;
  std::string output_;  // print() output of the running statement
  std::string pending_target_;       // `x = ...`: the name new tensors are owned by
  std::string pending_module_path_;  // `model.to(...)`: the expression the method is called on
  std::map<uint64_t, std::string> previous_nodes_;  // node id -> label/device/target, for `changed`
};

}  // namespace ds::gui
