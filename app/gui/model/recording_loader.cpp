// RecordingLoader: one worker thread per load; the result crosses back under a mutex.
#include "gui/model/recording_loader.h"

#include <algorithm>
#include <filesystem>

#include "trace/load_trace.h"

namespace ds::gui {

std::shared_ptr<Snapshot> recording_snapshot(const TraceMeta& meta, const std::deque<TransferRecord>& transfers) {
  auto s = std::make_shared<Snapshot>();
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

RecordingLoader::~RecordingLoader() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

bool RecordingLoader::start(const std::string& path, bool held) {
  if (busy_) return false;
  if (worker_.joinable()) worker_.join();  // a finished load whose result was taken
  path_ = path;
  // A fresh progress per load: the previous worker may still hold (and write) the old one.
  progress_ = std::make_shared<LoadProgress>();
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);  // the bar's total before the loader opens it
  if (!ec) progress_->bytes_total = size;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ = held;
    done_ = false;
    result_ = LoadResult{};
  }
  busy_ = true;
  worker_ = std::thread(&RecordingLoader::work, this, path, progress_);
  return true;
}

void RecordingLoader::cancel() {
  progress_->cancel = true;
  release();
}

void RecordingLoader::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = false;
  changed_.notify_all();
}

void RecordingLoader::work(std::string path, std::shared_ptr<LoadProgress> progress) {
  LoadResult r;
  r.path = path;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !held_; });
  }
  try {
    if (progress->cancel) throw LoadCancelled(path);
    LoadedTrace t = load_trace(path, progress.get());
    r.meta = t.meta;
    std::shared_ptr<Snapshot> recording = recording_snapshot(t.meta, t.transfers);
    t.transfers.clear();  // half the memory back before the models are built
    if (progress->cancel) throw LoadCancelled(path);
    r.models = std::make_shared<TransferModels>();
    r.models->build(*recording);
    r.recording = std::move(recording);
  } catch (const LoadCancelled&) {
    r.cancelled = true;
  } catch (const std::exception& e) {
    r.error = e.what();
  } catch (...) {  // nothing may escape a thread: std::terminate would take the whole app down
    r.error = path + ": unexpected error while loading";
  }
  std::lock_guard<std::mutex> lock(mutex_);
  result_ = std::move(r);
  done_ = true;
  changed_.notify_all();
}

std::optional<LoadResult> RecordingLoader::take_result() {
  if (!busy_) return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!done_) return std::nullopt;
  }
  worker_.join();
  busy_ = false;
  return std::move(result_);
}

void RecordingLoader::wait() {
  if (!busy_) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return done_; });
}

}  // namespace ds::gui
