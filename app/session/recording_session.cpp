// RecordingSession: Open reads the file on the session's thread; the recording is then its picture.
#include "session/recording_session.h"

#include <algorithm>
#include <filesystem>

#include "trace/load_trace.h"

namespace ds::gui {

std::shared_ptr<Snapshot> recording_snapshot(const std::string& path, const TraceMeta& meta,
                                             const std::deque<TransferRecord>& transfers) {
  auto s = std::make_shared<Snapshot>();
  s->source = {path, meta.version, meta.machine};
  s->backend = meta.backend;
  s->simulated = meta.simulated;
  s->link = meta.link;
  s->transfers.assign(transfers.begin(), transfers.end());
  for (const TransferRecord& r : s->transfers) s->time_ns = std::max(s->time_ns, r.end_ns);
  // A windowed recording (Note [Bounded event log]): the Transfers view shows WINDOWED with this note.
  s->events_dropped = meta.events_dropped;
  s->transfers_dropped = meta.transfers_dropped;
  if (meta.events_dropped || meta.transfers_dropped)
    s->window_note = "windowed recording: the run's first " + std::to_string(meta.events_dropped) + " events and " +
                     std::to_string(meta.transfers_dropped) + " transfers were dropped before it was written";
  return s;
}

RecordingSession::RecordingSession(std::string path, bool held) : path_(std::move(path)), held_(held) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path_, ec);  // the bar's total before the reader opens it
  if (!ec) progress_->bytes_total = size;
  auto empty = std::make_shared<Snapshot>();
  empty->source.path = path_;
  picture_ = std::move(empty);
  start();
  Job open;
  open.kind = JobKind::Open;
  open.line = path_;
  submit(std::move(open));
}

RecordingSession::~RecordingSession() { stop(); }

void RecordingSession::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = false;
  released_.notify_all();
}

void RecordingSession::interrupt_job() {
  progress_->cancel = true;  // the reader stops within a MiB; a held read never starts
  release();
}

std::shared_ptr<TransferModels> RecordingSession::take_models() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(models_);
}

SessionStatus RecordingSession::current_status() {
  SessionStatus st;
  st.describe = "recording " + path_ + " (" + std::to_string(picture_->transfers.size()) + " transfers)";
  return st;
}

RunOutcome RecordingSession::run(Job& job) {
  switch (job.kind) {
    case JobKind::Open: return open();
    case JobKind::ExportTrace: return export_trace(job, {}, *picture_);
    default:
      return failed("RuntimeError", "the window shows the recording " + path_ +
                                        ", which runs no code: close it (File > Close recording) to run code");
  }
}

RunOutcome RecordingSession::open() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    released_.wait(lock, [&] { return !held_; });
  }
  try {
    if (progress_->cancel) throw LoadCancelled(path_);
    LoadedTrace t = load_trace(path_, progress_.get());
    std::shared_ptr<Snapshot> recording = recording_snapshot(path_, t.meta, t.transfers);
    t.transfers.clear();  // half the memory back before the models are built
    if (progress_->cancel) throw LoadCancelled(path_);
    auto models = std::make_shared<TransferModels>();
    models->build(*recording);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      models_ = std::move(models);
    }
    picture_ = std::move(recording);
    return {};
  } catch (const LoadCancelled& e) {
    RunOutcome o = failed("Cancelled", e.what());
    o.interrupted = true;
    return o;
  } catch (const std::exception& e) {
    return failed("RuntimeError", e.what());
  }
}

}  // namespace ds::gui
