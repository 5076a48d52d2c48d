// F.smooth_l1_loss's two numpy computations (torch/nn/_loss_smooth_l1.py) in one C++ pass each, for contiguous
// float32/float64 operands on host-addressable memory (regression_polynomial runs one per step on 32 values: ~10
// numpy calls each way, about as many microseconds as the rest of the step's loss):
//   nn_smooth_l1_sum(input, target, beta)  -> np.sum of smooth_l1_kernel's elementwise loss, as a float
//   nn_smooth_l1_backward(grad, input, target, norm, beta, cuda) -> smooth_l1_loss_backward's input-sized gradient
// Every element is computed with the same T operations in the same order as the numpy formulas there (no FMA:
// fp-contract=off, and the build has no FMA target), the sum in np.sum's order (fast_numpy_sum). None where they do
// not apply (another dtype or layout, virtual or device-only memory, a gradient of more than one element): the
// numpy path then runs, which stays the reference (DEVICESCOPE_NO_FAST_OPS=1 keeps it; tests/fastpath/
// smooth_l1_loss.py compares the two).
#include <cmath>
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

// smooth_l1_kernel as _loss_smooth_l1.smooth_l1_loss's numpy computes it: z = |a - b|;
// z < beta ? 0.5 * z * z / beta : z - 0.5 * beta, all in T (the scalar products in T too).
template <typename T>
T loss_sum(const T* a, const T* b, int64_t n, T beta) {
  std::vector<T> loss(static_cast<size_t>(n));
  const T half = T(0.5), half_beta = half * beta;
  for (int64_t i = 0; i < n; ++i) {
    const T z = std::fabs(a[i] - b[i]);
    loss[size_t(i)] = z < beta ? half * z * z / beta : z - half_beta;
  }
  return fast_numpy_sum(loss.data(), n);
}

// _loss_smooth_l1._backward's numpy for a one-element gradient g: the CUDA kernel's formula, or the CPU kernel's
// vector lambda over whole pairs of AVX2 vectors and its scalar lambda (a double division) for the rest.
template <typename T>
void backward(const T* a, const T* b, int64_t n, T g, T norm, double beta, bool cuda, T* out) {
  const T beta_t = T(beta);
  if (cuda) {
    for (int64_t i = 0; i < n; ++i) {
      const T x = a[i] - b[i];
      out[i] = x < -beta_t ? -norm * g : x > beta_t ? norm * g : norm * x * g / beta_t;
    }
    return;
  }
  const int64_t vec = n - n % int64_t(32 / sizeof(T) * 2);
  for (int64_t i = 0; i < n; ++i) {
    const T x = a[i] - b[i];
    if (i < vec) {
      const T unit = x > T(0) ? T(1) : T(-1);
      out[i] = norm * (std::fabs(x) >= beta_t ? unit : x / beta_t) * g;
    } else {
      // numpy compares the T values with the Python float beta as T (value-based casting)
      const T tail = T(double(norm * x * g) / beta);
      out[i] = x <= T(-beta) ? -norm * g : x >= beta_t ? norm * g : tail;
    }
  }
}

#pragma GCC pop_options

// A contiguous float32/float64 tensor of `dtype` whose bytes the host reads; null otherwise.
const void* readable(const TensorPtr& t, DType dtype) {
  if (!t || t->dtype() != dtype || t->is_virtual() || !t->is_contiguous() || t->numel() == 0 ||
      t->device().type() == DeviceType::Meta)
    return nullptr;
  return host_readable(rt(), t);
}

py::object smooth_l1_sum(const TensorPtr& input, const TensorPtr& target, double beta) {
  if (!input || !target || input->sizes() != target->sizes() || !(input->device() == target->device()))
    return py::none();
  const DType dt = input->dtype();
  if (dt != DType::Float32 && dt != DType::Float64) return py::none();
  const void* a = readable(input, dt);
  const void* b = readable(target, dt);
  if (!a || !b) return py::none();
  const int64_t n = input->numel();
  if (dt == DType::Float32)
    return py::float_(loss_sum(static_cast<const float*>(a), static_cast<const float*>(b), n, float(beta)));
  return py::float_(loss_sum(static_cast<const double*>(a), static_cast<const double*>(b), n, beta));
}

py::object smooth_l1_backward(const TensorPtr& grad, const TensorPtr& input, const TensorPtr& target, double norm,
                              double beta, bool cuda) {
  if (!grad || !input || !target || grad->numel() != 1 || input->sizes() != target->sizes() ||
      !(input->device() == target->device()))
    return py::none();
  const DType dt = input->dtype();
  if ((dt != DType::Float32 && dt != DType::Float64) || grad->dtype() != dt) return py::none();
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
    backward(static_cast<const float*>(a), static_cast<const float*>(b), n, *static_cast<const float*>(g),
             float(norm), beta, cuda, static_cast<float*>(o));
  else
    backward(static_cast<const double*>(a), static_cast<const double*>(b), n, *static_cast<const double*>(g), norm,
             beta, cuda, static_cast<double*>(o));
  return py::cast(std::move(out));
}

}  // namespace

void bind_loss_smooth_l1(py::module_& m) {
  // Arguments are TensorImpl objects (a Tensor's _impl); norm is the T value the Python path uses (np_dt(1 / n)).
  m.def("nn_smooth_l1_sum", [](py::handle input, py::handle target, double beta) {
    return smooth_l1_sum(input.cast<TensorPtr>(), target.cast<TensorPtr>(), beta);
  });
  m.def("nn_smooth_l1_backward", [](py::handle grad, py::handle input, py::handle target, double norm, double beta,
                                    bool cuda) {
    return smooth_l1_backward(grad.cast<TensorPtr>(), input.cast<TensorPtr>(), target.cast<TensorPtr>(), norm, beta,
                              cuda);
  });
}

}  // namespace ds::python
