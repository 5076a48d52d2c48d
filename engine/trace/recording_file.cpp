// read_recording_file: open without blocking, refuse what is not a regular file, sniff, then read.
#include "trace/recording_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "core/errors.h"
#include "core/file_descriptor.h"

namespace ds {
namespace {

[[noreturn]] void cannot_read(const std::string& path, const std::string& why) {
  raise(ErrorKind::RuntimeError, "cannot read " + path + ": " + why);
}

const char* file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

// Reads up to `want` bytes at `out`; fewer only at the end of the file.
size_t read_fully(int fd, char* out, size_t want, const std::string& path) {
  size_t got = 0;
  while (got < want) {
    const ssize_t n = ::read(fd, out + got, want - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      cannot_read(path, std::strerror(errno));
    }
    if (n == 0) break;
    got += size_t(n);
  }
  return got;
}

}  // namespace

FileBytes read_recording_file(const std::string& path, const FileSniffer& sniff, LoadProgress* progress) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) cannot_read(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) cannot_read(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) cannot_read(path, std::strerror(EISDIR));
  if (!S_ISREG(st.st_mode)) cannot_read(path, std::string("not a regular file (") + file_type_name(st.st_mode) + ")");
  // Back to blocking reads (regular files never block, but some network file systems honour the flag).
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);

  const size_t size = size_t(st.st_size);
  if (progress) progress->bytes_total = size;
  auto check_cancel = [&] {
    if (progress && progress->cancel.load()) throw LoadCancelled(path);
  };
  auto shrank = [&](size_t got) {
    cannot_read(path, "the file changed while it was read (" + std::to_string(size) + " bytes when opened, only " +
                          std::to_string(got) + " could be read)");
  };
  check_cancel();

  FileBytes out;
  out.size = size;
  if (size == 0) {
    if (sniff) sniff({}, 0);
    return out;
  }
  // The head goes to the sniffer before the (possibly huge) buffer for the whole file is allocated.
  char head[kSniffBytes];
  const size_t head_size = std::min(size, kSniffBytes);
  const size_t head_got = read_fully(fd.get(), head, head_size, path);
  if (head_got < head_size) shrank(head_got);
  if (sniff) sniff(std::string_view(head, head_size), size);

  try {
    out.data = std::make_unique_for_overwrite<char[]>(size);
  } catch (const std::bad_alloc&) {
    cannot_read(path, "not enough memory to load a file of " + std::to_string(size) + " bytes");
  }
  std::memcpy(out.data.get(), head, head_size);
  size_t got = head_size;
  if (progress) progress->bytes_read = got;
  constexpr size_t kChunk = 1 << 20;  // cancel and progress are looked at once per chunk
  while (got < size) {
    check_cancel();
    const size_t want = std::min(kChunk, size - got);
    const size_t n = read_fully(fd.get(), out.data.get() + got, want, path);
    got += n;
    if (progress) progress->bytes_read = got;
    if (n < want) shrank(got);
  }
  check_cancel();
  return out;
}

}  // namespace ds
