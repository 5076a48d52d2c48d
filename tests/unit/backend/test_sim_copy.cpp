// Simulated copies: bytes, routes, the modelled clock, the non_blocking D2H hazard, stream order.
#include <gtest/gtest.h>

#include <cmath>
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

// Durations of 1 MiB on pcie4-x16 (see test_link_profile.cpp for the arithmetic).
constexpr uint64_t kH2DPinned1M = 49943, kD2HPinned1M = 48330, kH2DPageable1M = 99381,
                   kD2HPageable1M = 116858, kD2D1M = 5498, kP2P1M = 57663;

class SimCopy : public ::testing::Test {
 protected:
  SimBackend b{2, kGiB};
  void* dev0 = b.device_alloc(0, kMiB, false);
  void* dev0b = b.device_alloc(0, kMiB, false);
  void* dev1 = b.device_alloc(1, kMiB, false);
  void* pin = b.pinned_alloc(kMiB);
  void* pin2 = b.pinned_alloc(kMiB);
  std::vector<unsigned char> pageable = std::vector<unsigned char>(kMiB, 0);
};

TEST_F(SimCopy, BlockingH2DMovesBytesAndAdvancesClockByTheModelledDuration) {
  std::memset(pin, 0x11, kMiB);
  CopyTiming t = b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB));
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x11));
  EXPECT_TRUE(t.complete);
  EXPECT_FALSE(t.async);
  EXPECT_TRUE(t.simulated);
  EXPECT_EQ(t.route, Route::Direct);
  EXPECT_EQ(t.enqueue_ns, 0u);
  EXPECT_EQ(t.start_ns, 0u);
  EXPECT_EQ(t.end_ns, kH2DPinned1M);
  EXPECT_GT(t.measured_ns, 0.0);
  EXPECT_EQ(b.now_ns(), kH2DPinned1M);
  // The next one starts where the host is now.
  CopyTiming u = b.copy(request(pin2, Place::pinned(), dev0, Place::cuda(0), kMiB));
  EXPECT_TRUE(all_bytes(pin2, kMiB, 0x11));
  EXPECT_EQ(u.start_ns, kH2DPinned1M);
  EXPECT_EQ(u.end_ns, kH2DPinned1M + kD2HPinned1M);
  EXPECT_EQ(b.now_ns(), kH2DPinned1M + kD2HPinned1M);
  EXPECT_NE(t.ticket, u.ticket);
  EXPECT_TRUE(b.take_completed().empty());  // blocking copies were complete when returned
}

TEST_F(SimCopy, NonBlockingD2HShowsStaleDataUntilStreamSynchronize) {
  b.memset(0, dev0, 0xAB, kMiB);
  std::memset(pin, 0x00, kMiB);
  CopyTiming t = b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, /*non_blocking=*/true));
  EXPECT_FALSE(t.complete);
  EXPECT_TRUE(t.async);
  EXPECT_EQ(t.route, Route::Direct);
  EXPECT_EQ(t.start_ns, 0u);
  EXPECT_EQ(t.end_ns, kD2HPinned1M);
  EXPECT_EQ(b.now_ns(), SimBackend::kLaunchOverheadNs);  // the host only paid the launch
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x00));               // stale: nothing landed yet
  EXPECT_EQ(b.pending_ops(), 1u);
  EXPECT_TRUE(b.take_completed().empty());
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x00));  // asking does not make it land
  b.synchronize_stream(0, kDefaultStream);
  EXPECT_EQ(b.now_ns(), kD2HPinned1M);
  EXPECT_TRUE(all_bytes(pin, kMiB, 0xAB));
  auto done = b.take_completed();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].ticket, t.ticket);
  EXPECT_TRUE(done[0].complete);
  EXPECT_TRUE(done[0].async);
  EXPECT_EQ(done[0].start_ns, 0u);
  EXPECT_EQ(done[0].end_ns, kD2HPinned1M);
  EXPECT_GT(done[0].measured_ns, 0.0);
  EXPECT_TRUE(b.take_completed().empty());  // reported once
}

