// RankFolderSession (issue 16: a torchrun job recorded with `devicescope record` writes one file per rank;
// the app opens the folder): every rank's places, storages and copies are its own ("rank 1 cuda:0"), and a
// folder with no rank files, or with the files of several runs, is refused with a message naming them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "session/file_session.h"
#include "session/rank_folder_session.h"
#include "trace/export_csv.h"
#include "trace/trace_text.h"

namespace ds::gui {
namespace {

class RankFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ds_ranks_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Rank `rank`'s recording: `n` host-to-device copies onto cuda:`rank` (ids from 1, as every rank's are).
  void write_rank(const std::string& run, int rank, size_t n) {
    std::deque<TransferRecord> transfers;
    for (size_t i = 0; i < n; ++i) {
      TransferRecord t;
      t.id = i + 1;
      t.src = Place::pinned();
      t.dst = Place::cuda(rank);
      t.bytes = 4096 * (rank + 1);
      t.start_ns = t.enqueue_ns = 1000 + i * 10000;
      t.end_ns = t.start_ns + 8000;
      t.complete = true;
      t.src_storage = i + 1;
      t.dst_storage = 100 + i;
      transfers.push_back(t);
    }
    std::ofstream out(dir_ / (run + ".rank" + std::to_string(rank) + ".csv"));
    write_transfers_csv(transfers, out);
  }

  RunOutcome open(std::unique_ptr<FileSession>& s) {
    s = open_file_session(dir_.string());
    s->wait_idle();
    return s->take_finished().front().outcome;
  }

  std::filesystem::path dir_;
};

TEST_F(RankFolderTest, EachRanksPlacesAndCopiesAreItsOwn) {
  write_rank("train", 0, 3);
  write_rank("train", 1, 2);
  std::unique_ptr<FileSession> s;
  const RunOutcome r = open(s);
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_NE(dynamic_cast<RankFolderSession*>(s.get()), nullptr);
  const std::shared_ptr<const Snapshot> pic = s->snapshot();
  ASSERT_EQ(pic->transfers.size(), 5u);
  size_t rank1 = 0;
  std::set<uint64_t> ids;
  for (const TransferRecord& t : pic->transfers) {
    ids.insert(t.id);
    EXPECT_EQ(t.src.rank, t.dst.rank);
    if (t.dst.rank == 1) {
      ++rank1;
      EXPECT_EQ(t.dst.str(), "rank 1 cuda:1");
      EXPECT_EQ(t.bytes, 8192u);
    }
  }
  EXPECT_EQ(rank1, 2u);
  EXPECT_EQ(ids.size(), 5u);  // every rank's ids start at 1: they must not collide
}

TEST_F(RankFolderTest, ARanksPlaceReadsBackFromItsName) {
  Place p = Place::pinned();
  p.rank = 3;
  EXPECT_EQ(p.str(), "rank 3 pinned");
  EXPECT_EQ(place_from_string(p.str()), p);
  EXPECT_EQ(place_from_string("rank 2 cuda:1")->device, 1);
  EXPECT_FALSE(place_from_string("rank x cuda:1"));
  EXPECT_FALSE(place_from_string("rank 1 rank 2 cuda:1"));
  EXPECT_EQ(Place::cuda(0).str(), "cuda:0");  // a single process's places read as before
}

TEST_F(RankFolderTest, NoRankFilesOrSeveralRunsAreRefused) {
  std::unique_ptr<FileSession> s;
  RunOutcome r = open(s);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("no per-rank recordings"), std::string::npos) << r.error_message;
  write_rank("a", 0, 1);
  write_rank("b", 0, 1);
  r = open(s);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("several runs (a, b)"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace ds::gui
