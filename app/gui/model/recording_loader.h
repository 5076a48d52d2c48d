// Opening a recording (Chrome trace JSON or transfers CSV) on a worker thread, so that the window
// stays responsive while a large file loads: the GUI reads progress() each frame for its progress
// bar, cancel() is its Cancel button, and take_result() hands over the finished recording (or the
// loader's message) exactly once. No ImGui here: test_gui_model drives it directly.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "trace/export_chrome_trace.h"
#include "trace/load_progress.h"
#include "gui/model/transfer_models.h"
#include "trace/snapshot.h"

namespace ds::gui {

struct LoadResult {
  std::string path;
  std::shared_ptr<const Snapshot> recording;  // null when the load failed or was cancelled
  std::shared_ptr<TransferModels> models;     // the Transfers view's models of `recording`
  TraceMeta meta;
  std::string error;                          // the loader's message ("" on success)
  bool cancelled = false;                     // cancel() ended it: not an error to show
};

class RecordingLoader {
 public:
  RecordingLoader() = default;
  RecordingLoader(const RecordingLoader&) = delete;
  RecordingLoader& operator=(const RecordingLoader&) = delete;
  ~RecordingLoader();  // cancels a running load and waits for its thread

  // Starts loading `path`; false (nothing started) while another load runs. `held`: the worker waits
  // before reading anything until release() or cancel(), so a screenshot can show the loading state.
  bool start(const std::string& path, bool held = false);
  bool busy() const { return busy_; }  // started and its result not yet taken
  const std::string& path() const { return path_; }
  const LoadProgress& progress() const { return *progress_; }
  void cancel();
  void release();
  // The finished load, once; nullopt while it runs (or when nothing was started).
  std::optional<LoadResult> take_result();
  // Blocks until the worker is done (headless runs); take_result() then has the result.
  void wait();

 private:
  void work(std::string path, std::shared_ptr<LoadProgress> progress);

  std::string path_;
  std::shared_ptr<LoadProgress> progress_ = std::make_shared<LoadProgress>();
  std::thread worker_;
  bool busy_ = false;
  std::mutex mutex_;  // guards the members below
  std::condition_variable changed_;
  bool held_ = false, done_ = false;
  LoadResult result_;
};

// The Transfers view's snapshot of a loaded recording (its transfers, backend and link; time_ns is
// the end of the last copy).
std::shared_ptr<Snapshot> recording_snapshot(const TraceMeta& meta, const std::deque<TransferRecord>& transfers);

}  // namespace ds::gui