TEST_F(SimCopy, NonBlockingD2HLandsOnDeviceSynchronizeToo) {
  b.memset(0, dev0, 0x42, kMiB);
  std::memset(pin, 0, kMiB);
  StreamId s = b.create_stream(0);
  EXPECT_EQ(s, 1);
  b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true, 0, s));
  EXPECT_TRUE(all_bytes(pin, kMiB, 0));
  b.synchronize_stream(0, kDefaultStream);  // another stream: does not wait for it
  EXPECT_TRUE(all_bytes(pin, kMiB, 0));
  EXPECT_EQ(b.now_ns(), SimBackend::kLaunchOverheadNs);
  b.synchronize_device(0);
  EXPECT_EQ(b.now_ns(), kD2HPinned1M);
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x42));
}

TEST_F(SimCopy, AsyncCopyLandsOnceHostTimePassesItsEnd) {
  b.memset(0, dev0, 0x33, kMiB);
  std::memset(pin, 0, kMiB);
  b.copy(request(pin, Place::pinned(), dev0, Place::cuda(0), kMiB, true));
  b.advance_host_ns(kD2HPinned1M - SimBackend::kLaunchOverheadNs - 1);  // 1 ns short
  EXPECT_TRUE(all_bytes(pin, kMiB, 0));
  b.advance_host_ns(1);
  EXPECT_EQ(b.now_ns(), kD2HPinned1M);
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x33));
  EXPECT_EQ(b.take_completed().size(), 1u);
}

TEST_F(SimCopy, WritingThePinnedSourceBeforeAnAsyncH2DLandsChangesWhatArrives) {
  std::memset(pin, 0x01, kMiB);
  b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true));
  std::memset(pin, 0x02, kMiB);  // the hazard the caching host allocator guards against
  b.synchronize_device(0);
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x02));
}

TEST_F(SimCopy, BlockingCopyAfterAsyncOnSameStreamCompletesItFirst) {
  std::memset(pin, 0x77, kMiB);
  CopyTiming a = b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true));
  EXPECT_EQ(a.end_ns, kH2DPinned1M);
  // Blocking D2H of the same device buffer: stream order means it reads the async copy's bytes.
  CopyTiming c = b.copy(request(pin2, Place::pinned(), dev0, Place::cuda(0), kMiB));
  EXPECT_EQ(c.start_ns, kH2DPinned1M);  // queued behind the async copy
  EXPECT_EQ(c.enqueue_ns, SimBackend::kLaunchOverheadNs);
  EXPECT_EQ(c.end_ns, kH2DPinned1M + kD2HPinned1M);
  EXPECT_EQ(b.now_ns(), c.end_ns);
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x77));
  EXPECT_TRUE(all_bytes(pin2, kMiB, 0x77));
  auto done = b.take_completed();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].ticket, a.ticket);
  EXPECT_EQ(done[0].end_ns, kH2DPinned1M);
  EXPECT_TRUE(b.take_completed().empty());
}

TEST_F(SimCopy, AsyncCopiesOnOneStreamQueueBackToBack) {
  CopyTiming a = b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true));
  CopyTiming c = b.copy(request(dev0b, Place::cuda(0), pin2, Place::pinned(), kMiB, true));
  EXPECT_EQ(c.enqueue_ns, SimBackend::kLaunchOverheadNs);
  EXPECT_EQ(c.start_ns, a.end_ns);
  EXPECT_EQ(c.end_ns, 2 * kH2DPinned1M);
  EXPECT_EQ(b.now_ns(), 2 * SimBackend::kLaunchOverheadNs);
  EXPECT_EQ(b.stream_busy_until(0, kDefaultStream), 2 * kH2DPinned1M);
  // A second stream does not wait for the first.
  StreamId s = b.create_stream(0);
  CopyTiming d = b.copy(request(pin2, Place::pinned(), dev1, Place::cuda(1), kMiB, true, 0, s));
  EXPECT_EQ(d.start_ns, 2 * SimBackend::kLaunchOverheadNs);
  b.synchronize_device(0);
  auto done = b.take_completed();
  ASSERT_EQ(done.size(), 3u);  // in landing order
  EXPECT_EQ(done[0].ticket, a.ticket);
  EXPECT_EQ(done[1].ticket, d.ticket);
  EXPECT_EQ(done[2].ticket, c.ticket);
}

