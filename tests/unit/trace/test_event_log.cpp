// EventLog: sequence numbers, transfer ids, completion by backend ticket, disabled log, clear.
#include <gtest/gtest.h>

#include "trace/event_log.h"
#include "trace/snapshot.h"
#include "trace_fixtures.h"

using ds::Event;
using ds::EventKind;
using ds::EventLog;
using ds::Place;
using ds::TransferRecord;

TEST(EventLog, AppendAssignsIncreasingSeq) {
  EventLog log;
  EXPECT_EQ(log.last_seq(), 0u);
  Event e = trace_test::event(999, EventKind::Alloc, 10, Place::cuda(0), "x");  // seq is overwritten
  EXPECT_EQ(log.append(e), 1u);
  EXPECT_EQ(log.append(e), 2u);
  EXPECT_EQ(log.append(trace_test::event(0, EventKind::Free, 20, Place::cuda(0))), 3u);
  ASSERT_EQ(log.events().size(), 3u);
  EXPECT_EQ(log.events()[0].seq, 1u);
  EXPECT_EQ(log.events()[1].seq, 2u);
  EXPECT_EQ(log.events()[2].seq, 3u);
  EXPECT_EQ(log.events()[2].kind, EventKind::Free);
  EXPECT_EQ(log.events()[0].label, "x");
  EXPECT_EQ(log.last_seq(), 3u);
}

TEST(EventLog, AddTransferAssignsIdAndAppendsCopyEvent) {
  EventLog log;
  log.append(trace_test::event(0, EventKind::Alloc, 5, Place::cuda(0)));
  TransferRecord t = trace_test::transfer(42, Place::pinned(), Place::cuda(0), 4096, 100, 200, "model.fc.weight");
  t.enqueue_ns = 90;
  t.dst_storage = 7;
  t.src_storage = 6;
  EXPECT_EQ(log.add_transfer(t), 1u);
  EXPECT_EQ(log.add_transfer(t), 2u);
  ASSERT_EQ(log.transfers().size(), 2u);
  EXPECT_EQ(log.transfers()[0].id, 1u);
  EXPECT_EQ(log.transfers()[1].id, 2u);
  ASSERT_EQ(log.events().size(), 3u);
  const Event& c = log.events()[1];
  EXPECT_EQ(c.seq, 2u);
  EXPECT_EQ(c.kind, EventKind::Copy);
  EXPECT_EQ(c.time_ns, 90u);
  EXPECT_EQ(c.place, Place::cuda(0));
  EXPECT_EQ(c.storage_id, 7u);
  EXPECT_EQ(c.bytes, 4096u);
  EXPECT_EQ(c.transfer_id, 1u);
  EXPECT_EQ(c.label, "model.fc.weight");
  EXPECT_EQ(log.events()[2].transfer_id, 2u);
}

TEST(EventLog, CompleteTransferFillsRecordAndAppendsCopyDone) {
  EventLog log;
  TransferRecord t = trace_test::transfer(0, Place::cuda(0), Place::pinned(), 1 << 20, 0, 0, "y");
  t.complete = false;
  t.enqueue_ns = 50;
  t.backend_ticket = 77;
  const uint64_t id = log.add_transfer(t);
  ASSERT_EQ(id, 1u);
  EXPECT_FALSE(log.find_transfer(id)->complete);
  EXPECT_EQ(log.find_transfer(id)->duration_ns(), 0.0);

  log.complete_transfer(77, 100, 1100, 950.5);
  const TransferRecord* r = log.find_transfer(id);
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->complete);
  EXPECT_EQ(r->start_ns, 100u);
  EXPECT_EQ(r->end_ns, 1100u);
  EXPECT_EQ(r->measured_ns, 950.5);
  EXPECT_EQ(r->duration_ns(), 1000.0);
  EXPECT_DOUBLE_EQ(r->gbps(), 1048.576);
  ASSERT_EQ(log.events().size(), 2u);
  const Event& done = log.events()[1];
  EXPECT_EQ(done.seq, 2u);
  EXPECT_EQ(done.kind, EventKind::CopyDone);
  EXPECT_EQ(done.time_ns, 1100u);
  EXPECT_EQ(done.transfer_id, id);
  EXPECT_EQ(done.place, Place::pinned());
  EXPECT_EQ(done.label, "y");

  // A ticket completes once; unknown tickets are ignored.
  log.complete_transfer(77, 5, 6, 1);
  log.complete_transfer(12345, 5, 6, 1);
  EXPECT_EQ(log.events().size(), 2u);
  EXPECT_EQ(log.find_transfer(id)->end_ns, 1100u);
}

TEST(EventLog, TransferCompleteWhenAddedIsNotPending) {
  EventLog log;
  TransferRecord t = trace_test::transfer(0, Place::pageable(), Place::cuda(1), 64, 10, 20);
  t.backend_ticket = 5;  // blocking copies come back complete, with a ticket
  log.add_transfer(t);
  log.complete_transfer(5, 100, 200, 0);
  EXPECT_EQ(log.find_transfer(1)->end_ns, 20u);
  EXPECT_EQ(log.events().size(), 1u);
}

