// resolve_export_target: stat() follows symlinks to learn what the path finally is; a dangling
// symlink is followed by hand, so `--csv link` creates the file the link points to (as `>` does).
#include "trace/export_target.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/errors.h"

namespace ds {
namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& why) {
  raise(ErrorKind::RuntimeError, "cannot write " + path + ": " + why);
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The file a chain of symlinks ends at, when that file does not exist yet.
std::string follow_dangling_links(const std::string& path) {
  std::string at = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(at.c_str(), buf, sizeof buf - 1);
    if (n < 0) cannot_write(path, std::strerror(errno));
    const std::string target(buf, size_t(n));
    at = target[0] == '/' ? target : directory_of(at) + "/" + target;
  }
  cannot_write(path, std::strerror(ELOOP));
}

// N when `link` names one of this process's descriptors: /dev/fd/N, /proc/self/fd/N, /proc/<our pid>/fd/N
// (and /dev/stdout, /dev/stderr, which are links to /proc/self/fd/1 and 2). -1 otherwise.
int own_descriptor(const std::string& link) {
  if (link == "/dev/stdout") return 1;
  if (link == "/dev/stderr") return 2;
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                    "/proc/" + std::to_string(::getpid()) + "/fd/"}) {
    if (link.compare(0, prefix.size(), prefix) != 0 || link.size() == prefix.size()) continue;
    const std::string n = link.substr(prefix.size());
    if (n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoi(n);
  }
  return -1;
}

// Follows the chain of symlinks from `path` (as written, not resolved: /dev/stdout's target is the file
// itself) looking for one of our own descriptors; -1 when the chain has none.
int own_descriptor_on_the_way(const std::string& path) {
  std::string at = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (const int fd = own_descriptor(at); fd >= 0) return fd;
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return -1;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(at.c_str(), buf, sizeof buf - 1);
    if (n <= 0) return -1;
    const std::string target(buf, size_t(n));
    at = target[0] == '/' ? target : directory_of(at) + "/" + target;
  }
  return -1;
}

}  // namespace

ExportTarget resolve_export_target(const std::string& path) {
  if (const int fd = own_descriptor_on_the_way(path); fd >= 0) {
    if (::fcntl(fd, F_GETFD) < 0) cannot_write(path, std::strerror(EBADF));
    ExportTarget t;
    t.how = ExportTarget::How::OwnDescriptor;
    t.fd = fd;
    return t;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) cannot_write(path, std::strerror(errno));
    return {ExportTarget::How::ReplaceFile, follow_dangling_links(path)};
  }
  if (S_ISREG(st.st_mode)) {
    // The temporary must sit beside the real file for rename() to replace it (and not the link).
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real) cannot_write(path, std::strerror(errno));
    std::string file(real);
    std::free(real);
    // Through a symlink, or with other names: rewritten in place, so every name keeps seeing the export.
    struct stat link {};
    const bool through_link = ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
    return {through_link || st.st_nlink > 1 ? ExportTarget::How::WriteInPlace : ExportTarget::How::ReplaceFile, file};
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {ExportTarget::How::WriteThrough, path};
  if (S_ISDIR(st.st_mode)) cannot_write(path, std::strerror(EISDIR));
  cannot_write(path, std::string("not a regular file, FIFO or character device (") +
                         (S_ISSOCK(st.st_mode) ? "a socket" : S_ISBLK(st.st_mode) ? "a block device" : "unknown type") +
                         "); exports are only written to files");
}

std::string absolute_export_path(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.string();
}

}  // namespace ds
