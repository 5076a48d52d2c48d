// Conversions on memory the host cannot address (real GPUs): staged through host mirrors, values intact.
// A forwarding backend over the simulated devices that reports simulated=false exercises those paths here.
#include <gtest/gtest.h>

#include "backend/sim_backend.h"
#include "tensor_test_util.h"

using namespace ds;
using ds::testing::cpu_floats;

namespace {

class OpaqueDevices final : public Backend {
 public:
  std::string name() const override { return "opaque"; }
  BackendCaps caps() const override {
    BackendCaps c = sim_.caps();
    c.simulated = false;  // host_readable()/host_writable() now refuse device memory
    return c;
  }
  int device_count() const override { return sim_.device_count(); }
  DeviceProps props(int d) const override { return sim_.props(d); }
  void* device_alloc(int d, size_t b, bool v) override { return sim_.device_alloc(d, b, v); }
  void device_free(int d, void* p, size_t b, bool v) override { sim_.device_free(d, p, b, v); }
  uint64_t device_free_bytes(int d) const override { return sim_.device_free_bytes(d); }
  void* pinned_alloc(size_t b) override { return sim_.pinned_alloc(b); }
  void pinned_free(void* p, size_t b) override { sim_.pinned_free(p, b); }
  StreamId create_stream(int d) override { return sim_.create_stream(d); }
  CopyTiming copy(const CopyRequest& r) override { return sim_.copy(r); }
  void memset(int d, void* p, int v, size_t b) override { sim_.memset(d, p, v, b); }
  EventId record_event(int d, StreamId s) override { return sim_.record_event(d, s); }
  void stream_wait_event(int d, StreamId s, const EventId& e) override { sim_.stream_wait_event(d, s, e); }
  bool event_done(const EventId& e) override { return sim_.event_done(e); }
  void synchronize_event(const EventId& e) override { sim_.synchronize_event(e); }
  void synchronize_stream(int d, StreamId s) override { sim_.synchronize_stream(d, s); }
  void synchronize_device(int d) override { sim_.synchronize_device(d); }
  std::vector<CopyTiming> take_completed() override { return sim_.take_completed(); }
  uint64_t now_ns() const override { return sim_.now_ns(); }
  const LinkProfile& link() const override { return sim_.link(); }

 private:
  SimBackend sim_{2, 1ull << 30};
};

// Reads values back through .cpu() (the only way to see opaque device memory).
std::vector<float> values(Runtime& rt, const TensorPtr& t) {
  TensorPtr host = to(rt, t, {.device = Device(DeviceType::CPU), .dtype = DType::Float32});
  TensorPtr c = contiguous(rt, host);
  std::vector<float> out(size_t(c->numel()));
  std::memcpy(out.data(), host_readable(rt, c), out.size() * 4);
  return out;
}

}  // namespace

TEST(RealDevicePaths, DtypeConversionOnTheDevice) {
  auto rt = Runtime::create_with_backend(std::make_unique<OpaqueDevices>());
  TensorPtr g = cuda(*rt, cpu_floats(*rt, {1.5f, -2, 3}));
  EXPECT_EQ(host_readable(*rt, g), nullptr);
  TensorPtr h = to(*rt, g, {.dtype = DType::Float16});  // module.half() on a GPU
  EXPECT_EQ(h->device().str(), "cuda:0");
  EXPECT_EQ(values(*rt, h), (std::vector<float>{1.5f, -2, 3}));
}

TEST(RealDevicePaths, NonContiguousSourcesAndDestinations) {
  auto rt = Runtime::create_with_backend(std::make_unique<OpaqueDevices>());
  TensorPtr g = cuda(*rt, cpu_floats(*rt, {0, 1, 2, 3, 4, 5}));
  TensorPtr tr = as_strided(g, {3, 2}, {1, 3}, 0);  // a transposed view on the device
  EXPECT_EQ(values(*rt, tr), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  TensorPtr every_other = as_strided(g, {3}, {2}, 0);
  copy_(*rt, every_other, cpu_floats(*rt, {9, 8, 7}));  // host -> strided device destination
  EXPECT_EQ(values(*rt, g), (std::vector<float>{9, 1, 8, 3, 7, 5}));
  TensorPtr other = cuda(*rt, cpu_floats(*rt, {0, 0, 0}), 1);
  copy_(*rt, other, every_other);  // strided device source -> another device
  EXPECT_EQ(values(*rt, other), (std::vector<float>{9, 8, 7}));
}
