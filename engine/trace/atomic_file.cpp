// write_file_atomically: temp file + fsync + rename, with a small streambuf over the file descriptor
// so the whole export is streamed (a million-transfer trace is hundreds of MB; no copy in memory).
#include "trace/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <streambuf>
#include <vector>

#include "core/errors.h"
#include "trace/export_target.h"
#include "trace/temporary_files.h"

namespace ds {
namespace {

// Output streambuf onto a file descriptor; remembers the first errno so the caller can report it.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 20) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int error() const { return error_; }
  bool flush_all() { return drain() && error_ == 0; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    size_t left = size_t(pptr() - pbase());
    while (left > 0 && error_ == 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        break;
      }
      p += n;
      left -= size_t(n);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }

  int fd_;
  std::vector<char> buf_;
  int error_ = 0;
};

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string& path, int err) {
  raise(ErrorKind::RuntimeError, "cannot write " + path + ": " + std::strerror(err));
}

// Streams `write` into `fd`; returns the first errno (0 when all went out). Exceptions from `write` pass.
int stream_into(int fd, const std::function<void(std::ostream&)>& write) {
  FdBuf buf(fd);
  std::ostream os(&buf);
  write(os);
  os.flush();
  return buf.flush_all() ? 0 : buf.error();
}

// Streams the export into `fd` and closes it; an error of either step fails naming `path`.
void stream_and_close(const std::string& path, int fd, const std::function<void(std::ostream&)>& write) {
  int err = 0;
  try {
    err = stream_into(fd, write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) fail(path, err);
}

// A FIFO or character device: written in place, as a shell's `>` would (no temporary can replace it).
void write_through(const std::string& path, const std::function<void(std::ostream&)>& write) {
  // O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging the export.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENXIO) raise(ErrorKind::RuntimeError, "cannot write " + path + ": no process is reading the FIFO");
    fail(path, errno);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // then wait for a slow reader like any writer
  stream_and_close(path, fd, write);
}

// One of this process's own descriptors (`--csv /dev/stdout`): written through a duplicate, so the export
// follows what was printed there (same offset; a file stdout was redirected to is never replaced).
void write_to_descriptor(const std::string& path, int target_fd, const std::function<void(std::ostream&)>& write) {
  std::fflush(nullptr);  // what this process printed comes first (std::cout is synced with stdio)
  const int fd = ::fcntl(target_fd, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) fail(path, errno);
  stream_and_close(path, fd, write);
}

// Copies the complete export from `temp_fd` over `file`'s own content: the same inode, so a symlink's target
// and a file with other hard links stay one file (what editors do). Not atomic for readers; the export was
// complete before the file was touched, so a failing export never leaves it truncated.
int copy_in_place(int temp_fd, const std::string& file) {
  if (::lseek(temp_fd, 0, SEEK_SET) != 0) return errno;
  const int out = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (out < 0) return errno;
  std::vector<char> buf(1 << 20);
  int err = 0;
  for (;;) {
    const ssize_t n = ::read(temp_fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    for (ssize_t done = 0; done < n && err == 0;) {
      const ssize_t w = ::write(out, buf.data() + done, size_t(n - done));
      if (w < 0 && errno != EINTR) err = errno;
      if (w > 0) done += w;
    }
    if (err != 0) break;
  }
  if (err == 0 && ::fsync(out) != 0) err = errno;
  if (::close(out) != 0 && err == 0) err = errno;
  return err;
}

void replace_file(const std::string& path, const std::string& file, bool in_place,
                  const std::function<void(std::ostream&)>& write) {
  static std::atomic<unsigned> counter{0};
  remove_stale_temporaries(file);
  // O_EXCL with a name unique to this process and call; the mode is filtered by the umask.
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temp = temporary_name(file, counter++);
    fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt > 100)) fail(path, errno);
  }
  const TemporaryFileGuard guard(temp);  // a SIGTERM from here on removes the temporary
  struct stat old {};
  if (::stat(file.c_str(), &old) == 0 && S_ISREG(old.st_mode)) ::fchmod(fd, old.st_mode & 07777);

  auto abandon = [&] {
    ::close(fd);
    ::unlink(temp.c_str());
  };
  int err = 0;
  try {
    err = stream_into(fd, write);
  } catch (...) {
    abandon();
    throw;
  }
  if (err == 0 && !in_place && ::fsync(fd) != 0) err = errno;
  if (err == 0 && in_place) err = copy_in_place(fd, file);
  if (err != 0) {
    abandon();
    fail(path, err);
  }
  if (in_place) {
    abandon();  // the temporary has served
    return;
  }
  if (::close(fd) != 0) {
    err = errno;
    ::unlink(temp.c_str());
    fail(path, err);
  }
  if (::rename(temp.c_str(), file.c_str()) != 0) {
    err = errno;
    ::unlink(temp.c_str());
    fail(path, err);
  }
  // Make the rename itself durable; failing here does not undo a complete write.
  const int dir = ::open(directory_of(file).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const ExportTarget target = resolve_export_target(path);
  switch (target.how) {
    case ExportTarget::How::WriteThrough: return write_through(path, write);
    case ExportTarget::How::OwnDescriptor: return write_to_descriptor(path, target.fd, write);
    case ExportTarget::How::WriteInPlace: return replace_file(path, target.file, true, write);
    case ExportTarget::How::ReplaceFile: return replace_file(path, target.file, false, write);
  }
}

}  // namespace ds
