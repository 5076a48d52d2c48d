// Opening files that fight back: a FIFO (must not block), a file that shrinks while it is read (must
// not SIGBUS), a huge file that is not a recording (refused from its first bytes, unread), and the
// progress/cancel hook the app's loading worker uses.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <sstream>
#include <thread>

#include "core/errors.h"
#include "trace/export_csv.h"
#include "trace/load_progress.h"
#include "trace/load_trace.h"
#include "trace/recording_file.h"
#include "trace_fixtures.h"

namespace {

template <typename F>
std::string error_of(F f, ds::ErrorKind kind = ds::ErrorKind::ValueError) {
  try {
    f();
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(kind)) << e.what();
    return e.what();
  }
  return "<no error>";
}

std::string csv_of(size_t rows) {
  std::deque<ds::TransferRecord> ts;
  for (size_t i = 0; i < rows; ++i)
    ts.push_back(trace_test::transfer(i + 1, ds::Place::pageable(), ds::Place::cuda(0), 4096, 10 * i, 10 * i + 5,
                                      "model.layers." + std::to_string(i) + ".weight"));
  std::ostringstream out;
  ds::write_transfers_csv(ts, out);
  return out.str();
}

// A sparse file: `head` followed by NUL bytes up to `size` (no disk space used).
std::string sparse_file(const trace_test::TempDir& dir, const std::string& name, const std::string& head,
                        off_t size) {
  const std::string p = dir.file(name);
  trace_test::write_text(p, head);
  EXPECT_EQ(::truncate(p.c_str(), size), 0);
  return p;
}

}  // namespace

TEST(LoadHostileFiles, FifoIsRefusedWithoutBlocking) {
  trace_test::TempDir dir;
  const std::string fifo = dir.file("recording.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto result = std::async(std::launch::async, [&] {
    return error_of([&] { ds::load_trace(fifo); }, ds::ErrorKind::RuntimeError);
  });
  if (result.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // let the stuck open() return
    ADD_FAILURE() << "load_trace blocked on a FIFO";
    if (unblock >= 0) ::close(unblock);
  }
  EXPECT_EQ(result.get(), "cannot read " + fifo + ": not a regular file (a FIFO)");
  EXPECT_EQ(error_of([&] { ds::load_transfers_csv("/dev/null"); }, ds::ErrorKind::RuntimeError),
            "cannot read /dev/null: not a regular file (a character device)");
}

TEST(LoadHostileFiles, FileThatShrinksWhileReadIsAnErrorNotACrash) {
  trace_test::TempDir dir;
  const std::string p = dir.file("shrinking.csv");
  const std::string text = csv_of(30000);  // a few MB
  trace_test::write_text(p, text);
  // Deterministic: the file is cut right after its head was read (another program truncating it).
  const std::string message = error_of(
      [&] {
        ds::read_recording_file(
            p, [&](std::string_view, size_t) { ASSERT_EQ(::truncate(p.c_str(), 1000), 0); }, nullptr);
      },
      ds::ErrorKind::RuntimeError);
  EXPECT_EQ(message, "cannot read " + p + ": the file changed while it was read (" + std::to_string(text.size()) +
                         " bytes when opened, only " + std::to_string(ds::kSniffBytes) + " could be read)");
}

TEST(LoadHostileFiles, FileTruncatedByAnotherThreadDuringTheLoad) {
  // The mmap reader died of SIGBUS here; whatever the timing, the answer is now an error or a load.
  trace_test::TempDir dir;
  const std::string p = dir.file("shrinking.csv");
  trace_test::write_text(p, csv_of(200000));
  ds::LoadProgress progress;
  std::thread cutter([&] {
    while (progress.bytes_read.load() == 0 && progress.bytes_total.load() == 0) std::this_thread::yield();
    ::truncate(p.c_str(), 100);
  });
  try {
    ds::load_trace(p, &progress);
  } catch (const ds::Error& e) {
    SUCCEED() << e.what();
  }
  cutter.join();
}

TEST(LoadHostileFiles, HugeFilesThatAreNotRecordingsAreRefusedFromTheirHead) {
  trace_test::TempDir dir;
  constexpr off_t kTwoGiB = off_t(2) << 30;
  struct Case {
    std::string head, message;
  };
  const std::string quote = "\"";
  const Case cases[] = {
      {"", "neither Chrome trace JSON nor a DeviceScope transfers CSV (it starts with \"" + std::string(24, '?') + "\")"},
      {"{\"traceEvents\":[", "invalid JSON at byte 16: "},
      {std::string(ds::kTransfersCsvHeader) + "\n", "line 2: "},
      {std::string(70000, ' '), "the file starts with more than 65536 bytes of white space"},
  };
  int n = 0;
  for (const Case& c : cases) {
    const std::string p = sparse_file(dir, "big" + std::to_string(n++), c.head, kTwoGiB);
    ds::LoadProgress progress;
    const std::string message = error_of([&] { ds::load_trace(p, &progress); });
    EXPECT_EQ(message.rfind(p + ": not a DeviceScope trace: " + c.message, 0), 0u) << message;
    EXPECT_EQ(progress.bytes_total.load(), uint64_t(kTwoGiB));
    EXPECT_EQ(progress.bytes_read.load(), 0u) << "read past the head of a file it refused";
    ::unlink(p.c_str());
  }
  const std::string nul = sparse_file(dir, "nul.csv", "", kTwoGiB);
  ds::LoadProgress progress;
  EXPECT_EQ(error_of([&] { ds::load_transfers_csv(nul, &progress); }).rfind(nul + ": not a DeviceScope trace: the first line", 0),
            0u);
  EXPECT_EQ(progress.bytes_read.load(), 0u);
}

TEST(LoadHostileFiles, ProgressReachesTheEnd) {
  trace_test::TempDir dir;
  const std::string p = dir.file("run.csv");
  const std::string text = csv_of(50000);
  trace_test::write_text(p, text);
  ds::LoadProgress progress;
  EXPECT_EQ(progress.fraction(), 0.0);
  const ds::LoadedTrace t = ds::load_trace(p, &progress);
  EXPECT_EQ(t.transfers.size(), 50000u);
  EXPECT_EQ(progress.bytes_total.load(), text.size());
  EXPECT_EQ(progress.bytes_read.load(), text.size());
  EXPECT_EQ(progress.bytes_done.load(), text.size());
  EXPECT_EQ(progress.fraction(), 1.0);
}

TEST(LoadHostileFiles, CancelStopsTheLoad) {
  trace_test::TempDir dir;
  const std::string p = dir.file("run.csv");
  const std::string text = csv_of(1000);
  trace_test::write_text(p, text);
  ds::LoadProgress before;
  before.cancel = true;
  EXPECT_THROW(ds::load_trace(p, &before), ds::LoadCancelled);
  EXPECT_THROW(ds::load_transfers_csv(p, &before), ds::LoadCancelled);
  // Parsers look at `cancel` too (the worker cancels mid-parse, after the file was read).
  ds::LoadProgress parsing;
  parsing.cancel = true;
  try {
    ds::parse_transfers_csv(text.data(), text.size(), "run.csv", &parsing);
    ADD_FAILURE() << "not cancelled";
  } catch (const ds::LoadCancelled& e) {
    EXPECT_STREQ(e.what(), "run.csv: loading cancelled");
  }
}
