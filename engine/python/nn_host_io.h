// The host side of the nn kernels' bindings (bindings_nn.cpp, bindings_conv_nd.cpp): operands read as
// contiguous compute-dtype host memory (HostIn), outputs allocated as ATen's kernel allocates them and written
// through host memory (HostOut, IndexOut, GradTriple), and the dtype dispatch with its shape-only mode for
// virtual tensors. Shared by those files only; each entry's allocations are listed in its own file.
#pragma once

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "core/errors.h"
#include "tensor/tensor_ops.h"

namespace ds::python::nn_host {

// float32 computes float32 and half / bfloat16 compute in float32 (PyTorch's opmath); float64 in float64.
inline DType compute_dtype(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

// Virtual kernels (issue 25, virtual steps): when any tensor argument is virtual, the kernel runs shape-only -
// every output and kernel buffer is allocated exactly as on real tensors, but virtual (no bytes), and the value
// loops are skipped. Set by dispatch() for the kernel's duration; read by HostIn/HostOut/IndexOut.
inline thread_local bool tl_virtual = false;

inline TensorPtr opt_tensor(py::handle h) { return h.is_none() ? TensorPtr() : h.cast<TensorPtr>(); }

inline Shape shape_of(py::handle h) {
  Shape out;
  for (py::handle v : h) out.push_back(v.cast<int64_t>());
  return out;
}

// A tensor's values as contiguous compute-dtype host memory: its own bytes when they already are, else a
// converted host copy (real CUDA memory is brought over unrecorded, as numpy_view does).
template <typename T>
class HostIn {
 public:
  explicit HostIn(const TensorPtr& t) {
    if (!t || tl_virtual) return;  // virtual kernel: nothing is read
    constexpr DType want = std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
    const void* p = t->numel() ? host_readable(rt(), t) : nullptr;
    if (p && t->dtype() == want && t->is_contiguous()) {
      ptr_ = static_cast<const T*>(p);
      return;
    }
    copy_.resize(size_t(t->numel()));
    if (t->numel() == 0) {
      ptr_ = copy_.data();
      return;
    }
    std::vector<uint8_t> device_bytes;
    Shape strides = t->strides();
    if (!p) {  // real device memory: fetch the span the view covers
      int64_t span = 1;
      for (int i = 0; i < t->dim(); ++i) span += (t->sizes()[size_t(i)] - 1) * t->strides()[size_t(i)];
      device_bytes.resize(size_t(span) * itemsize(t->dtype()));
      const Place place = t->storage()->place();
      raw_device_copy(device_bytes.data(), Place::pageable(), t->data_ptr(), place, device_bytes.size(), place.device);
      p = device_bytes.data();
    }
    convert_strided(copy_.data(), want, t->sizes(), contiguous_strides(t->sizes()), p, t->dtype(), strides);
    ptr_ = copy_.data();
  }
  const T* get() const { return ptr_; }

 private:
  const T* ptr_ = nullptr;
  std::vector<T> copy_;
};

// A new tensor (what the kernel allocates) and the host memory the kernel writes its values to: the
// tensor's own bytes, or a compute-dtype buffer that finish() converts and stores.
template <typename T>
class HostOut {
 public:
  HostOut(const Shape& sizes, DType dtype, Device device) {
    tensor_ = ds::empty(rt(), sizes, dtype, device, false, tl_virtual, current_storage_role());
    constexpr DType want = std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
    void* p = tensor_->numel() && !tl_virtual ? host_writable(rt(), tensor_) : nullptr;
    if (p && dtype == want) {
      ptr_ = static_cast<T*>(p);
    } else if (!tl_virtual) {
      buffer_.resize(size_t(tensor_->numel()));
      ptr_ = buffer_.data();
    }
  }
  T* get() { return ptr_; }
  int64_t numel() const { return tensor_->numel(); }
  // Stores the buffered values (if any) and hands the tensor over.
  TensorPtr finish() {
    if (!buffer_.empty()) store(tensor_, buffer_.data());
    return tensor_;
  }
  // Writes contiguous compute-dtype values into t (any dtype, host or real device memory).
  static void store(const TensorPtr& t, const T* values) {
    constexpr DType have = std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
    if (tl_virtual) return;
    const Shape cs = contiguous_strides(t->sizes());
    if (void* d = host_writable(rt(), t)) {
      convert_strided(d, t->dtype(), t->sizes(), t->strides(), values, have, cs);
      return;
    }
    check(t->is_contiguous(), "DeviceScope: in-place kernel output on real device memory must be contiguous");
    std::vector<uint8_t> bytes(t->nbytes());
    convert_strided(bytes.data(), t->dtype(), t->sizes(), cs, values, have, cs);
    const Place place = t->storage()->place();
    raw_device_copy(t->data_ptr(), place, bytes.data(), Place::pageable(), bytes.size(), place.device);
  }

 private:
  TensorPtr tensor_;
  T* ptr_ = nullptr;
  std::vector<T> buffer_;
};

// The (grad_input, grad_weight, grad_bias) of a norm's backward: each allocated only where output_mask asks for
// it, in the order the caller calls want() (ATen's order: it decides the memory layout), and handed to Python as
// None where it was not computed.
template <typename T>
struct GradTriple {
  std::optional<HostOut<T>> input, weight, bias;
  GradTriple() = default;
  // In the usual order: input, weight, bias (`bias_like`: the tensor the bias gradient is shaped as).
  GradTriple(const std::vector<bool>& mask, const TensorPtr& x, const TensorPtr& w, const TensorPtr& bias_like) {
    want(input, mask[0], x);
    want(weight, mask[1], w);
    want(bias, mask[2], bias_like);
  }
  // Allocates `out` as `like` (its sizes, dtype and device) when wanted and `like` exists.
  static void want(std::optional<HostOut<T>>& out, bool wanted, const TensorPtr& like) {
    if (wanted && like) out.emplace(like->sizes(), like->dtype(), like->device());
  }
  static T* ptr(std::optional<HostOut<T>>& out) { return out ? out->get() : nullptr; }
  py::tuple finish() {
    auto one = [](std::optional<HostOut<T>>& out) -> py::object { return out ? py::cast(out->finish()) : py::none(); };
    return py::make_tuple(one(input), one(weight), one(bias));
  }
};

// int64 outputs (pooling indices): always int64, written directly or through a buffer.
class IndexOut {
 public:
  IndexOut(const Shape& sizes, Device device) {
    tensor_ = ds::empty(rt(), sizes, DType::Int64, device, false, tl_virtual, current_storage_role());
    void* p = tensor_->numel() && !tl_virtual ? host_writable(rt(), tensor_) : nullptr;
    if (p) {
      ptr_ = static_cast<int64_t*>(p);
    } else if (!tl_virtual) {
      buffer_.resize(size_t(tensor_->numel()));
      ptr_ = buffer_.data();
    }
  }
  int64_t* get() { return ptr_; }
  TensorPtr finish() {
    if (!buffer_.empty()) {
      const Place place = tensor_->storage()->place();
      raw_device_copy(tensor_->data_ptr(), place, buffer_.data(), Place::pageable(), tensor_->nbytes(), place.device);
    }
    return tensor_;
  }

 private:
  TensorPtr tensor_;
  int64_t* ptr_ = nullptr;
  std::vector<int64_t> buffer_;
};

inline std::vector<int64_t> read_indices(const TensorPtr& t) {
  if (tl_virtual) return {};
  std::vector<int64_t> v(size_t(t->numel()));
  if (v.empty()) return v;
  const void* p = host_readable(rt(), t);
  if (p && t->is_contiguous() && t->dtype() == DType::Int64) {
    const int64_t* s = static_cast<const int64_t*>(p);
    v.assign(s, s + t->numel());
    return v;
  }
  std::vector<uint8_t> bytes;
  if (!p) {
    check(t->is_contiguous(), "DeviceScope: indices on real device memory must be contiguous");
    bytes.resize(t->nbytes());
    const Place place = t->storage()->place();
    raw_device_copy(bytes.data(), Place::pageable(), t->data_ptr(), place, bytes.size(), place.device);
    p = bytes.data();
  }
  convert_strided(v.data(), DType::Int64, t->sizes(), contiguous_strides(t->sizes()), p, t->dtype(), t->strides());
  return v;
}

// Runs f.template operator()<T>() with T the compute type of `dtype`; shape-only (tl_virtual) when any of
// `tensors` is virtual (a mix of virtual and real arguments gives virtual results: their values are unknown).
template <typename F>
auto dispatch(DType dtype, std::initializer_list<const TensorPtr*> tensors, F&& f) {
  check(is_floating_point(dtype), "DeviceScope: convolution, pooling and normalization kernels need a floating "
                                  "point tensor, got " + dtype_name(dtype));
  struct Scope {
    bool prev = tl_virtual;
    ~Scope() { tl_virtual = prev; }
  } scope;
  tl_virtual = false;
  for (const TensorPtr* t : tensors)
    if (*t && (*t)->is_virtual()) tl_virtual = true;
  if (compute_dtype(dtype) == DType::Float64) return f(double{});
  return f(float{});
}

inline py::object none_or(const TensorPtr& t) { return t ? py::cast(t) : py::none(); }

// The accumulate type ATen's CUDA kernels keep statistics in (acc_type<T, is_cuda=true>).
inline DType acc_dtype(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

}  // namespace ds::python::nn_host
