// FileSession: a file opened for viewing, as a session of its own (Tracy builds its worker from a file the
// way it does from a socket). Its first job (Open) reads the file on the session's thread with progress and
// Cancel, then publishes what it read as its picture; it runs no code. Kinds: RecordingSession (a DeviceScope
// recording), PyTorchSnapshotSession (a PyTorch memory snapshot), RankFolderSession (a folder of per-rank
// recordings); open_file_session() picks one by content.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gui/view_state/transfer_models.h"
#include "session/session.h"
#include "snapshot/memory_timeline.h"

namespace ds::gui {

class FileSession : public Session {
 public:
  const std::string& path() const { return path_; }
  virtual const char* kind() const = 0;  // "recording", "PyTorch memory snapshot"
  bool runs_code() const override { return false; }
  const LoadProgress* load_progress() const override { return progress_.get(); }
  // A held read (screenshots of the loading state) starts now.
  void release();
  // The Transfers view's models of the picture, built on the session's thread after the read (seconds for
  // millions of copies); handed over once, null before or after.
  std::shared_ptr<TransferModels> take_models();
  // Active memory over time per device, when the file has an allocator trace (null otherwise). The
  // Seek job (Job::line: a time in the file's units, "" for the end) sets the picture to that moment.
  virtual std::shared_ptr<const std::vector<snapshot::MemoryTimeline>> memory_timelines() const { return nullptr; }

 protected:
  // `held`: the read waits for release(). Derived constructors call open() last.
  FileSession(std::string path, bool held);
  void open();  // starts the worker and queues the Open job
  // On the worker: reads the file (honouring progress.cancel: throws LoadCancelled) and returns its
  // picture; throws with the reader's message when the file is refused.
  virtual std::shared_ptr<const Snapshot> read(LoadProgress& progress) = 0;
  // Jobs other than Open and ExportTrace (Seek); refused unless a kind handles them.
  virtual RunOutcome run_more(Job& job);
  void set_picture(std::shared_ptr<const Snapshot> picture) { picture_ = std::move(picture); }

  RunOutcome run(Job& job) override;
  std::shared_ptr<const Snapshot> picture() override { return picture_; }
  SessionStatus current_status() override;
  void interrupt_job() override;

 private:
  RunOutcome read_now();

  std::string path_;
  std::shared_ptr<LoadProgress> progress_ = std::make_shared<LoadProgress>();
  std::shared_ptr<const Snapshot> picture_;
  std::mutex mutex_;  // guards held_ and models_
  std::condition_variable released_;
  bool held_ = false;
  std::shared_ptr<TransferModels> models_;
};

// A DeviceScope recording (Chrome trace JSON or transfers CSV) or a PyTorch memory snapshot (pickle), by the
// file's first bytes, or a folder of per-rank recordings; the read starts at once.
std::unique_ptr<FileSession> open_file_session(const std::string& path, bool held = false);

}  // namespace ds::gui
