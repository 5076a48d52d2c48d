// nn.Linear / nn.BatchNorm1d / nn.Sequential / nn.ModuleList built through the same set_attr/register_*
// calls their Python __init__ makes, so names, order and repr match PyTorch.
#include "module/builders.h"

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <utility>

#include "runtime/runtime.h"
#include "tensor/tensor_ops.h"

namespace ds {
namespace {

// splitmix64: a tiny deterministic generator for initial values.
struct Rng {
  uint64_t state;
  float uniform(float lo, float hi) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * float(double(z >> 11) * (1.0 / 9007199254740992.0));
  }
};

// A new tensor on the options' device filled by value(i). Virtual tensors hold no values; real GPU memory
// is not host-writable, so it gets zeros (cudaMemset) rather than a recorded host-to-device copy.
TensorPtr make_filled(Runtime& rt, const Shape& sizes, DType dtype, const BuildOptions& options,
                      const std::function<float(int64_t)>& value) {
  const bool host_fillable = !options.device.is_cuda() || rt.backend().caps().simulated;
  if (!options.virtual_bytes && !host_fillable) return zeros(rt, sizes, dtype, options.device);
  TensorPtr t = empty(rt, sizes, dtype, options.device, /*pin_memory=*/false, options.virtual_bytes);
  if (options.virtual_bytes || t->numel() == 0) return t;
  void* dst = host_writable(rt, t);
  if (!dst) return zeros(rt, sizes, dtype, options.device);
  std::vector<float> src(size_t(t->numel()));
  for (int64_t i = 0; i < t->numel(); ++i) src[size_t(i)] = value(i);
  convert_strided(dst, dtype, t->sizes(), t->strides(), src.data(), DType::Float32, contiguous_strides(sizes));
  return t;
}

std::string format_float(double v) {  // Python's repr for the floats BatchNorm prints (1e-05, 0.1)
  std::ostringstream s;
  s << v;
  std::string out = s.str();
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

ModulePtr make_container(const char* type_name, const std::vector<ModulePtr>& modules) {
  ModulePtr m = Module::create(type_name, "torch.nn.modules.container");
  m->add_class_attributes({"append", "extend", "insert", "pop", "__getitem__", "__setitem__", "__delitem__",
                           "__len__", "__iter__", "__iadd__", "__add__", "_get_abs_string_index"});
  for (size_t i = 0; i < modules.size(); ++i) m->add_module(std::to_string(i), Value(modules[i]));
  return m;
}

}  // namespace

ModulePtr make_linear(Runtime& rt, int64_t in_features, int64_t out_features, bool bias, Device device,
                      DType dtype) {
  BuildOptions options;
  options.device = device;
  options.dtype = dtype;
  return make_linear(rt, in_features, out_features, bias, options);
}

ModulePtr make_linear(Runtime& rt, int64_t in_features, int64_t out_features, bool bias,
                      const BuildOptions& options) {
  ModulePtr m = Module::create("Linear", "torch.nn.modules.linear");
  m->add_class_attributes({"__constants__", "reset_parameters"});
  m->set_attr("in_features", Value::other("int"));
  m->set_attr("out_features", Value::other("int"));
  // kaiming_uniform_(a=sqrt(5)) and the bias init both reduce to U(-1/sqrt(in), 1/sqrt(in)).
  const float bound = in_features > 0 ? float(1.0 / std::sqrt(double(in_features))) : 0.0f;
  Rng rng{options.seed * 0x2545F4914F6CDD1Dull + uint64_t(in_features) * 131 + uint64_t(out_features)};
  auto uniform = [&](int64_t) { return rng.uniform(-bound, bound); };
  m->set_attr("weight", Value(make_parameter(
                            make_filled(rt, {out_features, in_features}, options.dtype, options, uniform))));
  if (bias)
    m->set_attr("bias", Value(make_parameter(make_filled(rt, {out_features}, options.dtype, options, uniform))));
  else
    m->register_parameter("bias", Value());
  m->set_extra_repr("in_features=" + std::to_string(in_features) + ", out_features=" +
                    std::to_string(out_features) + ", bias=" + (bias ? "True" : "False"));
  return m;
}

ModulePtr make_batchnorm1d(Runtime& rt, int64_t num_features, Device device, DType dtype) {
  BuildOptions options;
  options.device = device;
  options.dtype = dtype;
  return make_batchnorm1d(rt, num_features, options);
}

ModulePtr make_batchnorm1d(Runtime& rt, int64_t num_features, const BuildOptions& options) {
  const double eps = 1e-5, momentum = 0.1;
  ModulePtr m = Module::create("BatchNorm1d", "torch.nn.modules.batchnorm");
  m->add_class_attributes({"__constants__", "_check_input_dim", "reset_running_stats", "reset_parameters"});
  const std::pair<const char*, const char*> attributes[] = {
      {"num_features", "int"}, {"eps", "float"}, {"momentum", "float"}, {"affine", "bool"},
      {"track_running_stats", "bool"}};
  for (const auto& [name, python_type] : attributes) m->set_attr(name, Value::other(python_type));
  auto ones = [](int64_t) { return 1.0f; };
  auto zero = [](int64_t) { return 0.0f; };
  m->set_attr("weight", Value(make_parameter(make_filled(rt, {num_features}, options.dtype, options, ones))));
  m->set_attr("bias", Value(make_parameter(make_filled(rt, {num_features}, options.dtype, options, zero))));
  m->register_buffer("running_mean", Value(make_filled(rt, {num_features}, options.dtype, options, zero)));
  m->register_buffer("running_var", Value(make_filled(rt, {num_features}, options.dtype, options, ones)));
  m->register_buffer("num_batches_tracked", Value(make_filled(rt, {}, DType::Int64, options, zero)));
  m->set_extra_repr(std::to_string(num_features) + ", eps=" + format_float(eps) +
                    ", momentum=" + format_float(momentum) + ", affine=True, track_running_stats=True");
  return m;
}

ModulePtr make_sequential(const std::vector<ModulePtr>& modules) { return make_container("Sequential", modules); }

ModulePtr make_module_list(const std::vector<ModulePtr>& modules) {
  return make_container("ModuleList", modules);
}

}  // namespace ds
