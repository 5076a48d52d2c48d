// The worker thread behind Run / Step / Step back / Reset / console lines.
#include "gui/session_runner.h"

#include <algorithm>
#include <chrono>

#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"

namespace ds::gui {

const char* job_name(JobKind k) {
  switch (k) {
    case JobKind::RunScript: return "Run";
    case JobKind::Step: return "Step";
    case JobKind::StepBack: return "Step back";
    case JobKind::Reset: return "Reset";
    case JobKind::RunLine: return "Console";
    case JobKind::BuilderLine: return "Builder";
    case JobKind::ExportTrace: return "Export";
    case JobKind::SetScript: return "Load";
    case JobKind::Call: return "Lesson";
  }
  return "?";
}

SessionRunner::SessionRunner(std::unique_ptr<Session> session) : session_(std::move(session)) {
  publish();
  worker_ = std::thread([this] { loop(); });
}

SessionRunner::~SessionRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  session_->interrupt();
  wake_.notify_all();
  worker_.join();
}

bool SessionRunner::submit(Job job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (busy_.load() || pending_) return false;
  pending_ = std::move(job);
  busy_.store(true);
  wake_.notify_all();
  return true;
}

void SessionRunner::interrupt() { session_->interrupt(); }

void SessionRunner::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !busy_.load(); });
}

bool SessionRunner::wait_idle_for(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  return idle_.wait_for(lock, std::chrono::duration<double>(std::max(0.0, seconds)), [&] { return !busy_.load(); });
}

std::deque<FinishedJob> SessionRunner::take_finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::deque<FinishedJob> out;
  out.swap(finished_);
  return out;
}

std::shared_ptr<const Snapshot> SessionRunner::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return snapshot_;
}

SessionStatus SessionRunner::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void SessionRunner::publish() {
  std::shared_ptr<const Snapshot> snap = session_->snapshot();
  SessionStatus st{session_->current_statement_line(), session_->statements_done(), session_->statement_count(),
                   session_->describe()};
  std::lock_guard<std::mutex> lock(mutex_);
  snapshot_ = std::move(snap);
  status_ = std::move(st);
  version_.store(session_->version());
}

void SessionRunner::loop() {
  while (true) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return quit_ || pending_.has_value(); });
      if (quit_) return;
      job = std::move(*pending_);
      pending_.reset();
    }
    const auto t0 = std::chrono::steady_clock::now();
    RunOutcome outcome;
    try {
      if (job.script && job.kind != JobKind::BuilderLine) session_->set_script(*job.script, job.appended_already_ran);
      switch (job.kind) {
        case JobKind::RunScript: outcome = session_->run_script(); break;
        case JobKind::Step: outcome = session_->step(); break;
        case JobKind::StepBack: outcome = session_->step_back(); break;
        case JobKind::Reset: session_->reset(); break;
        case JobKind::RunLine: outcome = session_->run_line(job.line); break;
        case JobKind::BuilderLine:
          // Run the Builder's line first; only a line that ran joins the script (as already run).
          outcome = session_->run_line(job.line);
          if (outcome.ok && job.script) session_->set_script(*job.script, true);
          break;
        case JobKind::SetScript: break;
        case JobKind::Call:
          if (job.reset_first) session_->reset();
          outcome = session_->call_json(job.line, job.call_args);
          break;
        case JobKind::ExportTrace: {
          const std::deque<Event> events = session_->events();
          const std::shared_ptr<const Snapshot> snap = session_->snapshot();
          TraceMeta meta{snap->backend, snap->simulated, snap->link, job.meta_version, job.meta_machine,
                         snap->events_dropped, snap->transfers_dropped};
          const std::deque<TransferRecord> transfers(snap->transfers.begin(), snap->transfers.end());
          write_file_atomically(job.line, [&](std::ostream& out) { write_chrome_trace(events, transfers, meta, out); });
          outcome.output = "wrote " + job.line + "\n";
          break;
        }
      }
    } catch (const std::exception& e) {
      // A session must report errors in RunOutcome; anything escaping is still shown, never fatal.
      outcome.ok = false;
      outcome.error_type = "InternalError";
      outcome.error_message = e.what();
      outcome.traceback = std::string("InternalError: ") + e.what() + "\n";
    }
    publish();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_.push_back({std::move(job), std::move(outcome), secs});
      busy_.store(false);
    }
    idle_.notify_all();
  }
}

}  // namespace ds::gui
