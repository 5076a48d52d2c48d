// Presenter mode's transfers strip rows: newest first, readable figures, tags, and bars on one scale per
// clock (a measured host copy does not shrink the modelled device copies' bars).
#include <gtest/gtest.h>

#include "gui/view_state/transfer_strip_model.h"

namespace ds::gui {
namespace {

TransferRecord copy(uint64_t id, Place src, Place dst, uint64_t bytes, uint64_t ns, Route route, bool non_blocking) {
  TransferRecord t;
  t.id = id;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.route = route;
  t.non_blocking = t.async = non_blocking;
  t.start_ns = 1000;
  t.end_ns = 1000 + ns;
  t.complete = true;
  t.simulated = true;
  return t;
}

// Lesson 018: a pageable copy (staged), pin_memory's host copy (measured), a pinned async copy.
Snapshot lesson_018() {
  Snapshot s;
  s.simulated = true;
  s.transfers = {copy(1, Place::pageable(), Place::cuda(0), 64 << 20, 5'600'000, Route::StagedPinned, false),
                 copy(2, Place::pageable(), Place::pinned(), 64 << 20, 80'000'000, Route::Direct, false),
                 copy(3, Place::pinned(), Place::cuda(0), 64 << 20, 2'690'000, Route::Direct, true)};
  return s;
}

TEST(TransferStrip, NewestFirstWithReadableFigures) {
  TransferStripModel m = make_transfer_strip(lesson_018(), 4);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.total, 3u);
  EXPECT_EQ(m.earlier, 0u);
  EXPECT_EQ(m.rows[0].id, 3u);
  EXPECT_EQ(m.rows[0].route, "pinned \xe2\x86\x92 cuda:0");
  EXPECT_EQ(m.rows[0].size, "64 MiB");
  EXPECT_EQ(m.rows[0].time, "2.69 ms");
  EXPECT_EQ(m.rows[0].rate, "24.9 GB/s");
  EXPECT_EQ(m.rows[0].tags, std::vector<std::string>{"async"});
  EXPECT_EQ(m.rows[2].tags, std::vector<std::string>{"staged"});
  EXPECT_EQ(m.rows[1].tags, std::vector<std::string>{"measured"});
}

TEST(TransferStrip, HostCopiesDoNotShrinkTheDeviceCopiesBars) {
  TransferStripModel m = make_transfer_strip(lesson_018(), 4);
  // Device copies on one scale: the pinned one is about half the pageable one.
  EXPECT_NEAR(m.rows[2].bar, 1.0, 1e-9);
  EXPECT_NEAR(m.rows[0].bar, 2.69 / 5.6, 1e-9);
  EXPECT_NEAR(m.rows[1].bar, 1.0, 1e-9);  // the host copy, on its own
}

TEST(TransferStrip, AnUnfinishedCopyIsInFlightAndOnlyTheNewestAreKept) {
  Snapshot s = lesson_018();
  TransferRecord t = copy(4, Place::cuda(0), Place::pinned(), 4 << 20, 0, Route::Direct, true);
  t.complete = false;
  s.transfers.push_back(t);
  TransferStripModel m = make_transfer_strip(s, 2);
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_EQ(m.earlier, 2u);
  EXPECT_TRUE(m.rows[0].in_flight);
  EXPECT_EQ(m.rows[0].time, "in flight");
  EXPECT_EQ(m.rows[0].rate, "");
  EXPECT_EQ(m.rows[0].bar, 0.0);
  EXPECT_NE(std::find(m.rows[0].tags.begin(), m.rows[0].tags.end(), "not synchronised"), m.rows[0].tags.end());
}

}  // namespace
}  // namespace ds::gui
