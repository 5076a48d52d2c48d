// F.mse_loss's two numpy computations (torch/nn/_loss_mse.py) in one C++ pass each, for contiguous float32/float64
// operands of one shape on host-addressable memory (pytorch_with_examples' fits run 4000 of each on 2000 values):
//   nn_mse_sum(input, target)               -> np.sum((a - b) * (a - b)) as a float
//   nn_mse_backward(grad, a, b, norm)       -> mse_loss_backward's T(norm) * (a - b) * grad for a one-element grad
// The same T operations in the same order as the numpy formulas (no FMA: fp-contract=off, and the build has no FMA
// target), the sum in np.sum's order (fast_numpy_sum). None where they do not apply (another dtype or layout,
// virtual or device-only memory, a gradient of more than one element): the numpy code runs, which stays the
// reference (DEVICESCOPE_NO_FAST_OPS=1 keeps it; tests/fastpath/mse_loss.py compares the two).
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

float fast_numpy_sum(const float* a, int64_t n);  // bindings_ops.cpp: np.sum's order
double fast_numpy_sum(const double* a, int64_t n);

namespace {

#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

template <typename T>
T squares_sum(const T* a, const T* b, int64_t n) {
  std::vector<T> sq(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const T d = a[i] - b[i];
    sq[size_t(i)] = d * d;
  }
  return fast_numpy_sum(sq.data(), n);
}

template <typename T>
void backward(const T* a, const T* b, int64_t n, T norm, T g, T* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = norm * (a[i] - b[i]) * g;
}

#pragma GCC pop_options

// A contiguous tensor of `dtype` whose bytes the host reads; null otherwise.
const void* readable(const TensorPtr& t, DType dtype) {
  if (!t || t->dtype() != dtype || t->is_virtual() || !t->is_contiguous() || t->numel() == 0 ||
      t->device().type() == DeviceType::Meta)
    return nullptr;
  return host_readable(rt(), t);
}

bool same_pair(const TensorPtr& a, const TensorPtr& b) {
  return a && b && a->sizes() == b->sizes() && a->device() == b->device() &&
         (a->dtype() == DType::Float32 || a->dtype() == DType::Float64);
}

py::object mse_sum(const TensorPtr& input, const TensorPtr& target) {
  if (!same_pair(input, target)) return py::none();
  const DType dt = input->dtype();
  const void* a = readable(input, dt);
  const void* b = readable(target, dt);
  if (!a || !b) return py::none();
  const int64_t n = input->numel();
  if (dt == DType::Float32)
    return py::float_(squares_sum(static_cast<const float*>(a), static_cast<const float*>(b), n));
  return py::float_(squares_sum(static_cast<const double*>(a), static_cast<const double*>(b), n));
}

py::object mse_backward(const TensorPtr& grad, const TensorPtr& input, const TensorPtr& target, double norm) {
  if (!grad || grad->numel() != 1 || !same_pair(input, target)) return py::none();
  const DType dt = input->dtype();
  const void* a = readable(input, dt);
  const void* b = readable(target, dt);
  const void* g = readable(grad, dt);
  if (!a || !b || !g) return py::none();
  Runtime& r = rt();
  TensorPtr out = ds::empty(r, input->sizes(), dt, input->device(), false, false, current_storage_role());
  if (out->is_virtual()) return py::cast(std::move(out));  // (devicescope.virtual_mode(): no bytes, as C.make)
  void* o = host_writable(r, out);
  if (!o) return py::none();
  const int64_t n = input->numel();
  if (dt == DType::Float32)
    backward(static_cast<const float*>(a), static_cast<const float*>(b), n, float(norm),
             *static_cast<const float*>(g), static_cast<float*>(o));
  else
    backward(static_cast<const double*>(a), static_cast<const double*>(b), n, norm, *static_cast<const double*>(g),
             static_cast<double*>(o));
  return py::cast(std::move(out));
}

}  // namespace

void bind_loss_mse(py::module_& m) {
  // Arguments are TensorImpl objects (a Tensor's _impl); norm the Python float the formula casts to the dtype.
  m.def("nn_mse_sum", [](py::handle input, py::handle target) {
    return mse_sum(input.cast<TensorPtr>(), target.cast<TensorPtr>());
  });
  m.def("nn_mse_backward", [](py::handle grad, py::handle a, py::handle b, double norm) {
    return mse_backward(grad.cast<TensorPtr>(), a.cast<TensorPtr>(), b.cast<TensorPtr>(), norm);
  });
}

}  // namespace ds::python