TEST_F(SimCopy, PageableH2DNonBlockingIsBlockingForTheHostAndStaged) {
  std::memset(pageable.data(), 0x5C, kMiB);
  CopyTiming t = b.copy(request(dev0, Place::cuda(0), pageable.data(), Place::pageable(), kMiB, true));
  EXPECT_EQ(t.route, Route::StagedPinned);
  EXPECT_TRUE(t.complete);
  EXPECT_FALSE(t.async);
  EXPECT_EQ(t.end_ns, kH2DPageable1M);
  EXPECT_EQ(b.now_ns(), kH2DPageable1M);
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x5C));
  EXPECT_TRUE(b.take_completed().empty());
}

TEST_F(SimCopy, PageableD2HIsStagedAndBlocking) {
  b.memset(0, dev0, 0x6D, kMiB);
  CopyTiming t = b.copy(request(pageable.data(), Place::pageable(), dev0, Place::cuda(0), kMiB, true));
  EXPECT_EQ(t.route, Route::StagedPinned);
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(b.now_ns(), kD2HPageable1M);
  EXPECT_TRUE(all_bytes(pageable.data(), kMiB, 0x6D));
}

TEST_F(SimCopy, DeviceToDeviceRoutes) {
  b.memset(0, dev0, 0x21, kMiB);
  CopyTiming same = b.copy(request(dev0b, Place::cuda(0), dev0, Place::cuda(0), kMiB));
  EXPECT_EQ(same.route, Route::Direct);
  EXPECT_EQ(same.end_ns - same.start_ns, kD2D1M);
  EXPECT_TRUE(all_bytes(dev0b, kMiB, 0x21));
  CopyTiming peer = b.copy(request(dev1, Place::cuda(1), dev0, Place::cuda(0), kMiB));
  EXPECT_EQ(peer.route, Route::Peer);
  EXPECT_EQ(peer.end_ns - peer.start_ns, kP2P1M);
  EXPECT_TRUE(all_bytes(dev1, kMiB, 0x21));
  EXPECT_EQ(b.now_ns(), kD2D1M + kP2P1M);
}

TEST_F(SimCopy, HostToHostIsARealMemcpyThatLeavesTheModelledClock) {
  std::memset(pageable.data(), 0x0F, kMiB);
  CopyTiming t = b.copy(request(pin, Place::pinned(), pageable.data(), Place::pageable(), kMiB));
  EXPECT_TRUE(all_bytes(pin, kMiB, 0x0F));
  EXPECT_FALSE(t.simulated);
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(t.route, Route::Direct);
  EXPECT_GT(t.measured_ns, 0.0);
  EXPECT_EQ(t.end_ns - t.start_ns, uint64_t(std::llround(t.measured_ns)));
  EXPECT_EQ(b.now_ns(), 0u);
}

TEST_F(SimCopy, VirtualCopiesAreTimedButMoveNothing) {
  void* v = b.device_alloc(0, 64 * kMiB, true);
  ASSERT_NE(v, nullptr);
  CopyRequest r = request(v, Place::cuda(0), pin, Place::pinned(), 64 * kMiB);
  r.virtual_bytes = true;
  CopyTiming t = b.copy(r);  // would fault if it touched `v`
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(t.measured_ns, 0.0);
  EXPECT_EQ(b.now_ns(), 2692355u);
  r.non_blocking = true;
  CopyTiming u = b.copy(r);
  EXPECT_FALSE(u.complete);
  b.synchronize_device(0);
  EXPECT_EQ(b.take_completed().size(), 1u);
}

