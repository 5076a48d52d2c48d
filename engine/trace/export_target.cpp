// resolve_export_target: stat() follows symlinks to learn what the path finally is; a dangling
// symlink is followed by hand, so `--csv link` creates the file the link points to (as `>` does).
#include "trace/export_target.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

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

}  // namespace

ExportTarget resolve_export_target(const std::string& path) {
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
    return {ExportTarget::How::ReplaceFile, file};
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
