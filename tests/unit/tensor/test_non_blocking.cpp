// non_blocking copies on the simulated devices: the D2H-into-pinned hazard and transfer records (SEMANTICS §2).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "tensor_test_util.h"

using namespace ds;
using ds::testing::cpu_floats;
using ds::testing::read_floats;
using ds::testing::sim_runtime;

TEST(NonBlocking, DeviceToHostLandsInPinnedMemoryAndIsStaleUntilSync) {
  auto rt = sim_runtime();
  TensorPtr g = cuda(*rt, cpu_floats(*rt, {7, 8, 9}));
  TensorPtr h = to(*rt, g, {.device = Device(DeviceType::CPU), .non_blocking = true});
  EXPECT_TRUE(h->is_pinned());
  EXPECT_EQ(read_floats(*rt, h), (std::vector<float>{0, 0, 0}));  // the copy has not run yet
  const TransferRecord& r = rt->log().transfers().back();
  EXPECT_TRUE(r.async);
  EXPECT_FALSE(r.complete);
  rt->synchronize();
  EXPECT_EQ(read_floats(*rt, h), (std::vector<float>{7, 8, 9}));
  const TransferRecord& done = rt->log().transfers().back();
  EXPECT_TRUE(done.complete);
  EXPECT_GT(done.end_ns, done.start_ns);
}

TEST(NonBlocking, BlockingDeviceToHostIsPageableAndComplete) {
  auto rt = sim_runtime();
  TensorPtr g = cuda(*rt, cpu_floats(*rt, {1, 2}));
  TensorPtr h = cpu(*rt, g);
  EXPECT_FALSE(h->is_pinned());
  EXPECT_EQ(read_floats(*rt, h), (std::vector<float>{1, 2}));
  EXPECT_TRUE(rt->log().transfers().back().complete);
}

TEST(NonBlocking, PageableHostToDeviceIsStagedAndWaitsForTheHost) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2, 3, 4});
  TensorPtr g = cuda(*rt, t, std::nullopt, /*non_blocking=*/true);
  const TransferRecord& r = rt->log().transfers().back();
  EXPECT_EQ(r.route, Route::StagedPinned);
  EXPECT_FALSE(r.async);
  EXPECT_TRUE(r.non_blocking);
  EXPECT_EQ(r.bytes, 16u);
  EXPECT_EQ(r.src.str(), "pageable");
  EXPECT_EQ(r.dst.str(), "cuda:0");
  EXPECT_TRUE(r.simulated);
}

TEST(NonBlocking, PinnedHostToDeviceIsAsync) {
  auto rt = sim_runtime();
  TensorPtr p = pin_memory(*rt, cpu_floats(*rt, {5, 6}));
  TensorPtr g = cuda(*rt, p, std::nullopt, true);
  const TransferRecord& r = rt->log().transfers().back();
  EXPECT_EQ(r.route, Route::Direct);
  EXPECT_TRUE(r.async);
  EXPECT_EQ(read_floats(*rt, g), (std::vector<float>{5, 6}));  // reading device memory orders after the copy
}

TEST(Transfers, RecordTheOwnerPassedWithTheCopyAndStorages) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1});
  t->storage()->set_owner("x");
  TensorPtr g = cuda(*rt, t, std::nullopt, false, CopyOrigin{"model.linear.weight", Role::Tensor});
  const TransferRecord& r = rt->log().transfers().back();
  EXPECT_EQ(r.owner, "model.linear.weight");
  EXPECT_EQ(r.src_storage, t->storage()->id());
  EXPECT_EQ(r.dst_storage, g->storage()->id());
  EXPECT_EQ(g->storage()->moved_from(), t->storage()->id());
  // Nothing stays behind in the runtime: the next copy without an origin is named by its source.
  cuda(*rt, t);
  EXPECT_EQ(rt->log().transfers().back().owner, "x");
}

TEST(Transfers, PeerCopyBetweenDevices) {
  auto rt = sim_runtime();
  TensorPtr a = cuda(*rt, cpu_floats(*rt, {3}), 0);
  TensorPtr b = cuda(*rt, a, 1);
  EXPECT_EQ(rt->log().transfers().back().route, Route::Peer);
  EXPECT_EQ(read_floats(*rt, b), (std::vector<float>{3}));
}