TEST_F(SimCopy, MemsetQueuesBehindPendingWorkOnTheDefaultStream) {
  std::memset(pin, 0x01, kMiB);
  b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true));
  b.memset(0, dev0, 0x09, kMiB);  // in stream order: after the copy lands
  EXPECT_EQ(b.pending_ops(), 2u);
  b.synchronize_stream(0, kDefaultStream);
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x09));
  EXPECT_EQ(b.take_completed().size(), 1u);  // the fill is not a copy
}

TEST_F(SimCopy, EventsFollowTheModelledClock) {
  EventId idle = b.record_event(0, kDefaultStream);
  EXPECT_TRUE(b.event_done(idle));  // nothing queued: done at once
  std::memset(pin, 0x44, kMiB);
  StreamId s = b.create_stream(0);
  b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true, 0, s));
  EventId e = b.record_event(0, s);
  EXPECT_EQ(e.device, 0);
  EXPECT_FALSE(b.event_done(e));
  b.advance_host_ns(kH2DPinned1M - SimBackend::kLaunchOverheadNs - 1);
  EXPECT_FALSE(b.event_done(e));
  EXPECT_FALSE(all_bytes(dev0, kMiB, 0x44));
  b.advance_host_ns(1);
  EXPECT_TRUE(b.event_done(e));  // host time passed the event: the copy before it has landed
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x44));
}

TEST_F(SimCopy, SynchronizeEventWaitsExactlyForTheCopiesBeforeIt) {
  std::memset(pin, 0x45, kMiB);
  b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), kMiB, true));
  EventId e = b.record_event(0, kDefaultStream);
  b.copy(request(dev0b, Place::cuda(0), pin, Place::pinned(), kMiB, true));  // after the event
  b.synchronize_event(e);
  EXPECT_EQ(b.now_ns(), kH2DPinned1M);
  EXPECT_TRUE(all_bytes(dev0, kMiB, 0x45));
  EXPECT_FALSE(all_bytes(dev0b, kMiB, 0x45));
  EXPECT_TRUE(b.event_done(e));
  EXPECT_EQ(b.take_completed().size(), 1u);
  EXPECT_THROW(b.event_done(EventId{0, 999}), Error);
  EXPECT_THROW(b.event_done(EventId{1, e.id}), Error);
}

TEST_F(SimCopy, FreeingMemoryWithAQueuedCopyLandsItFirst) {
  void* p = b.pinned_alloc(kMiB);
  b.copy(request(p, Place::pinned(), dev0, Place::cuda(0), kMiB, true));
  b.pinned_free(p, kMiB);  // must not land later in unmapped memory
  EXPECT_EQ(b.pending_ops(), 0u);
  EXPECT_EQ(b.now_ns(), kD2HPinned1M);
}

TEST_F(SimCopy, DeviceFreeSynchronizesTheDeviceLikeCudaFree) {
  StreamId s = b.create_stream(0);
  b.copy(request(pin, Place::pinned(), dev0b, Place::cuda(0), kMiB, true, 0, s));
  b.device_free(0, dev0, kMiB, false);  // an unrelated buffer: the device still synchronizes
  EXPECT_EQ(b.now_ns(), kD2HPinned1M);
  EXPECT_EQ(b.pending_ops(), 0u);
  EXPECT_EQ(b.used_bytes(0), kMiB);
}

TEST_F(SimCopy, BadStreamAndNullPointersRaise) {
  try {
    b.copy(request(dev0, Place::cuda(0), pin, Place::pinned(), 16, false, 0, 7));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "CUDA error: invalid resource handle");
  }
  EXPECT_THROW(b.copy(request(nullptr, Place::cuda(0), pin, Place::pinned(), 16)), Error);
  EXPECT_THROW(b.copy(request(dev0, Place::cuda(5), pin, Place::pinned(), 16)), Error);
  EXPECT_EQ(b.now_ns(), 0u);
}

}  // namespace
}  // namespace ds
