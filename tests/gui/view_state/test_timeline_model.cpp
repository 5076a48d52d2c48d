// Transfer timeline without GL: lanes per device and direction, visible-range queries, folding.
#include <gtest/gtest.h>

#include "gui/view_state/timeline_model.h"
#include "gui/view_state/transfer_sort.h"

namespace ds::gui {
namespace {

TransferRecord copy(uint64_t id, Place src, Place dst, uint64_t start, uint64_t end, uint64_t bytes = 1000) {
  TransferRecord t;
  t.id = id;
  t.src = src;
  t.dst = dst;
  t.start_ns = start;
  t.end_ns = end;
  t.bytes = bytes;
  t.complete = true;
  return t;
}

TEST(TimelineModel, OneLanePerDeviceAndDirection) {
  Snapshot s;
  s.transfers = {copy(1, Place::pageable(), Place::cuda(0), 0, 10), copy(2, Place::cuda(0), Place::pinned(), 20, 30),
                 copy(3, Place::pinned(), Place::cuda(1), 5, 15), copy(4, Place::cuda(0), Place::cuda(1), 40, 50),
                 copy(5, Place::pinned(), Place::cuda(0), 12, 14)};
  TimelineModel m;
  m.build(s);
  ASSERT_EQ(m.lanes.size(), 4u);
  EXPECT_EQ(m.lanes[0].name, "cuda:0  H2D");
  EXPECT_EQ(m.lanes[0].index, (std::vector<uint32_t>{0, 4}));
  EXPECT_EQ(m.lanes[1].name, "cuda:0  D2H");
  EXPECT_EQ(m.lanes[2].name, "cuda:0  D2D");
  EXPECT_EQ(m.lanes[3].name, "cuda:1  H2D");
  EXPECT_EQ(m.t_min, 0u);
  EXPECT_EQ(m.t_max, 50u);
}

TEST(TimelineModel, VisibleRangeAndWideItems) {
  Snapshot s;
  for (uint64_t i = 0; i < 100; ++i) s.transfers.push_back(copy(i + 1, Place::pinned(), Place::cuda(0), i * 100, i * 100 + 50));
  TimelineModel m;
  m.build(s);
  std::vector<TimelineItem> items;
  m.visible(0, 1000, 2000, 1.0, 3.0, items);  // 1 px per ns: every copy is 50 px wide
  ASSERT_EQ(items.size(), 11u);                 // copies 10..20 overlap [1000, 2000]
  EXPECT_EQ(items.front().first, 10u);
  EXPECT_EQ(items.front().count, 1u);
  EXPECT_DOUBLE_EQ(items.front().x0, 0.0);
  EXPECT_DOUBLE_EQ(items.front().x1, 50.0);
  EXPECT_EQ(items.back().first, 20u);
}

TEST(TimelineModel, NarrowItemsFoldWithACountAndBytes) {
  Snapshot s;
  for (uint64_t i = 0; i < 1000; ++i) s.transfers.push_back(copy(i + 1, Place::pinned(), Place::cuda(0), i * 10, i * 10 + 5, 100));
  TimelineModel m;
  m.build(s);
  std::vector<TimelineItem> items;
  m.visible(0, 0, 10000, 0.1, 3.0, items);  // 0.1 px per ns: each copy 0.5 px, one every pixel
  size_t copies = 0;
  uint64_t bytes = 0;
  for (const TimelineItem& it : items) {
    if (&it != &items.back()) EXPECT_GT(it.count, 1u);  // the last may be a lone copy
    copies += it.count;
    bytes += it.bytes;
  }
  EXPECT_EQ(copies, 1000u);   // nothing lost, nothing counted twice
  EXPECT_EQ(bytes, 100000u);
  // Folds stop growing at 12 x 3 px: about 1000 px / 36 px of them, not one per copy.
  EXPECT_LE(items.size(), 1000u / 30u + 2);
  EXPECT_GE(items.size(), 1000u / 40u);
}

// Issue 14: 80,000 copies issued at one instant were drawn one by one (none narrower than 3 px, so none
// folded): 19 s per frame. Copies starting in the same pixels fold however long they are.
TEST(TimelineModel, CopiesStartingAtOneInstantFoldIntoOneItem) {
  Snapshot s;
  for (uint64_t i = 0; i < 80000; ++i) s.transfers.push_back(copy(i + 1, Place::pinned(), Place::cuda(0), 1000, 9078, 4096));
  TimelineModel m;
  m.build(s);
  std::vector<TimelineItem> items;
  m.visible(0, 900, 9200, 1500.0 / 8300.0, 3.0, items);  // the fitted view: each copy about 1460 px wide
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].first, 0u);
  EXPECT_EQ(items[0].count, 80000u);
  EXPECT_EQ(items[0].bytes, 80000u * 4096u);
  EXPECT_NEAR(items[0].x0, 100 * 1500.0 / 8300.0, 1e-6);
  EXPECT_NEAR(items[0].x1, 8178 * 1500.0 / 8300.0, 1e-6);
}

