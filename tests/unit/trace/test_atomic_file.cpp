// write_file_atomically: complete files only, no temporaries left behind, old content kept on failure.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <stdexcept>

#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace_fixtures.h"

namespace {
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}
}  // namespace

TEST(AtomicFile, WritesAndReplaces) {
  trace_test::TempDir dir;
  const std::string p = dir.file("out.csv");
  ds::write_file_atomically(p, [](std::ostream& os) { os << "first\n"; });
  EXPECT_EQ(trace_test::read_text(p), "first\n");
  ds::write_file_atomically(p, [](std::ostream& os) { os << "second"; });
  EXPECT_EQ(trace_test::read_text(p), "second");
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(AtomicFile, LargeOutputIsComplete) {
  trace_test::TempDir dir;
  const std::string p = dir.file("big.txt");
  ds::write_file_atomically(p, [](std::ostream& os) {
    for (int i = 0; i < 500000; ++i) os << i << '\n';
  });
  const std::string text = trace_test::read_text(p);
  EXPECT_EQ(text.substr(text.size() - 7), "499999\n");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 500000);
}

TEST(AtomicFile, WriterExceptionKeepsOldContent) {
  trace_test::TempDir dir;
  const std::string p = dir.file("keep.json");
  trace_test::write_text(p, "old content");
  EXPECT_THROW(ds::write_file_atomically(p,
                                         [](std::ostream& os) {
                                           os << std::string(3 << 20, 'x');  // already partly on disk
                                           throw std::runtime_error("exporter failed");
                                         }),
               std::runtime_error);
  EXPECT_EQ(trace_test::read_text(p), "old content");
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"keep.json"});
}

TEST(AtomicFile, MissingDirectoryRaises) {
  trace_test::TempDir dir;
  const std::string p = dir.file("no/such/dir/out.json");
  try {
    ds::write_file_atomically(p, [](std::ostream& os) { os << "x"; });
    FAIL() << "no error";
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::RuntimeError));
    EXPECT_EQ(std::string(e.what()), "cannot write " + p + ": No such file or directory");
  }
  EXPECT_TRUE(listing(dir.path()).empty());
}

TEST(AtomicFile, ReadOnlyDirectoryRaisesAndKeepsFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  trace_test::TempDir dir;
  const std::string p = dir.file("ro.json");
  trace_test::write_text(p, "old");
  ::chmod(dir.path().c_str(), 0555);
  try {
    ds::write_file_atomically(p, [](std::ostream& os) { os << "new"; });
    ADD_FAILURE() << "no error";
  } catch (const ds::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + p + ": Permission denied");
  }
  ::chmod(dir.path().c_str(), 0755);
  EXPECT_EQ(trace_test::read_text(p), "old");
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"ro.json"});
}

TEST(AtomicFile, ParentIsAFileRaises) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("file.txt"), "x");
  const std::string p = dir.file("file.txt/out.json");
  try {
    ds::write_file_atomically(p, [](std::ostream& os) { os << "x"; });
    FAIL() << "no error";
  } catch (const ds::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + p + ": Not a directory");
  }
}

TEST(AtomicFile, WriteErrorMidStreamRaisesAndKeepsOldContent) {
  // A file size limit makes write() fail with EFBIG part way, like a full disk does with ENOSPC.
  trace_test::TempDir dir;
  const std::string p = dir.file("limited.json");
  trace_test::write_text(p, "old content");
  struct rlimit old_limit {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = old_limit;
  limit.rlim_cur = 1 << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  std::string message = "<no error>";
  try {
    ds::write_file_atomically(p, [](std::ostream& os) {
      for (int i = 0; i < 3; ++i) os << std::string(1 << 20, 'x');
    });
  } catch (const ds::Error& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(message, "cannot write " + p + ": File too large");
  EXPECT_EQ(trace_test::read_text(p), "old content");
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"limited.json"});
}

TEST(AtomicFile, KeepsModeOfExistingFile) {
  trace_test::TempDir dir;
  const std::string p = dir.file("mode.txt");
  trace_test::write_text(p, "a");
  ::chmod(p.c_str(), 0640);
  ds::write_file_atomically(p, [](std::ostream& os) { os << "b"; });
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}
