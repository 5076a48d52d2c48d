// Simulated cross-stream waits (cudaStreamWaitEvent): Stream.wait_event / wait_stream order later work on
// the waiting stream after the event, and the host does not wait (its modelled clock stays where it is).
#include <gtest/gtest.h>

#include <cstring>

#include "backend/sim_backend.h"
#include "core/errors.h"
#include "sim_test_util.h"

namespace ds {
namespace {

using test::all_bytes;
using test::kGiB;
using test::kMiB;
using test::request;

class SimStreamWait : public ::testing::Test {
 protected:
  static constexpr size_t kBig = 64 * kMiB;  // long enough that everything else fits inside its copy
  SimBackend b{2, kGiB};
  void* dev0 = b.device_alloc(0, kBig, false);
  void* dev1 = b.device_alloc(1, kMiB, false);
  void* pin_big = b.pinned_alloc(kBig);
  void* pin = b.pinned_alloc(kMiB);
  StreamId a = b.create_stream(0);
  StreamId s = b.create_stream(0);

  uint64_t h2d(size_t bytes) const { return LinkProfile::duration_ns(b.link().h2d_pinned, bytes); }
  uint64_t d2h(size_t bytes) const { return LinkProfile::duration_ns(b.link().d2h_pinned, bytes); }
};

TEST_F(SimStreamWait, LaterCopyOnTheWaitingStreamStartsWhenTheAwaitedCopyEndsAndTheHostDoesNotWait) {
  std::memset(pin_big, 0x5A, kBig);
  std::memset(pin, 0, kMiB);
  // A long H2D on stream a, then an event after it.
  const CopyTiming big = b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, a));
  ASSERT_EQ(big.end_ns, h2d(kBig));
  const EventId ev = b.record_event(0, a);

  const uint64_t before = b.now_ns();
  b.stream_wait_event(0, s, ev);
  EXPECT_EQ(b.now_ns(), before);                       // the host clock did not move at the wait
  EXPECT_FALSE(b.event_done(ev));                      // ... so the awaited copy is still running
  EXPECT_EQ(b.pending_ops(), 1u);
  EXPECT_EQ(b.stream_busy_until(0, s), big.end_ns);    // only the GPU stream waits

  // A D2H of the first MiB queued on s after the wait reads what a's copy wrote: it starts at its end.
  const CopyTiming back = b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true, 0, s));
  EXPECT_EQ(back.enqueue_ns, before);
  EXPECT_EQ(back.start_ns, big.end_ns);
  EXPECT_EQ(back.end_ns, big.end_ns + d2h(kMiB));
  EXPECT_EQ(b.now_ns(), before + SimBackend::kLaunchOverheadNs);  // the host only paid the launch
  EXPECT_TRUE(all_bytes(pin, kMiB, 0));                           // nothing landed yet

  b.synchronize_stream(0, s);
  EXPECT_EQ(b.now_ns(), back.end_ns);
  EXPECT_TRUE(b.event_done(ev));
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x5A));  // stream order across the two streams
  EXPECT_EQ(b.take_completed().size(), 2u);
}

TEST_F(SimStreamWait, WithoutTheWaitTheOtherStreamDoesNotWait) {
  // The control for the test above: streams have no implicit order, so the D2H starts at once.
  b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, a));
  const uint64_t now = b.now_ns();
  const CopyTiming back = b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true, 0, s));
  EXPECT_EQ(back.start_ns, now);
  b.synchronize_device(0);
}

TEST_F(SimStreamWait, WorkQueuedBeforeTheWaitIsNotDelayed) {
  const CopyTiming big = b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, a));
  const CopyTiming early = b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true, 0, s));
  const EventId ev = b.record_event(0, a);
  b.stream_wait_event(0, s, ev);
  EXPECT_LT(early.end_ns, big.end_ns);
  EXPECT_EQ(b.stream_busy_until(0, s), big.end_ns);
  b.synchronize_stream(0, s);  // now waits for the event too, as cudaStreamSynchronize would
  EXPECT_EQ(b.now_ns(), big.end_ns);
  EXPECT_EQ(b.take_completed().size(), 2u);
}

TEST_F(SimStreamWait, BlockingCopyAfterAWaitHoldsTheHostUntilTheAwaitedWorkAndItsOwnCopyEnd) {
  const CopyTiming big = b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, a));
  b.stream_wait_event(0, s, b.record_event(0, a));
  const CopyTiming t = b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, false, 0, s));
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(t.start_ns, big.end_ns);
  EXPECT_EQ(b.now_ns(), big.end_ns + d2h(kMiB));
}

TEST_F(SimStreamWait, AStreamOfAnotherDeviceCanWaitForTheEvent) {
  const CopyTiming big = b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, a));
  const EventId ev = b.record_event(0, a);
  const uint64_t before = b.now_ns();
  b.stream_wait_event(1, kDefaultStream, ev);  // device 1's default stream waits for device 0's event
  EXPECT_EQ(b.now_ns(), before);
  EXPECT_EQ(b.stream_busy_until(1, kDefaultStream), big.end_ns);
  const CopyTiming t = b.copy(request(dev1, Place::cuda(1), pin, Place::pinned(), kMiB, true, 1));
  EXPECT_EQ(t.start_ns, big.end_ns);
  b.synchronize_device(1);
  EXPECT_EQ(b.now_ns(), big.end_ns + h2d(kMiB));
}

TEST_F(SimStreamWait, WaitingForAPastEventChangesNothing) {
  const CopyTiming late = b.copy(request(dev0, Place::cuda(0), pin_big, Place::pinned(), kBig, true, 0, s));
  const EventId idle = b.record_event(0, a);  // a is idle: the event has already happened
  EXPECT_TRUE(b.event_done(idle));
  b.stream_wait_event(0, s, idle);
  EXPECT_EQ(b.stream_busy_until(0, s), late.end_ns);  // never moves a stream's busy-until back
  b.stream_wait_event(0, a, idle);
  EXPECT_LE(b.stream_busy_until(0, a), b.now_ns());  // at most "now": later work on a starts at once
  const uint64_t now = b.now_ns();
  EXPECT_EQ(b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true, 0, a)).start_ns, now);
  b.synchronize_device(0);
}

TEST_F(SimStreamWait, BadHandlesRaiseAndChangeNothing) {
  const EventId ev = b.record_event(0, a);
  EXPECT_THROW(b.stream_wait_event(0, s, EventId{0, 999}), Error);
  EXPECT_THROW(b.stream_wait_event(0, s, EventId{1, ev.id}), Error);  // the event belongs to device 0
  EXPECT_THROW(b.stream_wait_event(0, 99, ev), Error);
  EXPECT_THROW(b.stream_wait_event(2, kDefaultStream, ev), Error);
  EXPECT_EQ(b.stream_busy_until(0, s), 0u);
}

}  // namespace
}  // namespace ds
