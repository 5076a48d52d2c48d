// Views, .data, .detach() share storage; set_data keeps identity; virtual tensors; allocation errors (SEMANTICS §8, §9).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "tensor_test_util.h"

using namespace ds;
using ds::testing::cpu_floats;
using ds::testing::read_floats;
using ds::testing::sim_runtime;

TEST(Aliasing, ViewsAndDetachShareStorageAndVersion) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2, 3, 4});
  TensorPtr v = as_strided(t, {2}, {1}, 2);
  TensorPtr d = detach(t);
  EXPECT_EQ(v->storage(), t->storage());
  EXPECT_EQ(d->storage(), t->storage());
  EXPECT_EQ(read_floats(*rt, v), (std::vector<float>{3, 4}));
  copy_(*rt, v, cpu_floats(*rt, {9, 9}));
  EXPECT_EQ(read_floats(*rt, t), (std::vector<float>{1, 2, 9, 9}));
  EXPECT_EQ(t->version(), 1u);
  EXPECT_EQ(d->version(), 1u);
}

TEST(Aliasing, NothingFollowsABaseToAnotherDevice) {
  auto rt = sim_runtime();
  TensorPtr base = cpu_floats(*rt, {1, 2});
  TensorPtr view = as_strided(base, {1}, {1}, 0);
  TensorPtr moved = cuda(*rt, base);
  EXPECT_EQ(view->device().str(), "cpu");
  EXPECT_EQ(view->storage(), base->storage());
  EXPECT_NE(moved->storage(), base->storage());
}

TEST(Aliasing, SetDataKeepsIdentityOldHandlesKeepOldStorage) {
  auto rt = sim_runtime();
  TensorPtr param = cpu_floats(*rt, {1, 2});
  param->is_parameter = true;
  TensorPtr old_data = detach(param);  // p.data taken before the move
  TensorPtr moved = cuda(*rt, param);
  param->set_data(*moved);
  EXPECT_EQ(param->device().str(), "cuda:0");
  EXPECT_TRUE(param->is_parameter);
  EXPECT_EQ(old_data->device().str(), "cpu");
  EXPECT_EQ(read_floats(*rt, old_data), (std::vector<float>{1, 2}));
}

TEST(Aliasing, StorageFreedWithLastView) {
  auto rt = sim_runtime();
  const size_t before = rt->live_storage_count();
  {
    TensorPtr g = empty(*rt, {256}, DType::Float32, Device::parse("cuda:0"));
    EXPECT_EQ(rt->live_storage_count(), before + 1);
    EXPECT_EQ(rt->device_allocator(0).stats().allocated, 1024u);
  }
  EXPECT_EQ(rt->live_storage_count(), before);
  EXPECT_EQ(rt->device_allocator(0).stats().allocated, 0u);
  EXPECT_EQ(rt->device_allocator(0).stats().reserved, 2u << 20);  // cached, like PyTorch
}

TEST(Virtual, PlacedAndMovedButNeverRead) {
  auto rt = sim_runtime(2, 16ull << 30);
  // 10 GiB of bfloat16 "weights": accounted on the device, no host memory touched.
  TensorPtr w = empty(*rt, {5ll << 30}, DType::BFloat16, Device(DeviceType::CPU), false, true);
  TensorPtr g = cuda(*rt, w);
  EXPECT_TRUE(g->is_virtual());
  EXPECT_EQ(rt->device_allocator(0).stats().allocated, 10ull << 30);
  EXPECT_EQ(rt->log().transfers().back().bytes, 10ull << 30);
  try {
    host_readable(*rt, g);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("virtual tensor"), std::string::npos);
  }
  TensorPtr real = empty(*rt, {4}, DType::BFloat16, Device::parse("cuda:0"));
  EXPECT_THROW(copy_(*rt, real, as_strided(g, {4}, {1}, 0)), Error);
}

