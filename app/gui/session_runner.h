// Runs Session calls on a worker thread so the UI never freezes; publishes the latest snapshot and the
// outcome of each job for the UI thread to pick up. Stop calls Session::interrupt() from the UI thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "gui/model/session.h"

namespace ds::gui {

enum class JobKind { RunScript, Step, StepBack, Reset, RunLine, BuilderLine, SetScript, ExportTrace, Call };
const char* job_name(JobKind k);  // "Run", "Step", ...

struct Job {
  JobKind kind = JobKind::Step;
  std::optional<std::string> script;  // set_script() first with this text
  bool appended_already_ran = false;
  std::string line;                   // RunLine / BuilderLine: the code; ExportTrace: the path
  std::string meta_version;           // ExportTrace: DeviceScope version written into the file
  std::string meta_machine;
  std::string call_args;              // Call: Session::call_json(line, call_args)
  bool reset_first = false;           // Call: Session::reset() before the call
  int tag = -1;                       // the submitter's own id for the job (lesson calls)
};

struct FinishedJob {
  Job job;
  RunOutcome outcome;
  double seconds = 0;
};

// What the session says about its cursor, copied after each job.
struct SessionStatus {
  int current_line = 0, statements_done = 0, statement_count = 0;
  std::string describe;
};

class SessionRunner {
 public:
  explicit SessionRunner(std::unique_ptr<Session> session);
  ~SessionRunner();

  // False (nothing queued) while another job runs.
  bool submit(Job job);
  bool busy() const { return busy_.load(); }
  void interrupt();
  // Blocks until the worker is idle (headless screenshots).
  void wait_idle();
  // The same for at most `seconds`; false when the worker is still busy then.
  bool wait_idle_for(double seconds);

  std::deque<FinishedJob> take_finished();
  std::shared_ptr<const Snapshot> snapshot() const;
  uint64_t version() const { return version_.load(); }
  SessionStatus status() const;

 private:
  void loop();
  void publish();

  std::unique_ptr<Session> session_;
  std::thread worker_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::optional<Job> pending_;
  std::deque<FinishedJob> finished_;
  std::shared_ptr<const Snapshot> snapshot_;
  SessionStatus status_;
  std::atomic<uint64_t> version_{0};
  std::atomic<bool> busy_{false};
  bool quit_ = false;
};

}  // namespace ds::gui
