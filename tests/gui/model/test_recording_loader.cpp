// RecordingLoader (issue 14: "the GUI thread is blocked while a file loads"): a recording loads on a
// worker thread; start() returns at once, progress reaches the file's size, Cancel ends it without a
// result, and a failure hands back the loader's message (the GUI keeps what it showed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gui/model/recording_loader.h"
#include "trace/export_csv.h"

namespace ds::gui {
namespace {

class RecordingLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ds_loader_" + std::to_string(getpid()));
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

TEST_F(RecordingLoaderTest, LoadsOnAWorkerAndHandsTheResultOverOnce) {
  const std::string path = write_csv(2000);
  RecordingLoader loader;
  ASSERT_TRUE(loader.start(path));
  EXPECT_TRUE(loader.busy());
  EXPECT_EQ(loader.path(), path);
  EXPECT_EQ(loader.progress().bytes_total, std::filesystem::file_size(path));  // known before it reads
  loader.wait();
  std::optional<LoadResult> r = loader.take_result();
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(r->error, "");
  EXPECT_FALSE(r->cancelled);
  ASSERT_NE(r->recording, nullptr);
  EXPECT_EQ(r->recording->transfers.size(), 2000u);
  EXPECT_EQ(r->recording->time_ns, 1000u + 1999u * 10000u + 8000u);
  // The Transfers view's models come built (off the GUI thread), for this very snapshot.
  ASSERT_NE(r->models, nullptr);
  EXPECT_EQ(r->models->source, r->recording.get());
  EXPECT_EQ(r->models->timeline.transfers, 2000u);
  EXPECT_EQ(r->models->total_bytes, 2000u * 4096u);
  EXPECT_EQ(loader.progress().bytes_done, std::filesystem::file_size(path));
  EXPECT_FALSE(loader.take_result().has_value());  // once
}

TEST_F(RecordingLoaderTest, HeldLoadWaitsAndOnlyOneLoadRunsAtATime) {
  const std::string path = write_csv(10);
  RecordingLoader loader;
  ASSERT_TRUE(loader.start(path, /*held=*/true));
  EXPECT_FALSE(loader.start(path));  // busy: the caller says so, nothing is lost
  usleep(20000);
  EXPECT_FALSE(loader.take_result().has_value());  // held: nothing read yet
  EXPECT_EQ(loader.progress().bytes_read, 0u);
  loader.release();
  loader.wait();
  std::optional<LoadResult> r = loader.take_result();
  ASSERT_TRUE(r && r->recording);
  EXPECT_EQ(r->recording->transfers.size(), 10u);
  ASSERT_TRUE(loader.start(path));  // free again
  loader.wait();
  EXPECT_TRUE(loader.take_result().has_value());
}

TEST_F(RecordingLoaderTest, CancelEndsTheLoadWithoutAResultOrAnError) {
  const std::string path = write_csv(10);
  RecordingLoader loader;
  ASSERT_TRUE(loader.start(path, /*held=*/true));
  loader.cancel();
  loader.wait();
  std::optional<LoadResult> r = loader.take_result();
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->cancelled);
  EXPECT_EQ(r->recording, nullptr);
  EXPECT_EQ(r->error, "");
}

TEST_F(RecordingLoaderTest, AFailureCarriesTheLoadersMessage) {
  RecordingLoader loader;
  const std::string missing = (dir_ / "missing.json").string();
  ASSERT_TRUE(loader.start(missing));
  loader.wait();
  std::optional<LoadResult> r = loader.take_result();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->recording, nullptr);
  EXPECT_FALSE(r->cancelled);
  EXPECT_NE(r->error.find("cannot read " + missing), std::string::npos) << r->error;

  const std::string junk = (dir_ / "junk.csv").string();
  std::ofstream(junk) << "this is not a recording\n";
  ASSERT_TRUE(loader.start(junk));
  loader.wait();
  r = loader.take_result();
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(r->error.find("not a DeviceScope trace"), std::string::npos) << r->error;
}

TEST_F(RecordingLoaderTest, DestroyingALoaderCancelsItsLoad) {
  const std::string path = write_csv(10);
  auto loader = std::make_unique<RecordingLoader>();
  ASSERT_TRUE(loader->start(path, /*held=*/true));
  loader.reset();  // must not hang on the held worker, nor leave it running
  SUCCEED();
}

}  // namespace
}  // namespace ds::gui
