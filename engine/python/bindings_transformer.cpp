// C++ kernels for the transformer path's hot ops that Python computed with several numpy passes and scratch
// tensors each (issue 23: translation_transformer, transformer_language_model): softmax over the last dim
// (attention weights) forward and backward, and CUDA dropout's fused kernel (mask and output from the drawn
// uniforms) forward and backward. The Python layer (torch/_ops/reduction.py softmax, nn/_functional_basic.py
// _native_dropout) draws the random numbers, checks arguments, builds the autograd nodes and calls these; each
// entry allocates what the Python path's real allocations were (through ds::empty, in the same order) and
// returns None when it does not apply (another dtype, layout or dim, virtual tensors, real device memory),
// where the Python path runs. DEVICESCOPE_NO_FAST_OPS=1 turns them off (torch/_ops/_core.py FAST_KERNELS).
//
// Values: softmax as the numpy path (float64 math rounded once to float32: max, exp(x - max), numpy's pairwise
// sum of the row (left to right for a transposed matrix's rows, as numpy sums them), a division; the backward
// result * (grad - pairwise sum(grad * result))); float32 only, since
// libm's double exp can differ from numpy's in the last bit, which the float32 rounding hides. Dropout: the
// numpy/fast path's float ops one at a time (keep = u >= p, x * keep, * scale, each rounded to the dtype).
#include <cmath>
#include <cstdint>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

double fast_numpy_sum(const double* a, int64_t n);  // bindings_ops.cpp: np.sum's (pairwise) order

