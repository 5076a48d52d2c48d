// RecordingSession: a recording opened from a file (a Chrome trace JSON or a transfers CSV that
// `devicescope run --trace/--csv` or the app wrote) as a session of its own, the way Tracy builds its
// worker from a file instead of a socket. Its first job (Open) reads the file on the session's thread with
// progress and Cancel, then publishes the recording as its picture; it runs no code.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "gui/model/transfer_models.h"
#include "session/session.h"
#include "trace/export_chrome_trace.h"

namespace ds::gui {

class RecordingSession : public Session {
 public:
  // Starts reading `path` at once. `held`: the read waits for release() (screenshots of the loading state).
  explicit RecordingSession(std::string path, bool held = false);
  ~RecordingSession() override;  // cancels a read still going

  const std::string& path() const { return path_; }
  bool runs_code() const override { return false; }
  const LoadProgress* load_progress() const override { return progress_.get(); }
  void release();
  // The Transfers view's models of the picture, built on the session's thread after the read (seconds for
  // millions of copies); handed over once, null before or after.
  std::shared_ptr<TransferModels> take_models();

 protected:
  RunOutcome run(Job& job) override;
  std::shared_ptr<const Snapshot> picture() override { return picture_; }
  SessionStatus current_status() override;
  void interrupt_job() override;

 private:
  RunOutcome open();

  std::string path_;
  std::shared_ptr<LoadProgress> progress_ = std::make_shared<LoadProgress>();
  std::shared_ptr<const Snapshot> picture_;
  std::mutex mutex_;  // guards held_ and models_
  std::condition_variable released_;
  bool held_ = false;
  std::shared_ptr<TransferModels> models_;
};

// The picture of a loaded recording: its transfers, backend and link, and where it came from (time_ns
// is the end of the last copy; a windowed recording keeps its note).
std::shared_ptr<Snapshot> recording_snapshot(const std::string& path, const TraceMeta& meta,
                                             const std::deque<TransferRecord>& transfers);

}  // namespace ds::gui
