// EventLog's bounded window (Note [Bounded event log]): old records leave, totals stay exact, completions of
// dropped copies are ignored, and a windowed recording says so in its Chrome trace and reads back.
#include <gtest/gtest.h>

#include <sstream>

#include "trace/event_log.h"
#include "trace/export_chrome_trace.h"
#include "trace/load_trace.h"
#include "trace_fixtures.h"

using ds::Event;
using ds::EventKind;
using ds::EventLog;
using ds::Place;
using ds::TransferRecord;

namespace {

Event alloc(uint64_t bytes, uint64_t allocated_after, EventKind kind = EventKind::Alloc) {
  Event e = trace_test::event(0, kind, 1, Place::cuda(0));
  e.bytes = bytes;
  e.allocated_after = e.reserved_after = allocated_after;
  return e;
}

}  // namespace

TEST(EventLogWindow, KeepsTheMostRecentEventsAndExactTotals) {
  EventLog log;
  log.set_limits({4, 100});
  for (uint64_t i = 1; i <= 10; ++i) log.append(alloc(i, i * 100));
  log.append(alloc(3, 50, EventKind::Free));
  ASSERT_EQ(log.events().size(), 4u);
  EXPECT_EQ(log.events().front().seq, 8u);
  EXPECT_EQ(log.events().back().seq, 11u);
  EXPECT_EQ(log.last_seq(), 11u);
  const ds::LogTotals& t = log.totals();
  EXPECT_EQ(t.events, 11u);
  EXPECT_EQ(t.events_dropped, 7u);
  EXPECT_EQ(t.by_kind[size_t(EventKind::Alloc)], 10u);
  EXPECT_EQ(t.by_kind[size_t(EventKind::Free)], 1u);
  const ds::PlaceTotals* p = t.place(Place::cuda(0));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->allocs, 10u);
  EXPECT_EQ(p->alloc_bytes, 55u);  // 1 + ... + 10, most of them dropped from the window
  EXPECT_EQ(p->frees, 1u);
  EXPECT_EQ(p->free_bytes, 3u);
  EXPECT_EQ(p->peak_allocated, 1000u);
  EXPECT_EQ(t.place(Place::cuda(1)), nullptr);
  EXPECT_TRUE(log.windowed());
  EXPECT_EQ(log.window_note(), "windowed: the first 7 of 11 events were dropped (DeviceScope keeps the last 4 in memory)");
}

TEST(EventLogWindow, NothingDroppedNothingSaid) {
  EventLog log;
  for (int i = 0; i < 100; ++i) log.append(alloc(1, 1));
  EXPECT_FALSE(log.windowed());
  EXPECT_EQ(log.window_note(), "");
  EXPECT_EQ(log.totals().events, 100u);
  EXPECT_EQ(log.events().size(), 100u);
}

TEST(EventLogWindow, TransfersLeaveInOrderAndFindTransferFollows) {
  EventLog log;
  log.set_limits({1000, 3});
  for (uint64_t i = 1; i <= 5; ++i) log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), i * 10, 0, 1));
  ASSERT_EQ(log.transfers().size(), 3u);
  EXPECT_EQ(log.transfers().front().id, 3u);
  EXPECT_EQ(log.find_transfer(2), nullptr);
  EXPECT_EQ(log.find_transfer(3)->bytes, 30u);
  EXPECT_EQ(log.find_transfer(5)->bytes, 50u);
  EXPECT_EQ(log.totals().transfers, 5u);
  EXPECT_EQ(log.totals().transfers_dropped, 2u);
  EXPECT_EQ(log.totals().transfer_bytes, 150u);
  EXPECT_EQ(log.totals().dropped_transfer_bytes, 30u);
  EXPECT_EQ(log.events().size(), 5u);  // the Copy events are still inside their own window
  EXPECT_EQ(log.window_note(),
            "windowed: the first 2 of 5 transfers were dropped (DeviceScope keeps the last 3 in memory)");
}

