// write_file_atomically where a rename would split a file from its names: through a symlink, with other
// hard links, and into this process's own descriptor (/dev/fd/N, /proc/self/fd/N, as /dev/stdout is).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "trace/atomic_file.h"
#include "trace_fixtures.h"

namespace {

ino_t inode(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_ino;
}

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST(ExportInPlace, SymlinkTargetKeepsItsInode) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("real.csv"), "an older and longer content\n");
  const ino_t before = inode(dir.file("real.csv"));
  ASSERT_EQ(::symlink("real.csv", dir.file("link.csv").c_str()), 0);
  ds::write_file_atomically(dir.file("link.csv"), [](std::ostream& os) { os << "new"; });
  EXPECT_EQ(trace_test::read_text(dir.file("real.csv")), "new");  // truncated to the new length
  EXPECT_EQ(inode(dir.file("real.csv")), before);
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"link.csv", "real.csv"}));  // no temporary left
}

TEST(ExportInPlace, HardLinkedFileStaysOneFile) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("a.csv"), "old");
  ASSERT_EQ(::link(dir.file("a.csv").c_str(), dir.file("b.csv").c_str()), 0);
  ds::write_file_atomically(dir.file("a.csv"), [](std::ostream& os) { os << "new"; });
  EXPECT_EQ(trace_test::read_text(dir.file("b.csv")), "new");
  EXPECT_EQ(inode(dir.file("a.csv")), inode(dir.file("b.csv")));
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"a.csv", "b.csv"}));
}

TEST(ExportInPlace, PlainFileIsStillReplacedAtomically) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("r.csv"), "old");
  const ino_t before = inode(dir.file("r.csv"));
  ds::write_file_atomically(dir.file("r.csv"), [](std::ostream& os) { os << "new"; });
  EXPECT_EQ(trace_test::read_text(dir.file("r.csv")), "new");
  EXPECT_NE(inode(dir.file("r.csv")), before);  // the rename: readers never see half a file
}

TEST(ExportInPlace, AFailingExportLeavesTheLinkedFileAlone) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("real.csv"), "kept");
  ASSERT_EQ(::symlink("real.csv", dir.file("link.csv").c_str()), 0);
  EXPECT_THROW(ds::write_file_atomically(dir.file("link.csv"),
                                         [](std::ostream& os) {
                                           os << "half";
                                           throw std::runtime_error("writer failed");
                                         }),
               std::runtime_error);
  EXPECT_EQ(trace_test::read_text(dir.file("real.csv")), "kept");
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"link.csv", "real.csv"}));
}

// What `--csv /dev/stdout > out.txt` does: the descriptor is written through, after what it already got.
TEST(ExportInPlace, OwnDescriptorToAFileIsWrittenThroughAfterWhatWasPrinted) {
  trace_test::TempDir dir;
  const std::string file = dir.file("out.txt");
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    const ino_t before = inode(file);
    ASSERT_EQ(::write(fd, "printed\n", 8), 8);
    ds::write_file_atomically(prefix + std::to_string(fd), [](std::ostream& os) { os << "export\n"; });
    ASSERT_EQ(::write(fd, "more\n", 5), 5);  // the shared offset moved past the export
    ::close(fd);
    EXPECT_EQ(trace_test::read_text(file), "printed\nexport\nmore\n") << prefix;
    EXPECT_EQ(inode(file), before) << prefix;
    EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"out.txt"}) << prefix;
  }
}