TEST(EventLog, TicketsMatchTheirOwnTransfer) {
  EventLog log;
  for (uint64_t ticket : {11, 12, 13}) {
    TransferRecord t = trace_test::transfer(0, Place::pinned(), Place::cuda(0), ticket, 0, 0);
    t.complete = false;
    t.backend_ticket = ticket;
    log.add_transfer(t);
  }
  log.complete_transfer(12, 1, 2, 0);
  log.complete_transfer(13, 3, 4, 0);
  log.complete_transfer(11, 5, 6, 0);
  EXPECT_EQ(log.find_transfer(1)->bytes, 11u);
  EXPECT_EQ(log.find_transfer(1)->start_ns, 5u);
  EXPECT_EQ(log.find_transfer(2)->start_ns, 1u);
  EXPECT_EQ(log.find_transfer(3)->start_ns, 3u);
  EXPECT_EQ(log.events().back().transfer_id, 1u);
}

TEST(EventLog, DisabledLogRecordsNothing) {
  EventLog log;
  log.append(trace_test::event(0, EventKind::Note, 1, Place::pageable(), "on"));
  log.set_enabled(false);
  EXPECT_FALSE(log.enabled());
  EXPECT_EQ(log.append(trace_test::event(0, EventKind::Alloc, 2, Place::cuda(0))), 0u);
  EXPECT_EQ(log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 8, 1, 2)), 0u);
  EXPECT_EQ(log.events().size(), 1u);
  EXPECT_EQ(log.transfers().size(), 0u);
  EXPECT_EQ(log.last_seq(), 1u);
  log.set_enabled(true);
  EXPECT_EQ(log.append(trace_test::event(0, EventKind::Note, 3, Place::pageable())), 2u);
  EXPECT_EQ(log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 8, 1, 2)), 1u);
}

TEST(EventLog, CompletionWhileDisabledFinishesTheRecordOnly) {
  EventLog log;
  TransferRecord t = trace_test::transfer(0, Place::pinned(), Place::cuda(0), 8, 0, 0);
  t.complete = false;
  t.backend_ticket = 9;
  log.add_transfer(t);
  log.set_enabled(false);
  log.complete_transfer(9, 10, 30, 0);
  EXPECT_TRUE(log.find_transfer(1)->complete);
  EXPECT_EQ(log.find_transfer(1)->end_ns, 30u);
  EXPECT_EQ(log.events().size(), 1u);  // no CopyDone
}

TEST(EventLog, FindTransferAndClear) {
  EventLog log;
  for (int i = 0; i < 5; ++i) log.add_transfer(trace_test::transfer(0, Place::pinned(), Place::cuda(0), 100 + i, 0, 1));
  EXPECT_EQ(log.find_transfer(0), nullptr);
  EXPECT_EQ(log.find_transfer(3)->bytes, 102u);
  EXPECT_EQ(log.find_transfer(5)->bytes, 104u);
  EXPECT_EQ(log.find_transfer(6), nullptr);

  TransferRecord pending = trace_test::transfer(0, Place::pinned(), Place::cuda(0), 1, 0, 0);
  pending.complete = false;
  pending.backend_ticket = 3;
  log.add_transfer(pending);  // id 6
  log.clear();
  EXPECT_TRUE(log.events().empty());
  EXPECT_TRUE(log.transfers().empty());
  EXPECT_EQ(log.find_transfer(3), nullptr);
  log.complete_transfer(3, 1, 2, 0);  // dropped with the record: no event
  EXPECT_TRUE(log.events().empty());
  // Numbering goes on after clear().
  EXPECT_EQ(log.last_seq(), 6u);
  EXPECT_EQ(log.add_transfer(trace_test::transfer(0, Place::cuda(0), Place::pinned(), 55, 0, 1)), 7u);
  EXPECT_EQ(log.events().front().seq, 7u);
  EXPECT_EQ(log.find_transfer(7)->bytes, 55u);
  EXPECT_EQ(log.find_transfer(6), nullptr);
}

TEST(EventLog, Names) {
  EXPECT_STREQ(ds::event_kind_name(EventKind::Alloc), "alloc");
  EXPECT_STREQ(ds::event_kind_name(EventKind::CopyDone), "copy-done");
  EXPECT_STREQ(ds::event_kind_name(EventKind::ModuleMoveBegin), "module-move-begin");
  EXPECT_STREQ(ds::event_kind_name(EventKind::Note), "note");
  EXPECT_STREQ(ds::role_name(ds::Role::Parameter), "parameter");
  EXPECT_STREQ(ds::role_name(ds::Role::PlainAttribute), "plain-attribute");
  EXPECT_STREQ(ds::role_name(ds::Role::PinnedStaging), "pinned-staging");
  EXPECT_STREQ(ds::role_name(ds::Role::OptimizerState), "optimizer-state");
}