namespace {

// Dense row-major float tensor with real bytes the host can address.
bool dense(const TensorPtr& t, DType dtype) {
  return t && t->dtype() == dtype && t->numel() > 0 && !t->is_virtual() &&
         t->device().type() != DeviceType::Meta && t->strides() == contiguous_strides(t->sizes());
}

bool float_type(DType d) { return d == DType::Float32 || d == DType::Float64; }

TensorPtr empty_like_dense(Runtime& r, const TensorImpl& t, DType dtype) {
  return ds::empty(r, t.sizes(), dtype, t.device(), false, false, current_storage_role());
}

// np.max over a row, NaN-propagating, then np.where(isfinite(m), m, 0).
double row_shift(const double* v, int64_t n) {
  double m = -INFINITY;
  for (int64_t k = 0; k < n; ++k) {
    if (std::isnan(v[k])) return 0;
    if (v[k] > m) m = v[k];
  }
  return std::isfinite(m) ? m : 0;
}

// A 2-D float32 matrix laid out column by column (strides (1, rows)): the transpose of a dense one, such as
// Luong attention's `energies.t()` before softmax(dim=1).
bool transposed_dense(const TensorPtr& t) {
  return t && t->dtype() == DType::Float32 && t->dim() == 2 && t->numel() > 0 && !t->is_virtual() &&
         t->device().type() != DeviceType::Meta && t->strides()[0] == 1 && t->strides()[1] == t->sizes()[0];
}

// Rows of a dense tensor (softmax over the last dim) or of a transposed_dense matrix (dim 1). The numpy path
// reads the latter as a column-major array, and numpy sums such a row from left to right (each row's partial
// sums advance together, one column at a time) where a dense row takes np.sum's pairwise order; the output is
// contiguous in both cases (make() of numpy's result), so the allocation is the same.
py::object softmax(const TensorPtr& x, int64_t dim) {
  const bool column_major = !dense(x, DType::Float32) && transposed_dense(x) && dim == 1;
  if (!column_major && (!dense(x, DType::Float32) || x->dim() == 0 || dim != x->dim() - 1)) return py::none();
  Runtime& r = rt();
  const float* in = static_cast<const float*>(host_readable(r, x));
  if (!in) return py::none();
  TensorPtr out = empty_like_dense(r, *x, DType::Float32);
  float* o = static_cast<float*>(host_writable(r, out));
  const int64_t n = x->sizes().back(), rows = x->numel() / n;
  const int64_t row_step = column_major ? 1 : n, col_step = column_major ? rows : 1;
  std::vector<double> v(size_t(n), 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    const float* xi = in + i * row_step;
    for (int64_t k = 0; k < n; ++k) v[size_t(k)] = double(xi[k * col_step]);
    const double m = row_shift(v.data(), n);
    for (int64_t k = 0; k < n; ++k) v[size_t(k)] = std::exp(v[size_t(k)] - m);
    double s = 0;
    if (column_major) {
      for (int64_t k = 0; k < n; ++k) s += v[size_t(k)];
    } else {
      s = fast_numpy_sum(v.data(), n);
    }
    for (int64_t k = 0; k < n; ++k) o[i * n + k] = float(v[size_t(k)] / s);
  }
  return py::cast(std::move(out));
}

// _softmax_backward_data(grad, result, dim): result * (grad - sum(grad * result over dim)).
py::object softmax_backward(const TensorPtr& grad, const TensorPtr& result, int64_t dim) {
  if (!dense(result, DType::Float32) || !dense(grad, DType::Float32) || result->dim() == 0 ||
      dim != result->dim() - 1 || grad->sizes() != result->sizes() || !(grad->device() == result->device()))
    return py::none();
  Runtime& r = rt();
  const float* g = static_cast<const float*>(host_readable(r, grad));
  const float* y = static_cast<const float*>(host_readable(r, result));
  if (!g || !y) return py::none();
  TensorPtr out = empty_like_dense(r, *result, DType::Float32);
  float* o = static_cast<float*>(host_writable(r, out));
  const int64_t n = result->sizes().back(), rows = result->numel() / n;
  std::vector<double> prod(size_t(n), 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t base = i * n;
    for (int64_t k = 0; k < n; ++k) prod[size_t(k)] = double(g[base + k]) * double(y[base + k]);
    const double s = fast_numpy_sum(prod.data(), n);
    for (int64_t k = 0; k < n; ++k) o[base + k] = float(double(y[base + k]) * (double(g[base + k]) - s));
  }
  return py::cast(std::move(out));
}

template <typename T>
void dropout_loop(int64_t n, const T* x, const T* u, bool* mask, T* out, double p, double scale) {
  const T tp = T(p), ts = T(scale);
  for (int64_t i = 0; i < n; ++i) {
    const bool keep = u[i] >= tp;
    mask[i] = keep;
    out[i] = T(T(x[i] * T(keep ? 1 : 0)) * ts);
  }
}

// Dropout.cu's fused kernel from the uniforms u (rand_like(x), drawn by Python): the bool mask (u >= p), then
// the output x * mask * scale, allocated in that order. Returns (mask, out) or None.
py::object dropout(const TensorPtr& x, const TensorPtr& u, double p, double scale) {
  if (!x || !float_type(x->dtype()) || !dense(x, x->dtype()) || !dense(u, x->dtype()) || u->sizes() != x->sizes() ||
      !(u->device() == x->device()))
    return py::none();
  Runtime& r = rt();
  const void* xv = host_readable(r, x);
  const void* uv = host_readable(r, u);
  if (!xv || !uv) return py::none();
  TensorPtr mask = empty_like_dense(r, *x, DType::Bool);
  TensorPtr out = empty_like_dense(r, *x, x->dtype());
  bool* m = static_cast<bool*>(host_writable(r, mask));
  void* o = host_writable(r, out);
  xv = host_readable(r, x);  // (re-read after the allocations)
  uv = host_readable(r, u);
  if (x->dtype() == DType::Float32)
    dropout_loop(x->numel(), static_cast<const float*>(xv), static_cast<const float*>(uv), m, static_cast<float*>(o),
                 p, scale);
  else
    dropout_loop(x->numel(), static_cast<const double*>(xv), static_cast<const double*>(uv), m,
                 static_cast<double*>(o), p, scale);
  return py::make_tuple(std::move(mask), std::move(out));
}

template <typename T>
void dropout_backward_loop(int64_t n, const T* g, const bool* mask, T* out, double scale) {
  const T ts = T(scale);
  for (int64_t i = 0; i < n; ++i) out[i] = T(T(g[i] * T(mask[i] ? 1 : 0)) * ts);
}

// NativeDropoutBackward0: grad * mask * scale, one new tensor like grad. None where it does not apply.
py::object dropout_backward(const TensorPtr& g, const TensorPtr& mask, double scale) {
  if (!g || !float_type(g->dtype()) || !dense(g, g->dtype()) || !dense(mask, DType::Bool) ||
      mask->sizes() != g->sizes() || !(mask->device() == g->device()))
    return py::none();
  Runtime& r = rt();
  if (!host_readable(r, g) || !host_readable(r, mask)) return py::none();
  TensorPtr out = empty_like_dense(r, *g, g->dtype());
  void* o = host_writable(r, out);
  const void* gv = host_readable(r, g);
  const bool* mv = static_cast<const bool*>(host_readable(r, mask));
  if (g->dtype() == DType::Float32)
    dropout_backward_loop(g->numel(), static_cast<const float*>(gv), mv, static_cast<float*>(o), scale);
  else
    dropout_backward_loop(g->numel(), static_cast<const double*>(gv), mv, static_cast<double*>(o), scale);
  return py::cast(std::move(out));
}

}  // namespace

void bind_transformer(py::module_& m) {
  // Arguments are TensorImpl objects (a Tensor's _impl); None when the kernel does not apply.
  m.def("nn_softmax", &softmax);
  m.def("nn_softmax_backward", &softmax_backward);
  m.def("nn_dropout", &dropout);
  m.def("nn_dropout_backward", &dropout_backward);
}

}  // namespace ds::python
