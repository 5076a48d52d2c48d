// The temporaries of write_file_atomically never outlive an export: a SIGTERM during the write removes
// its temporary, and the next write sweeps those left by a process that was killed outright.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "trace/atomic_file.h"
#include "trace/temporary_files.h"
#include "trace_fixtures.h"

namespace {

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A pid that no longer exists: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

sighandler_t current_handler(int sig) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return now.sa_handler;
}

}  // namespace

TEST(TemporaryFiles, StaleTemporariesOfDeadProcessesAreSwept) {
  trace_test::TempDir dir;
  const std::string dead = std::to_string(dead_pid());
  const std::string alive = std::to_string(::getppid());  // another export in progress: left alone
  for (const std::string& name : std::vector<std::string>{"out.csv.tmp." + dead + ".0", "out.csv.tmp." + dead + ".17", "out.csv.tmp." + alive + ".0",
                                 "other.csv.tmp." + dead + ".0", "out.csv.tmp." + dead + ".x", "out.csv.tmp.notapid.0"})
    trace_test::write_text(dir.file(name), std::string(1000, 'x'));
  ds::write_file_atomically(dir.file("out.csv"), [](std::ostream& os) { os << "done\n"; });
  // listing() is sorted by name, and the pids' digits decide the order: sort what is expected the same way.
  std::vector<std::string> expected{"other.csv.tmp." + dead + ".0", "out.csv", "out.csv.tmp." + alive + ".0",
                                    "out.csv.tmp." + dead + ".x", "out.csv.tmp.notapid.0"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listing(dir.path()), expected);
  EXPECT_EQ(trace_test::read_text(dir.file("out.csv")), "done\n");
}

TEST(TemporaryFiles, SigtermDuringTheWriteRemovesTheTemporary) {
  trace_test::TempDir dir;
  trace_test::write_text(dir.file("keep.json"), "old");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGTERM, SIG_DFL);
    ds::write_file_atomically(dir.file("keep.json"), [](std::ostream& os) {
      os << std::string(4 << 20, 'x');  // partly on disk already
      ::raise(SIGTERM);                 // `kill PID` in the middle of an export
      os << "never";
    });
    ::_exit(3);  // not reached when the signal ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);  // still dies the way SIGTERM means
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"keep.json"});
  EXPECT_EQ(trace_test::read_text(dir.file("keep.json")), "old");
}

TEST(TemporaryFiles, HandlersAreOnlyInstalledDuringAWriteAndNeverOverSomeoneElses) {
  ASSERT_EQ(current_handler(SIGTERM), SIG_DFL);
  trace_test::TempDir dir;
  sighandler_t during_term = nullptr;
  ds::write_file_atomically(dir.file("a"), [&](std::ostream& os) {
    during_term = current_handler(SIGTERM);
    os << "a";
  });
  EXPECT_NE(during_term, SIG_DFL);
  EXPECT_EQ(current_handler(SIGTERM), SIG_DFL);

  auto mine = +[](int) {};
  ::signal(SIGHUP, mine);  // the program handles SIGHUP itself: left exactly as it is
  sighandler_t during_hup = nullptr;
  ds::write_file_atomically(dir.file("b"), [&](std::ostream& os) {
    during_hup = current_handler(SIGHUP);
    os << "b";
  });
  EXPECT_EQ(during_hup, mine);
  EXPECT_EQ(current_handler(SIGHUP), mine);
  ::signal(SIGHUP, SIG_DFL);
}
