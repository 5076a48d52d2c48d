// Session: the worker thread, the one-job queue and the published picture every implementation shares.
#include "session/session.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>

#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_roles.h"

namespace ds::gui {

RunOutcome failed(const std::string& type, const std::string& message) {
  RunOutcome o;
  o.ok = false;
  o.error_type = type;
  o.error_message = message;
  o.traceback = type + ": " + message + "\n";
  return o;
}

const char* job_name(JobKind k) {
  switch (k) {
    case JobKind::Open: return "Open";
    case JobKind::RunScript: return "Run";
    case JobKind::Step: return "Step";
    case JobKind::StepBack: return "Step back";
    case JobKind::Reset: return "Reset";
    case JobKind::RunLine: return "Console";
    case JobKind::BuilderLine: return "Builder";
    case JobKind::ExportTrace: return "Export";
    case JobKind::SetScript: return "Load";
    case JobKind::Call: return "Lesson";
    case JobKind::Seek: return "Seek";
  }
  return "?";
}

Session::~Session() {
  // A derived destructor that forgot stop() would leave the worker calling into a half-destroyed object.
  if (worker_.joinable()) std::terminate();
}

void Session::start() {
  std::promise<void> started;
  worker_ = std::thread([this, &started] {
    try {
      on_worker_start();
      publish();
      started.set_value();
    } catch (...) {
      started.set_exception(std::current_exception());
      return;
    }
    loop();
    on_worker_end();
  });
  try {
    started.get_future().get();
  } catch (...) {
    worker_.join();
    throw;
  }
}

void Session::stop() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  interrupt_job();
  wake_.notify_all();
  worker_.join();
}

bool Session::submit(Job job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (busy_.load() || pending_ || quit_) return false;
  pending_ = std::move(job);
  submitted_.fetch_add(1);
  busy_.store(true);
  wake_.notify_all();
  return true;
}

void Session::interrupt() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (busy_.load()) interrupted_.store(submitted_.load());  // marked before the job is told (see the header)
  }
  interrupt_job();
}

bool Session::interrupt_requested() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_.load() && interrupted_.load() == submitted_.load();
}

void Session::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !busy_.load(); });
}

bool Session::wait_idle_for(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  return idle_.wait_for(lock, std::chrono::duration<double>(std::max(0.0, seconds)), [&] { return !busy_.load(); });
}

std::deque<FinishedJob> Session::take_finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::deque<FinishedJob> out;
  out.swap(finished_);
  return out;
}

std::shared_ptr<const Snapshot> Session::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return snapshot_;
}

SessionStatus Session::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void Session::publish() {
  std::shared_ptr<const Snapshot> snap = picture();
  SessionStatus st = current_status();
  std::lock_guard<std::mutex> lock(mutex_);
  snapshot_ = std::move(snap);
  status_ = std::move(st);
}

void Session::loop() {
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
      outcome = run(job);
    } catch (const std::exception& e) {
      // A session reports errors in RunOutcome; anything escaping is still shown, never fatal.
      outcome = failed("InternalError", e.what());
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

RunOutcome export_trace(const Job& job, const std::deque<Event>& events, const Snapshot& picture) {
  // An opened recording keeps what its writer said about itself; a live session is this DeviceScope.
  const bool opened = !picture.source.path.empty();
  const TraceMeta meta{picture.backend,
                       picture.simulated,
                       picture.link,
                       opened ? picture.source.version : job.meta_version,
                       opened ? picture.source.machine : job.meta_machine,
                       picture.events_dropped,
                       picture.transfers_dropped};
  const std::deque<TransferRecord> transfers(picture.transfers.begin(), picture.transfers.end());
  StorageRoles live_roles;  // the roles the window colours by, kept in the file (Memory view of an opened trace)
  for (const StorageInfo& s : picture.storages) live_roles[s.id] = s.role;
  const StorageRoles roles = export_storage_roles(events, live_roles);
  write_file_atomically(job.line, [&](std::ostream& out) { write_chrome_trace(events, transfers, meta, out, roles); });
  RunOutcome o;
  o.output = "wrote " + job.line + "\n";
  return o;
}

}  // namespace ds::gui
