// Reading a whole file into memory for the loaders, safely: only regular files are read (a FIFO or
// a device would block or never end), with read(2) rather than mmap (a file that shrinks while it is
// read must give an error, not SIGBUS), and the first bytes are shown to a sniffer before the rest
// is read (a 2 GB file that is not a recording is refused at once, without reading it).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "trace/load_progress.h"

namespace ds {

struct FileBytes {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  const char* begin() const { return data ? data.get() : ""; }
};

// How much of the file the sniffer sees (less when the file is smaller).
inline constexpr size_t kSniffBytes = 64 * 1024;

// Sees the file's first min(size, kSniffBytes) bytes and its full size; throws to refuse the file.
using FileSniffer = std::function<void(std::string_view head, size_t file_size)>;

// Raises RuntimeError "cannot read <path>: <why>" when the path is missing, unreadable, not a
// regular file ("Is a directory", "not a regular file (a FIFO)") or changes size while it is read,
// and LoadCancelled when progress->cancel is set. `progress` may be null.
FileBytes read_recording_file(const std::string& path, const FileSniffer& sniff, LoadProgress* progress);

// For parsers: at(offset) publishes LoadProgress::bytes_done and checks `cancel`, doing real work
// only once per MiB parsed so that calling it for every row costs nothing measurable.
class ParseProgress {
 public:
  ParseProgress(LoadProgress* progress, const std::string& name, size_t base = 0)
      : progress_(progress), name_(name), base_(base) {}
  void at(size_t offset) {
    if (progress_ && offset >= next_) publish(offset);
  }
  void publish(size_t offset) {
    if (!progress_) return;
    next_ = offset + (1 << 20);
    progress_->bytes_done = base_ + offset;
    if (progress_->cancel.load()) throw LoadCancelled(name_);
  }

 private:
  LoadProgress* progress_;
  const std::string& name_;
  size_t base_;
  size_t next_ = 0;
};

}  // namespace ds