TEST(TimelineModel, DrawnItemsStayBoundedWhateverTheDensity) {
  Snapshot s;
  // 50,000 long copies (100 us each) issued 7 ns apart, all overlapping, on a 1500 px wide view.
  for (uint64_t i = 0; i < 50000; ++i) s.transfers.push_back(copy(i + 1, Place::pinned(), Place::cuda(0), i * 7, i * 7 + 100000, 10));
  TimelineModel m;
  m.build(s);
  std::vector<TimelineItem> items;
  const double span = 50000.0 * 7 + 100000;
  m.visible(0, 0, span, 1500.0 / span, 3.0, items);
  size_t copies = 0;
  for (const TimelineItem& it : items) copies += it.count;
  EXPECT_EQ(copies, 50000u);  // nothing lost, nothing counted twice
  EXPECT_LE(items.size(), 1500u / 3u);
  // Zoomed in until the copies are 3+ px apart, they are drawn one by one again.
  items.clear();
  m.visible(0, 70000, 70700, 1.0, 3.0, items);  // 7 px apart
  for (const TimelineItem& it : items) EXPECT_EQ(it.count, 1u);
  EXPECT_GE(items.size(), 100u);
}

TEST(TimelineModel, LongCopiesStartingApartAreNotFolded) {
  Snapshot s;
  s.transfers = {copy(1, Place::pinned(), Place::cuda(0), 0, 1000), copy(2, Place::pinned(), Place::cuda(0), 10, 1000),
                 copy(3, Place::pinned(), Place::cuda(0), 12, 1000)};
  TimelineModel m;
  m.build(s);
  std::vector<TimelineItem> items;
  m.visible(0, 0, 1000, 1.0, 3.0, items);
  ASSERT_EQ(items.size(), 2u);  // copy 1 alone; copies 2 and 3 start 2 px apart: one fold
  EXPECT_EQ(items[0].count, 1u);
  EXPECT_EQ(items[1].first, 1u);
  EXPECT_EQ(items[1].count, 2u);
  EXPECT_DOUBLE_EQ(items[1].x1, 1000.0);
}

TEST(TimelineModel, ItemAtFindsTheCopyUnderTheMouse) {
  Snapshot s;
  s.transfers = {copy(1, Place::pinned(), Place::cuda(0), 0, 10), copy(2, Place::pinned(), Place::cuda(0), 100, 110)};
  TimelineModel m;
  m.build(s);
  EXPECT_EQ(m.item_at(0, 105, 1), 1);
  EXPECT_EQ(m.item_at(0, 5, 1), 0);
  EXPECT_EQ(m.item_at(0, 50, 1), -1);
}

// Note [Two clocks on one timeline], lesson 018: a 64 MiB pageable copy (5.6 ms modelled), pin_memory's host
// memcpy (138 ms measured on a loaded machine; the modelled clock does not move) and the copy out of the pinned
// buffer (2.7 ms modelled), all issued at the modelled instant 5.6 ms.
Snapshot lesson_018() {
  Snapshot s;
  TransferRecord pageable = copy(1, Place::pageable(), Place::cuda(0), 0, 5'600'000);
  TransferRecord pin = copy(2, Place::pageable(), Place::pinned(), 5'600'000, 5'600'000 + 138'000'000);
  TransferRecord pinned = copy(3, Place::pinned(), Place::cuda(0), 5'600'000, 5'600'000 + 2'700'000);
  pageable.simulated = pinned.simulated = true;
  s.transfers = {pageable, pin, pinned};
  s.time_ns = 8'300'000;
  return s;
}

TEST(TimelineModel, MeasuredHostWorkIsABreakOnTheModelledAxis) {
  TimelineModel m;
  m.build(lesson_018());
  ASSERT_TRUE(m.two_clocks);
  ASSERT_EQ(m.breaks.size(), 1u);
  ASSERT_EQ(m.lanes.size(), 2u);
  const TimelineLane& host = m.lanes[0];
  const TimelineLane& h2d = m.lanes[1];
  EXPECT_TRUE(host.measured);
  EXPECT_FALSE(h2d.measured);
  // Device copies keep the modelled scale, so "pinned is faster" is seen: 5.6 vs 2.7 ms drawn 5.6 vs 2.7.
  EXPECT_EQ(h2d.end[0] - h2d.start[0], 5'600'000u);
  EXPECT_EQ(h2d.end[1] - h2d.start[1], 2'700'000u);
  // The copy out of the pinned buffer starts after the pinning that made it, never at the same instant.
  EXPECT_GE(h2d.start[1], host.end[0]);
  EXPECT_EQ(host.start[0], h2d.end[0]);
  // Host work is scaled on its own: it takes at most a third of the axis, not 94% of it.
  EXPECT_LE(double(host.end[0] - host.start[0]), (m.t_max - m.t_min) / 3.0 + 1);
  EXPECT_NEAR(m.host_scale, 0.5 * 8'300'000 / 138'000'000.0, 1e-9);
  EXPECT_DOUBLE_EQ(m.breaks[0].measured_ns, 138'000'000.0);
  // The ruler reads modelled time: no modelled time passes inside the break.
  EXPECT_DOUBLE_EQ(m.modelled_at(double(h2d.start[1])), 5'600'000.0);
  EXPECT_DOUBLE_EQ(m.modelled_at(double(h2d.end[1])), 8'300'000.0);
  EXPECT_DOUBLE_EQ(m.modelled_at(double(host.start[0] + 1000)), 5'600'000.0);
  EXPECT_EQ(m.break_at(double(host.start[0] + 1000)), 0);
  EXPECT_EQ(m.break_at(double(h2d.start[0] + 1000)), -1);
  EXPECT_DOUBLE_EQ(m.now, double(h2d.end[1]));
}

