// The app's code runner: gui::Session over the embedded CPython interpreter (python::PythonSession),
// so everything the app shows comes from real Python running DeviceScope's torch package.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "gui/model/session.h"
#include "python/python_session.h"

namespace ds::gui {

class PythonGuiSession : public Session {
 public:
  // Construct and destroy on the same thread (CPython's rule); the other calls come from the worker.
  explicit PythonGuiSession(RuntimeOptions runtime);
  ~PythonGuiSession() override;

  std::shared_ptr<const Snapshot> snapshot() override;
  uint64_t version() const override { return version_.load(); }
  void set_script(const std::string& code, bool appended_already_ran = false) override;
  RunOutcome run_script() override;
  RunOutcome step() override;
  RunOutcome step_back() override;
  void reset() override;
  RunOutcome run_line(const std::string& line) override;
  void interrupt() override;
  int current_statement_line() const override;
  int statements_done() const override;
  int statement_count() const override;
  std::string describe() const override;
  std::deque<Event> events() override;
  RunOutcome call_json(const std::string& function, const std::string& json_args) override;

 private:
  RunOutcome outcome(const python::RunResult& r);  // + the output captured since the last call
  void publish();                                  // a new snapshot from the runtime, version bumped
  std::vector<std::string> statement_texts() const;
  void load_script(const std::string& code, bool appended_already_ran);
  RunOutcome run_all();

  // CPython wants one thread to create, use and finalize the interpreter: every Python call runs on
  // this session's own thread (`python_thread_`), whatever thread the app calls from.
  void on_python_thread(const std::function<void()>& work);
  void python_loop();

  std::unique_ptr<python::PythonSession> py_;
  std::thread python_thread_;
  std::mutex tasks_mutex_;
  std::condition_variable tasks_cv_;
  std::deque<std::function<void()>> tasks_;
  bool quit_ = false;
  std::string script_;
  std::mutex output_mutex_;
  std::string output_;  // what the code printed since the last outcome
  std::shared_ptr<const Snapshot> snapshot_;
  std::atomic<uint64_t> version_{0};
};

}  // namespace ds::gui
