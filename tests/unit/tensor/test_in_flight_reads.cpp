// Note [Host reads of in-flight copies]: the destination of an async copy is in flight (StorageInfo::in_flight)
// until a sync point folds the copy, and a host read before that is kept on the copy (host_read_ns), so the
// views can show lesson 016's hazard instead of a tensor that looks the same before and after synchronize().
#include <gtest/gtest.h>

#include <algorithm>

#include "tensor_test_util.h"

using namespace ds;
using ds::testing::cpu_floats;
using ds::testing::read_floats;
using ds::testing::sim_runtime;

namespace {

const StorageInfo* info_of(const Snapshot& s, const TensorPtr& t) {
  auto it = std::find_if(s.storages.begin(), s.storages.end(),
                         [&](const StorageInfo& i) { return i.id == t->storage()->id(); });
  return it == s.storages.end() ? nullptr : &*it;
}

}  // namespace

TEST(InFlight, DestinationOfAnUnsynchronisedCopyIsInFlightUntilSync) {
  auto rt = sim_runtime();
  TensorPtr g = cuda(*rt, cpu_floats(*rt, std::vector<float>(1 << 20, 7.0f)));
  TensorPtr h = to(*rt, g, {.device = Device(DeviceType::CPU), .non_blocking = true});
  Snapshot before = rt->snapshot();
  ASSERT_NE(info_of(before, h), nullptr);
  EXPECT_TRUE(info_of(before, h)->in_flight);
  EXPECT_FALSE(info_of(before, g)->in_flight);  // the source is not stale
  rt->synchronize();
  Snapshot after = rt->snapshot();
  EXPECT_FALSE(info_of(after, h)->in_flight);
}

TEST(InFlight, AHostReadBeforeTheCopyLandsIsKeptOnTheCopy) {
  auto rt = sim_runtime();
  TensorPtr g = cuda(*rt, cpu_floats(*rt, std::vector<float>(1 << 20, 7.0f)));
  TensorPtr h = to(*rt, g, {.device = Device(DeviceType::CPU), .non_blocking = true});
  const uint64_t id = rt->log().transfers().back().id;
  EXPECT_EQ(rt->log().find_transfer(id)->host_read_ns, 0u);
  const uint64_t now = rt->backend().now_ns();
  EXPECT_EQ(read_floats(*rt, h)[0], 0.0f);  // stale: the copy is still queued
  const TransferRecord* r = rt->log().find_transfer(id);
  EXPECT_FALSE(r->complete);
  EXPECT_GE(r->host_read_ns, now);
  EXPECT_LT(r->host_read_ns, r->end_ns);  // read before the modelled end: the hazard, on the copy's own clock
  const uint64_t first_read = r->host_read_ns;
  read_floats(*rt, h);  // the first read is what counts
  EXPECT_EQ(rt->log().find_transfer(id)->host_read_ns, first_read);
  rt->synchronize();
  EXPECT_EQ(read_floats(*rt, h)[0], 7.0f);
  EXPECT_TRUE(rt->log().find_transfer(id)->complete);
  EXPECT_EQ(rt->log().find_transfer(id)->host_read_ns, first_read);  // kept after the copy is folded
}

TEST(InFlight, ReadingAfterSyncOrAnotherTensorMarksNothing) {
  auto rt = sim_runtime();
  TensorPtr g = cuda(*rt, cpu_floats(*rt, std::vector<float>(1024, 3.0f)));
  TensorPtr other = pin_memory(*rt, cpu_floats(*rt, {1, 2}));
  TensorPtr h = to(*rt, g, {.device = Device(DeviceType::CPU), .non_blocking = true});
  const uint64_t id = rt->log().transfers().back().id;
  read_floats(*rt, other);  // a different pinned tensor: not the copy's destination
  EXPECT_EQ(rt->log().find_transfer(id)->host_read_ns, 0u);
  rt->synchronize();
  read_floats(*rt, h);
  EXPECT_EQ(rt->log().find_transfer(id)->host_read_ns, 0u);
  EXPECT_FALSE(info_of(rt->snapshot(), h)->in_flight);
}
