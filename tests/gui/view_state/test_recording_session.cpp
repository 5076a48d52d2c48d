// RecordingSession (issue 14: "the GUI thread is blocked while a file loads"; issue 15: an opened file is a
// session of its own): the recording is read on the session's thread; the constructor returns at once,
// progress reaches the file's size, Cancel ends the read without a picture, a failure hands back the
// reader's message, and once read the recording is the session's picture (it runs no code).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "session/recording_session.h"
#include "trace/export_csv.h"

namespace ds::gui {
namespace {

class RecordingSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ds_recording_session_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A CSV of `n` host-to-device copies, one after the other.
  std::string write_csv(size_t n) {
    std::deque<TransferRecord> transfers;
    for (size_t i = 0; i < n; ++i) {
      TransferRecord t;
      t.id = i + 1;
      t.src = Place::pinned();
      t.dst = Place::cuda(0);
      t.bytes = 4096;
      t.start_ns = t.enqueue_ns = 1000 + i * 10000;
      t.end_ns = t.start_ns + 8000;
      t.complete = true;
      t.src_storage = i + 1;
      t.dst_storage = 100000 + i;
      transfers.push_back(t);
    }
    const std::string path = (dir_ / "r.csv").string();
    std::ofstream out(path);
    write_transfers_csv(transfers, out);
    return path;
  }

  std::filesystem::path dir_;
};

// The Open job's outcome (the session submits it itself).
RunOutcome opened(RecordingSession& s) {
  s.wait_idle();
  std::deque<FinishedJob> done = s.take_finished();
  EXPECT_EQ(done.size(), 1u);
  EXPECT_EQ(done.front().job.kind, JobKind::Open);
  return done.front().outcome;
}

TEST_F(RecordingSessionTest, ReadsOnItsThreadAndThenShowsTheRecording) {
  const std::string path = write_csv(2000);
  RecordingSession s(path);
  EXPECT_EQ(s.path(), path);
  EXPECT_FALSE(s.runs_code());
  ASSERT_NE(s.load_progress(), nullptr);
  EXPECT_EQ(s.load_progress()->bytes_total, std::filesystem::file_size(path));  // known before it reads
  const RunOutcome r = opened(s);
  EXPECT_TRUE(r.ok) << r.error_message;
  const std::shared_ptr<const Snapshot> picture = s.snapshot();
  ASSERT_NE(picture, nullptr);
  EXPECT_EQ(picture->source.path, path);
  EXPECT_EQ(picture->transfers.size(), 2000u);
  EXPECT_EQ(picture->time_ns, 1000u + 1999u * 10000u + 8000u);
  EXPECT_EQ(s.status().describe, "recording " + path + " (2000 transfers, 0 live blocks)");
  // The Transfers view's models come built (off the GUI thread), for this very picture, once.
  std::shared_ptr<TransferModels> models = s.take_models();
  ASSERT_NE(models, nullptr);
  EXPECT_EQ(models->source, picture.get());
  EXPECT_EQ(models->timeline.transfers, 2000u);
  EXPECT_EQ(models->total_bytes, 2000u * 4096u);
  EXPECT_EQ(s.take_models(), nullptr);
  EXPECT_EQ(s.load_progress()->bytes_done, std::filesystem::file_size(path));
}

TEST_F(RecordingSessionTest, HeldReadWaitsForRelease) {
  const std::string path = write_csv(10);
  RecordingSession s(path, /*held=*/true);
  EXPECT_TRUE(s.busy());
  EXPECT_FALSE(s.wait_idle_for(0.02));  // held: nothing read yet
  EXPECT_EQ(s.load_progress()->bytes_read, 0u);
  s.release();
  EXPECT_TRUE(opened(s).ok);
  EXPECT_EQ(s.snapshot()->transfers.size(), 10u);
}

TEST_F(RecordingSessionTest, CancelEndsTheReadWithoutAPictureOrAnError) {
  const std::string path = write_csv(10);
  RecordingSession s(path, /*held=*/true);
  s.interrupt();  // the loading strip's Cancel, or Ctrl+C
  const RunOutcome r = opened(s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(s.snapshot()->transfers.empty());
  EXPECT_EQ(s.take_models(), nullptr);
}

TEST_F(RecordingSessionTest, AFailureCarriesTheReadersMessage) {
  const std::string missing = (dir_ / "missing.json").string();
  RecordingSession a(missing);
  RunOutcome r = opened(a);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.interrupted);
  EXPECT_NE(r.error_message.find("cannot read " + missing), std::string::npos) << r.error_message;

  const std::string junk = (dir_ / "junk.csv").string();
  std::ofstream(junk) << "this is not a recording\n";
  RecordingSession b(junk);
  r = opened(b);
  EXPECT_NE(r.error_message.find("not a DeviceScope trace"), std::string::npos) << r.error_message;
}

TEST_F(RecordingSessionTest, ItRunsNoCodeButExportsWhatItShows) {
  const std::string path = write_csv(5);
  RecordingSession s(path);
  ASSERT_TRUE(opened(s).ok);
  Job run;
  run.kind = JobKind::RunLine;
  run.line = "print(1)";
  ASSERT_TRUE(s.submit(run));
  s.wait_idle();
  RunOutcome r = s.take_finished().front().outcome;
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("runs no code"), std::string::npos) << r.error_message;

  Job exp;
  exp.kind = JobKind::ExportTrace;
  exp.line = (dir_ / "again.json").string();
  ASSERT_TRUE(s.submit(exp));
  s.wait_idle();
  r = s.take_finished().front().outcome;
  ASSERT_TRUE(r.ok) << r.error_message;
  RecordingSession again(exp.line);  // the export opens as the same recording
  ASSERT_TRUE(opened(again).ok);
  EXPECT_EQ(again.snapshot()->transfers.size(), 5u);
}

TEST_F(RecordingSessionTest, DestroyingASessionCancelsItsRead) {
  const std::string path = write_csv(10);
  auto s = std::make_unique<RecordingSession>(path, /*held=*/true);
  s.reset();  // must not hang on the held read, nor leave its thread running
  SUCCEED();
}

}  // namespace
}  // namespace ds::gui
