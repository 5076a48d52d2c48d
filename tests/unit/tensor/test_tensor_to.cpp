// Tensor.to / cuda / cpu / pin_memory identity rules and index-less `cuda` resolution (SEMANTICS §1, §2).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "tensor_test_util.h"

using namespace ds;
using ds::testing::cpu_floats;
using ds::testing::read_floats;
using ds::testing::sim_runtime;

TEST(TensorTo, ReturnsSelfWhenNothingChanges) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2, 3});
  EXPECT_EQ(to(*rt, t, {}), t);
  EXPECT_EQ(to(*rt, t, {.device = Device(DeviceType::CPU)}), t);
  EXPECT_EQ(to(*rt, t, {.dtype = DType::Float32}), t);
  EXPECT_NE(to(*rt, t, {.dtype = DType::Float32, .copy = true}), t);
  // `cpu:0` is not equal to the tensor's `cpu`, so PyTorch copies (and the copy prints as cpu).
  TensorPtr c = to(*rt, t, {.device = Device(DeviceType::CPU, 0)});
  EXPECT_NE(c, t);
  EXPECT_EQ(c->device().str(), "cpu");
}

TEST(TensorTo, IsOutOfPlace) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2, 3});
  const uint64_t storage_before = t->storage()->id();
  TensorPtr g = cuda(*rt, t);
  EXPECT_NE(g, t);
  EXPECT_EQ(t->device().str(), "cpu");
  EXPECT_EQ(t->storage()->id(), storage_before);
  EXPECT_EQ(g->device().str(), "cuda:0");
  EXPECT_EQ(read_floats(*rt, g), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(cuda(*rt, g), g);  // already there
  EXPECT_EQ(cpu(*rt, t), t);
}

TEST(TensorTo, IndexlessCudaResolvesToCurrentDevice) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {4});
  TensorPtr on1 = to(*rt, t, {.device = Device::parse("cuda:1")});
  EXPECT_EQ(on1->device().str(), "cuda:1");
  // Current device is 0: `.to("cuda")` on a cuda:1 tensor copies to cuda:0.
  TensorPtr moved = to(*rt, on1, {.device = Device::parse("cuda")});
  EXPECT_NE(moved, on1);
  EXPECT_EQ(moved->device().str(), "cuda:0");
  rt->set_current_device(1);
  EXPECT_EQ(to(*rt, on1, {.device = Device::parse("cuda")}), on1);
  EXPECT_EQ(cuda(*rt, t)->device().str(), "cuda:1");
}

TEST(TensorTo, BadDeviceOrdinalAndCudaOff) {
  auto rt = sim_runtime(2);
  TensorPtr t = cpu_floats(*rt, {4});
  try {
    to(*rt, t, {.device = Device::parse("cuda:5")});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("CUDA error: invalid device ordinal\n", 0), 0u);
  }
  auto off = sim_runtime(0);
  TensorPtr u = cpu_floats(*off, {4});
  try {
    cuda(*off, u);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "No CUDA GPUs are available");
  }
}

TEST(TensorTo, DtypeConversionKeepsValuesAndDevice) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1.5f, -2.25f, 3});
  TensorPtr h = to(*rt, t, {.device = Device::parse("cuda:0"), .dtype = DType::Float16});
  EXPECT_EQ(h->dtype(), DType::Float16);
  EXPECT_EQ(h->device().str(), "cuda:0");
  EXPECT_EQ(read_floats(*rt, h), (std::vector<float>{1.5f, -2.25f, 3}));
  TensorPtr l = to(*rt, t, {.dtype = DType::Int64});
  std::vector<int64_t> ints(3);
  std::memcpy(ints.data(), host_readable(*rt, l), 24);
  EXPECT_EQ(ints, (std::vector<int64_t>{1, -2, 3}));  // truncation toward zero
}

TEST(TensorTo, NonContiguousDenseKeepsStrides) {
  auto rt = sim_runtime();
  TensorPtr base = empty(*rt, {3, 2}, DType::Float32, Device(DeviceType::CPU));
  TensorPtr tr = as_strided(base, {2, 3}, {1, 2}, 0);  // base.t()
  TensorPtr d = to(*rt, tr, {.dtype = DType::Float64});
  EXPECT_EQ(d->strides(), (Shape{1, 2}));  // preserve_format, as PyTorch
}

TEST(PinMemory, ReturnsSelfOrNewPinnedCpuTensor) {
  auto rt = sim_runtime();
  TensorPtr t = cpu_floats(*rt, {1, 2});
  EXPECT_FALSE(t->is_pinned());
  TensorPtr p = pin_memory(*rt, t);
  EXPECT_NE(p, t);
  EXPECT_TRUE(p->is_pinned());
  EXPECT_EQ(p->device().str(), "cpu");
  EXPECT_EQ(pin_memory(*rt, p), p);
  EXPECT_EQ(read_floats(*rt, p), (std::vector<float>{1, 2}));
  TensorPtr g = cuda(*rt, t);
  EXPECT_FALSE(g->is_pinned());
  EXPECT_THROW(pin_memory(*rt, g), Error);
  EXPECT_EQ(p->storage()->role(), Role::PinnedStaging);
  EXPECT_EQ(cuda(*rt, p)->storage()->role(), Role::Tensor);  // the device copy is not staging memory
}
