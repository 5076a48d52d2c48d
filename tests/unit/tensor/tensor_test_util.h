// Helpers for tensor tests: a simulated runtime and host-side fill/read of float tensors.
#pragma once

#include <cstring>
#include <vector>

#include "runtime/runtime.h"
#include "tensor/tensor_ops.h"

namespace ds::testing {

inline std::shared_ptr<Runtime> sim_runtime(int devices = 2, uint64_t memory = 1ull << 30) {
  RuntimeOptions o;
  o.backend.backend = "sim";
  o.backend.sim_devices = devices;
  o.backend.sim_memory = memory;
  return Runtime::create(o);
}

inline TensorPtr cpu_floats(Runtime& rt, const std::vector<float>& values) {
  TensorPtr t = empty(rt, {int64_t(values.size())}, DType::Float32, Device(DeviceType::CPU));
  std::memcpy(host_writable(rt, t), values.data(), values.size() * sizeof(float));
  return t;
}

inline std::vector<float> read_floats(Runtime& rt, const TensorPtr& t) {
  TensorPtr c = contiguous(rt, t);
  std::vector<float> out(size_t(c->numel()));
  convert_strided(out.data(), DType::Float32, c->sizes(), contiguous_strides(c->sizes()), host_readable(rt, c),
                  c->dtype(), c->strides());
  return out;
}

}  // namespace ds::testing
