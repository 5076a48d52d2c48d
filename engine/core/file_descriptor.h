// FileDescriptor: closes a POSIX file descriptor when it goes out of scope, so every early return
// and exception path of a reader closes its file.
#pragma once

#include <unistd.h>

namespace ds {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}  // -1 (a failed open) is held and never closed
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace ds
