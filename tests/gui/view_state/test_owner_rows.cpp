// The file view's owners table (issue 24 item 7): owners at the shown moment with their bytes and blocks,
// first and last seen from the memory timeline, sortable by each column.
#include <gtest/gtest.h>

#include "gui/view_state/owner_rows.h"

namespace ds::gui {
namespace {

TEST(OwnerRows, OwnersWithBytesBlocksAndWhenTheyWereSeen) {
  Snapshot snap;
  auto storage = [&](uint64_t id, const std::string& owner, uint64_t bytes) {
    StorageInfo s;
    s.id = id, s.owner = owner, s.place = Place::cuda(0), s.nbytes = s.block_bytes = bytes;
    snap.storages.push_back(s);
  };
  storage(1, "model.py:17 forward", 4096);
  storage(2, "model.py:17 forward", 4096);
  storage(3, "train.py:50 step", 1 << 20);
  snapshot::MemoryTimeline t;
  t.device = 0;
  t.timed = true;
  t.x = {0, 1000, 2000, 3000};  // microseconds
  t.entries = {1, 2, 3, 4};
  t.categories = {"train.py:50 step", "model.py:17 forward", "other"};
  t.bytes = {{0, 1 << 20, 1 << 20, 1 << 20}, {8192, 8192, 0, 8192}, {0, 0, 0, 0}};
  std::vector<snapshot::MemoryTimeline> timelines = {t};
  std::vector<OwnerRow> rows = owner_rows(snap, &timelines);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].owner, "train.py:50 step");  // the most bytes first
  EXPECT_EQ(rows[0].bytes, 1u << 20);
  EXPECT_EQ(rows[0].blocks, 1u);
  EXPECT_EQ(rows[0].first, 1);
  EXPECT_EQ(rows[0].last, 3);
  EXPECT_EQ(rows[0].first_text, "1.00 ms");
  EXPECT_EQ(rows[1].blocks, 2u);
  EXPECT_EQ(rows[1].first, 0);
  EXPECT_EQ(rows[1].last, 3);
  sort_owner_rows(rows, OwnerColumn::Blocks, false);
  EXPECT_EQ(rows[0].owner, "model.py:17 forward");
  sort_owner_rows(rows, OwnerColumn::First, false);
  EXPECT_EQ(rows[0].owner, "train.py:50 step");
  // Without a timeline (a DeviceScope recording): no first / last seen, not a made-up one.
  rows = owner_rows(snap, nullptr);
  EXPECT_EQ(rows[0].first, -1);
  EXPECT_TRUE(rows[0].first_text.empty());
}

}  // namespace
}  // namespace ds::gui
