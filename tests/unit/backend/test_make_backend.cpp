// Backend selection: "sim", "auto" falling back to simulated devices with a note, "cuda" without a GPU.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "core/errors.h"

namespace ds {
namespace {

TEST(MakeBackend, ProbeSaysWhyThereIsNoDevice) {
  std::string why;
  const int n = cuda_device_count(&why);
  if (n > 0) GTEST_SKIP() << "a CUDA device answered";
  EXPECT_EQ(n, 0);
#if DEVICESCOPE_HAVE_CUDA
  // The runtime's own answer, e.g. "cudaErrorInsufficientDriver: CUDA driver version is ..."
  EXPECT_EQ(why.rfind("cuda", 0), 0u) << why;
  EXPECT_NE(why.find(": "), std::string::npos) << why;
#else
  EXPECT_EQ(why, "built without the CUDA toolkit");
#endif
  EXPECT_EQ(cuda_device_count(), 0);  // why is optional
}

TEST(MakeBackend, CudaWithoutAGpuRaisesRuntimeError) {
  std::string why;
  if (cuda_device_count(&why) > 0) GTEST_SKIP() << "a CUDA device answered";
  BackendOptions o;
  o.backend = "cuda";
  try {
    make_backend(o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeError);
    EXPECT_EQ(std::string(e.what()), "--backend cuda: no CUDA device is available (" + why +
                                         "). Use --backend sim for simulated devices.");
  }
}

TEST(MakeBackend, AutoFallsBackToSimulatedDevicesWithANote) {
  std::string why;
  if (cuda_device_count(&why) > 0) GTEST_SKIP() << "a CUDA device answered";
  BackendOptions o;  // auto, 2 devices, 16 GiB, pcie4-x16
  BackendChoice c = make_backend(o);
  ASSERT_NE(c.backend, nullptr);
  EXPECT_EQ(c.backend->name(), "sim");
  EXPECT_TRUE(c.backend->caps().simulated);
  EXPECT_EQ(c.backend->device_count(), 2);
  EXPECT_EQ(c.backend->props(0).total_bytes, 16ull << 30);
  EXPECT_EQ(c.note, "No CUDA device answered (" + why + "); using 2 simulated CUDA devices (SIMULATED)");
}

TEST(MakeBackend, SimUsesTheOptions) {
  BackendOptions o;
  o.backend = "sim";
  o.sim_devices = 3;
  o.sim_memory = 80ull << 30;
  o.link = "nvlink-c2c";
  BackendChoice c = make_backend(o);
  EXPECT_EQ(c.backend->name(), "sim");
  EXPECT_EQ(c.backend->device_count(), 3);
  EXPECT_EQ(c.backend->props(2).name, "Simulated CUDA device 2 (nvlink-c2c)");
  EXPECT_EQ(c.backend->props(2).total_bytes, 80ull << 30);
  EXPECT_EQ(c.backend->link().name, "nvlink-c2c");
  EXPECT_EQ(c.note, "--backend sim: using 3 simulated CUDA devices (SIMULATED)");
}

TEST(MakeBackend, ZeroSimulatedDevicesTurnsCudaOff) {
  BackendOptions o;
  o.sim_devices = 0;
  BackendChoice c = make_backend(o);
  EXPECT_EQ(c.backend->name(), "sim");
  EXPECT_EQ(c.backend->device_count(), 0);
  EXPECT_EQ(c.note, "CUDA is off (0 simulated devices requested): no CUDA devices");
  o.backend = "sim";
  EXPECT_EQ(make_backend(o).backend->device_count(), 0);
}

TEST(MakeBackend, BadOptionsRaiseValueError) {
  BackendOptions o;
  o.backend = "rocm";
  try {
    make_backend(o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ValueError);
    EXPECT_STREQ(e.what(), "unknown backend 'rocm' (known: auto, sim, cuda)");
  }
  o.backend = "sim";
  o.link = "pcie9";
  EXPECT_THROW(make_backend(o), Error);
  o.link = "pcie4-x16";
  o.sim_devices = -1;
  EXPECT_THROW(make_backend(o), Error);
}

}  // namespace
}  // namespace ds