TEST(EventLogWindow, PendingCopiesCompleteByTicketAcrossTrimming) {
  EventLog log;
  log.set_limits({1000, 2});
  auto pending = [&](uint64_t ticket) {
    TransferRecord t = trace_test::transfer(0, Place::pinned(), Place::cuda(0), ticket, 0, 0);
    t.complete = false;
    t.backend_ticket = ticket;
    return log.add_transfer(t);
  };
  pending(11);  // id 1: leaves the window while in flight
  pending(12);  // id 2
  pending(13);  // id 3; id 1 is dropped
  const size_t events_before = log.events().size();
  log.complete_transfer(11, 1, 2, 0);  // no record any more: ignored, no CopyDone
  EXPECT_EQ(log.events().size(), events_before);
  log.complete_transfer(13, 5, 9, 0);
  log.complete_transfer(12, 3, 4, 0);
  EXPECT_TRUE(log.find_transfer(2)->complete);
  EXPECT_EQ(log.find_transfer(2)->end_ns, 4u);
  EXPECT_EQ(log.find_transfer(3)->start_ns, 5u);
  EXPECT_EQ(log.events().back().kind, EventKind::CopyDone);
  EXPECT_EQ(log.events().back().transfer_id, 2u);
}

TEST(EventLogWindow, ShrinkingTheLimitsTrimsAtOnceAndClearResetsTotals) {
  EventLog log;
  for (int i = 0; i < 10; ++i) log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 1, 0, 1));
  log.set_limits({2, 1});
  EXPECT_EQ(log.events().size(), 2u);
  EXPECT_EQ(log.transfers().size(), 1u);
  EXPECT_EQ(log.transfers().front().id, 10u);
  EXPECT_EQ(log.totals().events_dropped, 8u);
  EXPECT_EQ(log.totals().transfers_dropped, 9u);
  log.clear();
  EXPECT_FALSE(log.windowed());
  EXPECT_EQ(log.totals().events, 0u);
  EXPECT_EQ(log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 1, 0, 1)), 11u);
  EXPECT_EQ(log.find_transfer(11)->id, 11u);
}

TEST(EventLogWindow, MemoryStaysBoundedOverAMillionEvents) {
  // The window's deque gives its blocks back as the front advances: the size never passes the limit.
  EventLog log;
  log.set_limits({1000, 10});
  for (int i = 0; i < 1'000'000; ++i) log.append(alloc(8, 8));
  EXPECT_EQ(log.events().size(), 1000u);
  EXPECT_EQ(log.totals().events_dropped, 999'000u);
}

TEST(EventLogWindow, WindowedChromeTraceSaysSoAndReadsBack) {
  EventLog log;
  log.set_limits({3, 2});
  for (int i = 0; i < 4; ++i) log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 64, 10 * i, 10 * i + 5));
  ds::TraceMeta meta{"sim", true, "pcie4-x16", "0.1.0", "test machine"};
  meta.events_dropped = log.totals().events_dropped;
  meta.transfers_dropped = log.totals().transfers_dropped;
  std::ostringstream out;
  ds::write_chrome_trace(log.events(), log.transfers(), meta, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("\"windowed\":true"), std::string::npos);
  EXPECT_NE(text.find("\"events_dropped\":1,\"transfers_dropped\":2"), std::string::npos);
  const ds::LoadedTrace back = ds::parse_chrome_trace(text.data(), text.size(), "w.json");
  EXPECT_EQ(back.meta, meta);
  EXPECT_EQ(back.meta.transfers_dropped, 2u);
  EXPECT_EQ(back.transfers.size(), 2u);
  EXPECT_EQ(back.transfers.front().id, 3u);
  EXPECT_EQ(back.events.size(), 3u);

  std::ostringstream whole;
  ds::write_chrome_trace({}, {}, ds::TraceMeta{"sim", true, "pcie4-x16", "0.1.0", "m"}, whole);
  EXPECT_NE(whole.str().find("\"windowed\":false"), std::string::npos);
}
