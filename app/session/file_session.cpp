// FileSession: Open reads the file on the session's thread; what it read is then the picture.
#include "session/file_session.h"

#include <filesystem>
#include <fstream>

#include "session/pytorch_snapshot_session.h"
#include "session/rank_folder_session.h"
#include "session/recording_session.h"
#include "snapshot/memory_snapshot.h"

namespace ds::gui {

FileSession::FileSession(std::string path, bool held) : path_(std::move(path)), held_(held) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path_, ec);  // the bar's total before the reader opens it
  if (!ec) progress_->bytes_total = size;
  auto empty = std::make_shared<Snapshot>();
  empty->source.path = path_;
  picture_ = std::move(empty);
}

void FileSession::open() {
  start();
  Job job;
  job.kind = JobKind::Open;
  job.line = path_;
  submit(std::move(job));
}

void FileSession::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = false;
  released_.notify_all();
}

void FileSession::interrupt_job() {
  progress_->cancel = true;  // the reader stops within a MiB; a held read never starts
  release();
}

std::shared_ptr<TransferModels> FileSession::take_models() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(models_);
}

SessionStatus FileSession::current_status() {
  SessionStatus st;
  st.describe = std::string(kind()) + " " + path_ + " (" + std::to_string(picture_->transfers.size()) + " transfers, " +
                std::to_string(picture_->storages.size()) + " live blocks)";
  return st;
}

RunOutcome FileSession::run(Job& job) {
  switch (job.kind) {
    case JobKind::Open: return read_now();
    case JobKind::ExportTrace: return export_trace(job, {}, *picture_);
    default: return run_more(job);
  }
}

RunOutcome FileSession::run_more(Job& job) {
  return failed("RuntimeError",
                "the window shows " + path_ + ", which runs no code: close it (File > Close recording) to run code");
}

RunOutcome FileSession::read_now() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    released_.wait(lock, [&] { return !held_; });
  }
  try {
    if (progress_->cancel) throw LoadCancelled(path_);
    std::shared_ptr<const Snapshot> read_picture = read(*progress_);
    if (progress_->cancel) throw LoadCancelled(path_);
    auto models = std::make_shared<TransferModels>();
    models->build(*read_picture);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      models_ = std::move(models);
    }
    picture_ = std::move(read_picture);
    return {};
  } catch (const LoadCancelled& e) {
    RunOutcome o = failed("Cancelled", e.what());
    o.interrupted = true;
    return o;
  } catch (const std::exception& e) {
    return failed("RuntimeError", e.what());
  }
}

std::unique_ptr<FileSession> open_file_session(const std::string& path, bool held) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::make_unique<RankFolderSession>(path, held);
  // Only a regular file is sniffed (opening a FIFO would block here): the readers refuse the rest.
  if (!std::filesystem::is_regular_file(path, ec)) return std::make_unique<RecordingSession>(path, held);
  char head[64] = {};  // as inspect reads: a protocol-0 GLOBAL head names its module within these
  std::ifstream in(path, std::ios::binary);
  in.read(head, sizeof head);
  if (snapshot::looks_like_pickle(std::string_view(head, size_t(in.gcount()))))
    return std::make_unique<PyTorchSnapshotSession>(path, held);
  return std::make_unique<RecordingSession>(path, held);
}

}  // namespace ds::gui