TEST(TimelineModel, OneClockWhenEverythingIsMeasured) {
  Snapshot s = lesson_018();
  for (TransferRecord& t : s.transfers) t.simulated = false;  // a real GPU: one wall clock for all
  TimelineModel m;
  m.build(s);
  EXPECT_FALSE(m.two_clocks);
  EXPECT_TRUE(m.breaks.empty());
  EXPECT_FALSE(m.lanes[0].measured);
  EXPECT_EQ(m.lanes[0].end[0] - m.lanes[0].start[0], 138'000'000u);
  EXPECT_EQ(m.lanes[1].start[1], 5'600'000u);
}

TEST(TimelineModel, ACopyInFlightAcrossHostWorkRunsThroughTheBreak) {
  Snapshot s = lesson_018();
  // An async copy issued before the pinning, still running on the device when the host work begins.
  TransferRecord early = copy(0, Place::pinned(), Place::cuda(1), 5'000'000, 7'000'000);
  early.simulated = true;
  s.transfers.insert(s.transfers.begin(), early);
  TimelineModel m;
  m.build(s);
  const TimelineLane& cuda1 = m.lanes[2];
  ASSERT_EQ(cuda1.name, "cuda:1  H2D");
  EXPECT_EQ(cuda1.start[0], 5'000'000u);
  EXPECT_GT(double(cuda1.end[0]), m.breaks[0].display_start + m.breaks[0].width);  // ends after the break
}

// Issue 17 item 3, lesson 016: a non_blocking D2H copy not synchronised yet is drawn to its modelled end
// (not cut at "now"), striped, with the host's early read marked on it.
TEST(TimelineModel, InFlightCopiesRunToTheirModelledEndWithTheHostRead) {
  Snapshot s;
  TransferRecord d2h = copy(1, Place::cuda(0), Place::pinned(), 1000, 171'000);
  d2h.complete = false;
  d2h.simulated = true;
  d2h.host_read_ns = 4000;
  s.transfers = {d2h};
  s.time_ns = 5000;
  TimelineModel m;
  m.build(s);
  ASSERT_EQ(m.lanes.size(), 1u);
  EXPECT_EQ(m.lanes[0].end[0], 171'000u);
  EXPECT_TRUE(m.lanes[0].in_flight[0]);
  ASSERT_EQ(m.host_reads.size(), 1u);
  EXPECT_DOUBLE_EQ(m.host_reads[0].at, 4000.0);
  EXPECT_EQ(m.host_reads[0].item, 0u);
  EXPECT_DOUBLE_EQ(m.now, 5000.0);
  // A real GPU's copy in flight has no modelled end: drawn up to now.
  s.transfers[0].end_ns = 0;
  m.build(s);
  EXPECT_EQ(m.lanes[0].end[0], 5000u);
}

TEST(TransferSort, SortsByColumnStably) {
  std::vector<TransferRecord> t = {copy(1, Place::pinned(), Place::cuda(0), 0, 10, 300), copy(2, Place::pinned(), Place::cuda(0), 5, 100, 100),
                                   copy(3, Place::pinned(), Place::cuda(0), 1, 2, 300)};
  EXPECT_EQ(sort_transfers(t, TransferColumn::Bytes, true), (std::vector<uint32_t>{1, 0, 2}));
  EXPECT_EQ(sort_transfers(t, TransferColumn::Bytes, false), (std::vector<uint32_t>{0, 2, 1}));
  EXPECT_EQ(sort_transfers(t, TransferColumn::Duration, false), (std::vector<uint32_t>{1, 0, 2}));
  EXPECT_EQ(sort_transfers(t, TransferColumn::Start, true), (std::vector<uint32_t>{0, 2, 1}));
}

}  // namespace
}  // namespace ds::gui
