// write_file_atomically on what is not a plain file: a symlink is followed (the link stays), a FIFO or
// character device is written through (never replaced by a regular file), anything else is refused.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace/export_target.h"
#include "trace_fixtures.h"

namespace {

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

mode_t type_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & S_IFMT;
}

std::string write_error(const std::string& path) {
  try {
    ds::write_file_atomically(path, [](std::ostream& os) { os << "data"; });
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::RuntimeError));
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST(ExportTarget, SymlinkIsFollowedAndStaysALink) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("real.csv"), "old");
  ASSERT_EQ(::symlink("real.csv", dir.file("link.csv").c_str()), 0);
  ds::write_file_atomically(dir.file("link.csv"), [](std::ostream& os) { os << "new"; });
  EXPECT_EQ(type_of(dir.file("link.csv")), mode_t(S_IFLNK));
  EXPECT_EQ(trace_test::read_text(dir.file("real.csv")), "new");
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"link.csv", "real.csv"}));
}

TEST(ExportTarget, SymlinkToAnotherDirectoryWritesBesideTheTarget) {
  trace_test::TempDir links, data;
  trace_test::write_text(data.file("run.json"), "old");
  ASSERT_EQ(::symlink(data.file("run.json").c_str(), links.file("latest.json").c_str()), 0);
  ds::write_file_atomically(links.file("latest.json"), [](std::ostream& os) { os << "new"; });
  EXPECT_EQ(type_of(links.file("latest.json")), mode_t(S_IFLNK));
  EXPECT_EQ(trace_test::read_text(data.file("run.json")), "new");
  EXPECT_EQ(listing(links.path()), std::vector<std::string>{"latest.json"});
  EXPECT_EQ(listing(data.path()), std::vector<std::string>{"run.json"});
}

TEST(ExportTarget, DanglingSymlinkCreatesItsTarget) {
  trace_test::TempDir dir;
  ASSERT_EQ(::symlink("made.csv", dir.file("link.csv").c_str()), 0);
  ds::write_file_atomically(dir.file("link.csv"), [](std::ostream& os) { os << "made"; });
  EXPECT_EQ(type_of(dir.file("link.csv")), mode_t(S_IFLNK));
  EXPECT_EQ(trace_test::read_text(dir.file("made.csv")), "made");
}

TEST(ExportTarget, FifoIsWrittenThroughNotReplaced) {
  trace_test::TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader first (non-blocking open), and less than a pipe buffer of data, so nothing waits.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  ds::write_file_atomically(fifo, [](std::ostream& os) { os << "through the pipe\n"; });
  char buf[64] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf);
  ::close(reader);
  EXPECT_EQ(std::string(buf, size_t(std::max<ssize_t>(n, 0))), "through the pipe\n");
  EXPECT_EQ(type_of(fifo), mode_t(S_IFIFO));
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"pipe"});
}

TEST(ExportTarget, FifoWithoutReaderIsRefusedAtOnce) {
  trace_test::TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(write_error(fifo), "cannot write " + fifo + ": no process is reading the FIFO");
  EXPECT_EQ(type_of(fifo), mode_t(S_IFIFO));
}

TEST(ExportTarget, CharacterDeviceIsWrittenThrough) {
  // As root the old code renamed a regular file over /dev/null.
  ds::write_file_atomically("/dev/null", [](std::ostream& os) { os << std::string(3 << 20, 'x'); });
  EXPECT_EQ(type_of("/dev/null"), mode_t(S_IFCHR));
  if (::access("/dev/full", W_OK) == 0)  // a device's own error comes back as the export's
    EXPECT_EQ(write_error("/dev/full"), "cannot write /dev/full: No space left on device");
}

TEST(ExportTarget, OtherKindsOfFileAreRefused) {
  trace_test::TempDir dir;
  std::filesystem::create_directory(dir.file("folder"));
  EXPECT_EQ(write_error(dir.file("folder")), "cannot write " + dir.file("folder") + ": Is a directory");
  const std::string sock = dir.file("sock");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(write_error(sock),
            "cannot write " + sock + ": not a regular file, FIFO or character device (a socket); exports are only "
            "written to files");
  ::close(fd);
  EXPECT_EQ(type_of(sock), mode_t(S_IFSOCK));
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"folder", "sock"}));
}

TEST(ExportTarget, RelativePathsBecomeAbsolute) {
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(ds::absolute_export_path("r.csv"), cwd + "/r.csv");
  EXPECT_EQ(ds::absolute_export_path("out/r.json"), cwd + "/out/r.json");
  EXPECT_EQ(ds::absolute_export_path("/tmp/r.csv"), "/tmp/r.csv");
  EXPECT_EQ(ds::absolute_export_path(""), "");  // "no export" stays "no export"
}