TEST(Allocation, OutOfMemoryOnASmallDevice) {
  auto rt = sim_runtime(1, 64ull << 20);
  try {
    empty(*rt, {100ll << 20}, DType::UInt8, Device::parse("cuda:0"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::OutOfMemoryError);
    EXPECT_EQ(std::string(e.what()).rfind("CUDA out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity of 64.00 MiB", 0), 0u) << e.what();
  }
}

TEST(Allocation, NegativeDimension) {
  auto rt = sim_runtime();
  try {
    empty(*rt, {2, -1}, DType::Float32, Device(DeviceType::CPU));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "Trying to create tensor with negative dimension -1: [2, -1]");
  }
}

TEST(Snapshot, ShowsPlacesStoragesAndTransfers) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2});
  t->storage()->set_owner("x");
  TensorPtr g = cuda(*rt, t);
  Snapshot s = rt->snapshot();
  ASSERT_EQ(s.places.size(), 4u);  // pageable, pinned, cuda:0, cuda:1
  EXPECT_EQ(s.places[2].label, "cuda:0");
  EXPECT_EQ(s.places[2].allocated, 512u);
  EXPECT_EQ(s.places[2].reserved, 2u << 20);
  EXPECT_TRUE(s.simulated);
  ASSERT_EQ(s.storages.size(), 2u);
  EXPECT_EQ(s.storages[1].place.str(), "cuda:0");
  EXPECT_EQ(s.storages[1].moved_from, s.storages[0].id);
  EXPECT_EQ(s.transfers.size(), 1u);
  bool block_tagged = false;
  for (const SegmentInfo& seg : s.segments)
    for (const BlockInfo& b : seg.blocks) block_tagged |= b.allocated && b.storage_id == g->storage()->id();
  EXPECT_TRUE(block_tagged);
}

TEST(Snapshot, HoldersComeFromThePythonPathsWhenGiven) {
  auto rt = sim_runtime();
  TensorPtr old_buffer = cpu_floats(*rt, {1, 2});
  TensorPtr moved = cuda(*rt, old_buffer);
  ObjectGraph g;
  g.holders.push_back({old_buffer->storage()->id(), {"stats[0]", "d['b']"}});  // reached through a list and a dict
  Snapshot s = rt->snapshot(g);
  ASSERT_EQ(s.storages.size(), 2u);
  EXPECT_EQ(s.storages[0].holders, (std::vector<std::string>{"stats[0]", "d['b']"}));
  EXPECT_EQ(s.storages[0].owner, "stats[0]");  // a plain tensor is called by the first name holding it
  EXPECT_TRUE(s.storages[1].holders.empty());
}

TEST(Roles, NewStoragesTakeTheRolePassedAndTheNonBlockingD2HLandingIsStaging) {
  auto rt = sim_runtime();
  // What the bindings pass while a module's forward runs.
  TensorPtr act = empty(*rt, {2}, DType::Float32, Device(DeviceType::CPU), false, false, Role::Activation);
  EXPECT_EQ(act->storage()->role(), Role::Activation);
  EXPECT_EQ(cpu_floats(*rt, {1})->storage()->role(), Role::Tensor);  // nothing stays behind in the runtime
  TensorPtr on_gpu = cuda(*rt, act);
  EXPECT_EQ(on_gpu->storage()->role(), Role::Activation);  // a moved tensor keeps its role
  ToOptions o;
  o.device = Device(DeviceType::CPU);
  o.non_blocking = true;
  TensorPtr back = to(*rt, on_gpu, o);
  EXPECT_TRUE(back->is_pinned());
  EXPECT_EQ(back->storage()->role(), Role::PinnedStaging);
  on_gpu->storage()->set_role(Role::Parameter);
  EXPECT_EQ(to(*rt, on_gpu, o)->storage()->role(), Role::Parameter);  // Module.cpu(non_blocking) keeps roles
  rt->synchronize();
}

TEST(Allocation, SizeOverflowIsRefusedLikePyTorch) {
  auto rt = sim_runtime();
  try {
    empty(*rt, {1ll << 40, 1ll << 40}, DType::Float32, Device(DeviceType::CPU));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
  }
  EXPECT_THROW(empty(*rt, {1ll << 61}, DType::Float64, Device::parse("cuda:0")), Error);
  EXPECT_THROW(empty(*rt, {1ll << 62, 8}, DType::Float32, Device::parse("cuda:0"), false, true), Error);
}
