// Ready-made modules for C++ users, benchmarks and the app's synthetic data: nn.Linear, nn.BatchNorm1d,
// nn.Sequential and nn.ModuleList with PyTorch's registration order, names and repr.
#pragma once

#include <cstdint>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "module/module.h"

namespace ds {

class Runtime;

// Where and how a builder creates its tensors (the factory_kwargs device/dtype of torch.nn).
struct BuildOptions {
  Device device = Device(DeviceType::CPU);
  DType dtype = DType::Float32;
  bool virtual_bytes = false;  // placed and accounted but never materialised: models of any size, no values
  uint64_t seed = 0;           // deterministic initial values
};

// nn.Linear(in_features, out_features, bias): weight [out, in] and bias [out], U(-1/sqrt(in), 1/sqrt(in)).
// On a real GPU (no host-writable memory) the values are zeros instead, so that no copy is recorded.
ModulePtr make_linear(Runtime& rt, int64_t in_features, int64_t out_features, bool bias = true,
                      Device device = Device(DeviceType::CPU), DType dtype = DType::Float32);
ModulePtr make_linear(Runtime& rt, int64_t in_features, int64_t out_features, bool bias,
                      const BuildOptions& options);

// nn.BatchNorm1d(num_features): parameters weight (ones), bias (zeros); buffers running_mean (zeros),
// running_var (ones) and num_batches_tracked (int64 scalar 0, whatever dtype is asked for).
ModulePtr make_batchnorm1d(Runtime& rt, int64_t num_features, Device device = Device(DeviceType::CPU),
                           DType dtype = DType::Float32);
ModulePtr make_batchnorm1d(Runtime& rt, int64_t num_features, const BuildOptions& options);

// nn.Sequential(*modules) / nn.ModuleList(modules): children named "0", "1", ...
ModulePtr make_sequential(const std::vector<ModulePtr>& modules);
ModulePtr make_module_list(const std::vector<ModulePtr>& modules);

}  // namespace ds
