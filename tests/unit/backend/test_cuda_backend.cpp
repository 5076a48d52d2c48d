// The real CUDA backend on a real GPU: round trips, pinned memory, event timings, async completion.
// Compiled when the toolkit exists; every test skips with the probe's reason when no GPU answers.
#ifdef DEVICESCOPE_HAVE_CUDA

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "backend/cuda_backend.h"
#include "backend/cuda_pcie_link.h"
#include "backend/virtual_address.h"
#include "core/errors.h"
#include "sim_test_util.h"

namespace ds {
namespace {

using test::all_bytes;
using test::kMiB;
using test::request;

class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
    b = std::make_unique<CudaBackend>();
  }
  std::unique_ptr<CudaBackend> b;
};

TEST(CudaPcieLink, GenerationFromSysfsText) {
  EXPECT_EQ(pcie_generation("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_generation("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_generation("8.0 GT/s PCIe"), 3);
  EXPECT_EQ(pcie_generation("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(pcie_generation(""), 0);
}

TEST_F(CudaBackendTest, PropsAndCaps) {
  ASSERT_GT(b->device_count(), 0);
  EXPECT_EQ(b->name(), "cuda");
  EXPECT_FALSE(b->caps().simulated);
  EXPECT_TRUE(b->caps().async_copy);
  EXPECT_TRUE(b->caps().pinned_host);
  const DeviceProps p = b->props(0);
  EXPECT_FALSE(p.name.empty());
  EXPECT_GT(p.total_bytes, 0u);
  EXPECT_FALSE(p.simulated);
  EXPECT_FALSE(p.link.empty());
  EXPECT_NO_THROW(find_link_profile(b->link().name));
  EXPECT_GT(b->device_free_bytes(0), 0u);
  EXPECT_THROW(b->props(b->device_count()), Error);
}

TEST_F(CudaBackendTest, BlockingRoundTripThroughPinnedMemory) {
  void* dev = b->device_alloc(0, kMiB, false);
  void* src = b->pinned_alloc(kMiB);
  void* dst = b->pinned_alloc(kMiB);
  ASSERT_NE(dev, nullptr);
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  std::memset(src, 0x3C, kMiB);
  std::memset(dst, 0, kMiB);
  CopyTiming up = b->copy(request(dev, Place::cuda(0), src, Place::pinned(), kMiB));
  CopyTiming down = b->copy(request(dst, Place::pinned(), dev, Place::cuda(0), kMiB));
  EXPECT_TRUE(all_bytes(dst, kMiB, 0x3C));
  for (const CopyTiming& t : {up, down}) {
    EXPECT_TRUE(t.complete);
    EXPECT_FALSE(t.async);
    EXPECT_FALSE(t.simulated);
    EXPECT_EQ(t.route, Route::Direct);
    EXPECT_GT(t.measured_ns, 0.0);  // event-timed
    EXPECT_GE(t.start_ns, t.enqueue_ns);
    EXPECT_GT(t.end_ns, t.start_ns);
    EXPECT_LE(t.end_ns, b->now_ns());
  }
  EXPECT_GE(down.start_ns, up.end_ns);
  b->pinned_free(src, kMiB);
  b->pinned_free(dst, kMiB);
  b->device_free(0, dev, kMiB, false);
}

TEST_F(CudaBackendTest, PageableRoundTripIsStaged) {
  void* dev = b->device_alloc(0, kMiB, false);
  ASSERT_NE(dev, nullptr);
  std::vector<unsigned char> src(kMiB, 0x5A), dst(kMiB, 0);
  CopyTiming up = b->copy(request(dev, Place::cuda(0), src.data(), Place::pageable(), kMiB, true));
  CopyTiming down = b->copy(request(dst.data(), Place::pageable(), dev, Place::cuda(0), kMiB));
  EXPECT_EQ(up.route, Route::StagedPinned);
  EXPECT_FALSE(up.async);
  EXPECT_EQ(down.route, Route::StagedPinned);
  EXPECT_TRUE(all_bytes(dst.data(), kMiB, 0x5A));
  b->synchronize_device(0);
  b->take_completed();
  b->device_free(0, dev, kMiB, false);
}

TEST_F(CudaBackendTest, NonBlockingD2HCompletesAfterSynchronize) {
  const size_t n = 64 * kMiB;
  void* dev = b->device_alloc(0, n, false);
  void* host = b->pinned_alloc(n);
  ASSERT_NE(dev, nullptr);
  ASSERT_NE(host, nullptr);
  b->memset(0, dev, 0x7E, n);
  std::memset(host, 0, n);
  StreamId s = b->create_stream(0);
  b->synchronize_device(0);  // the memset is on the default stream; s does not wait for it
  CopyTiming t = b->copy(request(host, Place::pinned(), dev, Place::cuda(0), n, true, 0, s));
  EXPECT_TRUE(t.async);
  EXPECT_FALSE(t.complete);
  EventId e = b->record_event(0, s);
  b->synchronize_stream(0, s);
  EXPECT_TRUE(b->event_done(e));
  EXPECT_TRUE(all_bytes(host, n, 0x7E));
  auto done = b->take_completed();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].ticket, t.ticket);
  EXPECT_TRUE(done[0].complete);
  EXPECT_GT(done[0].measured_ns, 0.0);
  EXPECT_GT(done[0].end_ns, done[0].start_ns);
  EXPECT_TRUE(b->take_completed().empty());
  b->synchronize_event(e);  // already done: fine
  b->pinned_free(host, n);
  b->device_free(0, dev, n, false);
}

TEST_F(CudaBackendTest, StreamWaitEventOrdersAnotherStreamWithoutBlockingTheHost) {
  const size_t n = 256 * kMiB;  // several ms over PCIe: far longer than the calls between
  void* dev = b->device_alloc(0, n, false);
  void* src = b->pinned_alloc(n);
  void* dst = b->pinned_alloc(n);
  ASSERT_NE(dev, nullptr);
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  std::memset(src, 0x5A, n);
  std::memset(dst, 0, n);
  b->memset(0, dev, 0, n);
  b->synchronize_device(0);
  const StreamId a = b->create_stream(0);
  const StreamId s = b->create_stream(0);
  CopyTiming up = b->copy(request(dev, Place::cuda(0), src, Place::pinned(), n, true, 0, a));
  const EventId e = b->record_event(0, a);
  b->stream_wait_event(0, s, e);
  EXPECT_FALSE(b->event_done(e));  // the host returned from the wait while the copy still runs
  // Queued on s after the wait: reads what a's copy wrote (without the wait it would race with it).
  CopyTiming down = b->copy(request(dst, Place::pinned(), dev, Place::cuda(0), n, true, 0, s));
  EXPECT_TRUE(up.async);
  EXPECT_TRUE(down.async);
  b->synchronize_stream(0, s);
  EXPECT_TRUE(b->event_done(e));  // s could not finish before the event
  EXPECT_TRUE(all_bytes(dst, n, 0x5A));
  auto done = b->take_completed();
  ASSERT_EQ(done.size(), 2u);
  const CopyTiming& first = done[0].ticket == up.ticket ? done[0] : done[1];
  const CopyTiming& second = done[0].ticket == up.ticket ? done[1] : done[0];
  EXPECT_EQ(second.ticket, down.ticket);
  EXPECT_GE(second.start_ns + 1000, first.end_ns);  // started after it (event times round to ~0.5 us)
  b->stream_wait_event(0, s, e);  // already seen done: nothing left to wait for, no error
  if (b->device_count() >= 2) {
    // A stream of another device may wait for the event (cudaStreamWaitEvent allows it).
    b->copy(request(dev, Place::cuda(0), src, Place::pinned(), n, true, 0, a));
    const EventId e2 = b->record_event(0, a);
    EXPECT_NO_THROW(b->stream_wait_event(1, kDefaultStream, e2));
    b->synchronize_device(1);
    EXPECT_TRUE(b->event_done(e2));
    b->synchronize_device(0);
    b->take_completed();
  }
  b->pinned_free(src, n);
  b->pinned_free(dst, n);
  b->device_free(0, dev, n, false);
}

TEST_F(CudaBackendTest, DeviceToDeviceAndPeer) {
  void* a = b->device_alloc(0, kMiB, false);
  void* c = b->device_alloc(0, kMiB, false);
  void* host = b->pinned_alloc(kMiB);
  b->memset(0, a, 0x19, kMiB);
  CopyTiming t = b->copy(request(c, Place::cuda(0), a, Place::cuda(0), kMiB));
  EXPECT_EQ(t.route, Route::Direct);
  b->copy(request(host, Place::pinned(), c, Place::cuda(0), kMiB));
  EXPECT_TRUE(all_bytes(host, kMiB, 0x19));
  if (b->device_count() >= 2) {
    void* d = b->device_alloc(1, kMiB, false);
    CopyTiming p = b->copy(request(d, Place::cuda(1), a, Place::cuda(0), kMiB));
    EXPECT_EQ(p.route, b->can_access_peer(0, 1) ? Route::Peer : Route::StagedPinned);
    std::memset(host, 0, kMiB);
    b->copy(request(host, Place::pinned(), d, Place::cuda(1), kMiB, false, 1));
    EXPECT_TRUE(all_bytes(host, kMiB, 0x19));
    b->device_free(1, d, kMiB, false);
  }
  b->pinned_free(host, kMiB);
  b->device_free(0, a, kMiB, false);
  b->device_free(0, c, kMiB, false);
}

TEST_F(CudaBackendTest, VirtualAndTooLargeAllocations) {
  EXPECT_EQ(b->device_alloc(0, size_t(1) << 52, false), nullptr);  // OOM is nullptr, not an error
  const uint64_t free_before = b->device_free_bytes(0);
  EXPECT_EQ(b->device_alloc(0, free_before + (1ull << 30), true), nullptr);
  void* v = b->device_alloc(0, 256 * kMiB, true);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(VirtualAddressSpace::contains(v));
  EXPECT_LE(b->device_free_bytes(0), free_before - 256 * kMiB + 64 * kMiB);  // others may allocate
  b->memset(0, v, 0, 256 * kMiB);  // no-op
  b->device_free(0, v, 256 * kMiB, true);
}

}  // namespace
}  // namespace ds

#endif  // DEVICESCOPE_HAVE_CUDA
