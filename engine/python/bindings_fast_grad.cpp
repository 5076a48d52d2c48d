// C++ kernels for the hot ops of a small training step that Python computed with many numpy calls (issue 23):
// log_softmax forward and backward (cross_entropy's first half), addmm (nn.Linear's forward) and the products
// and bias sum of its backward. The Python layer (torch/_ops/reduction.py, linalg.py) checks arguments, builds
// the autograd node and calls these; each entry allocates exactly what ATen's kernel allocates (one output,
// through ds::empty, so the event log and the memory panes see it) and returns None when it does not apply
// (another dtype or layout, virtual tensors, real device memory the host cannot address), where Python takes
// its numpy path.
//
// Values: log_softmax and the bias sum compute in double and round once to the tensor's dtype, as the numpy
// path did (float64 math); products are one BLAS gemm in the operands' dtype, as numpy's matmul was.
#include <cmath>
#include <cstring>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "tensor/blas_gemm.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

bool fast_gemm_layout(const TensorImpl& t, GemmOperand& op);  // bindings_ops.cpp

namespace {

struct Geometry {
  int64_t outer = 1, n = 1, inner = 1;
};

Geometry geometry(const TensorImpl& t, int64_t dim) {
  Geometry g;
  for (int64_t i = 0; i < t.dim(); ++i) {
    const int64_t s = t.sizes()[size_t(i)];
    if (i < dim) g.outer *= s;
    else if (i == dim) g.n = s;
    else g.inner *= s;
  }
  return g;
}

bool usable(const TensorPtr& t, DType dtype) {
  return t && t->dtype() == dtype && (dtype == DType::Float32 || dtype == DType::Float64) && t->is_contiguous() &&
         !t->is_virtual() && t->numel() > 0 && t->device().type() != DeviceType::Meta;
}

template <typename T>
void log_softmax_kernel(const Geometry& g, const T* x, T* y) {
  std::vector<double> m(size_t(g.inner)), s(size_t(g.inner));
  for (int64_t o = 0; o < g.outer; ++o) {
    const T* xo = x + o * g.n * g.inner;
    T* yo = y + o * g.n * g.inner;
    for (int64_t i = 0; i < g.inner; ++i) m[size_t(i)] = -INFINITY;
    for (int64_t k = 0; k < g.n; ++k)
      for (int64_t i = 0; i < g.inner; ++i) m[size_t(i)] = std::fmax(m[size_t(i)], double(xo[k * g.inner + i]));
    for (int64_t i = 0; i < g.inner; ++i) {
      if (!std::isfinite(m[size_t(i)])) m[size_t(i)] = 0;  // all -inf (or a nan/inf): numpy path's where()
      s[size_t(i)] = 0;
    }
    for (int64_t k = 0; k < g.n; ++k)
      for (int64_t i = 0; i < g.inner; ++i) s[size_t(i)] += std::exp(double(xo[k * g.inner + i]) - m[size_t(i)]);
    for (int64_t i = 0; i < g.inner; ++i) s[size_t(i)] = std::log(s[size_t(i)]);
    for (int64_t k = 0; k < g.n; ++k)
      for (int64_t i = 0; i < g.inner; ++i) {
        const int64_t j = k * g.inner + i;
        yo[j] = T(double(xo[j]) - m[size_t(i)] - s[size_t(i)]);
      }
  }
}

// _log_softmax_backward_data: grad - exp(result) * sum(grad over dim)
template <typename T>
void log_softmax_backward_kernel(const Geometry& g, const T* grad, const T* result, T* out) {
  std::vector<double> s(size_t(g.inner));
  for (int64_t o = 0; o < g.outer; ++o) {
    const int64_t base = o * g.n * g.inner;
    for (int64_t i = 0; i < g.inner; ++i) s[size_t(i)] = 0;
    for (int64_t k = 0; k < g.n; ++k)
      for (int64_t i = 0; i < g.inner; ++i) s[size_t(i)] += double(grad[base + k * g.inner + i]);
    for (int64_t k = 0; k < g.n; ++k)
      for (int64_t i = 0; i < g.inner; ++i) {
        const int64_t j = base + k * g.inner + i;
        out[j] = T(double(grad[j]) - std::exp(double(result[j])) * s[size_t(i)]);
      }
  }
}

py::object log_softmax(const TensorPtr& x, int64_t dim) {
  if (!usable(x, x ? x->dtype() : DType::Float32) || dim < 0 || dim >= x->dim()) return py::none();
  Runtime& r = rt();
  const void* in = host_readable(r, x);
  if (!in) return py::none();
  TensorPtr out = ds::empty(r, x->sizes(), x->dtype(), x->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  const Geometry g = geometry(*x, dim);
  if (x->dtype() == DType::Float32) log_softmax_kernel(g, static_cast<const float*>(in), static_cast<float*>(o));
  else log_softmax_kernel(g, static_cast<const double*>(in), static_cast<double*>(o));
  return py::cast(std::move(out));
}

py::object log_softmax_backward(const TensorPtr& grad, const TensorPtr& result, int64_t dim) {
  if (!usable(result, result ? result->dtype() : DType::Float32) || !usable(grad, result->dtype()) ||
      grad->sizes() != result->sizes() || !(grad->device() == result->device()) || dim < 0 || dim >= result->dim())
    return py::none();
  Runtime& r = rt();
  const void* gp = host_readable(r, grad);
  const void* rp = host_readable(r, result);
  if (!gp || !rp) return py::none();
  TensorPtr out = ds::empty(r, result->sizes(), result->dtype(), result->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  const Geometry g = geometry(*result, dim);
  if (result->dtype() == DType::Float32)
    log_softmax_backward_kernel(g, static_cast<const float*>(gp), static_cast<const float*>(rp), static_cast<float*>(o));
  else
    log_softmax_backward_kernel(g, static_cast<const double*>(gp), static_cast<const double*>(rp),
                                static_cast<double*>(o));
  return py::cast(std::move(out));
}

bool float_dtype(DType t) { return t == DType::Float32 || t == DType::Float64; }

// A 2-D operand the BLAS reads in place (row-major or a transpose of one), on host-addressable memory.
bool gemm_operand(const TensorPtr& t, DType dtype, const Device& device, GemmOperand& op) {
  if (!t || t->dim() != 2 || t->dtype() != dtype || t->numel() == 0 || t->is_virtual() || !(t->device() == device) ||
      t->device().type() == DeviceType::Meta || !fast_gemm_layout(*t, op))
    return false;
  op.data = host_readable(rt(), t);
  return op.data != nullptr;
}

GemmOperand transposed(GemmOperand op) {
  op.transposed = !op.transposed;
  return op;
}

// op(a) @ op(b) as a new contiguous [m, n] tensor (op: the operand or its transpose, ta / tb), the product of
// mm, or of addmm's backward (grad @ mat2^T, mat1^T @ grad, and their transposes for a column-major operand).
py::object mm(const TensorPtr& a, const TensorPtr& b, bool ta, bool tb) {
  if (!a || !b || !float_dtype(a->dtype()) || !blas_available()) return py::none();
  GemmOperand ga, gb;
  if (!gemm_operand(a, a->dtype(), a->device(), ga) || !gemm_operand(b, a->dtype(), a->device(), gb))
    return py::none();
  const int64_t m = a->sizes()[ta ? 1 : 0], k = a->sizes()[ta ? 0 : 1], n = b->sizes()[tb ? 0 : 1];
  if (b->sizes()[tb ? 1 : 0] != k) return py::none();
  Runtime& r = rt();
  TensorPtr out = ds::empty(r, {m, n}, a->dtype(), a->device(), false, false, current_storage_role());
  if (!gemm(a->dtype(), m, n, k, ta ? transposed(ga) : ga, tb ? transposed(gb) : gb, host_writable(r, out)))
    return py::none();
  return py::cast(std::move(out));
}

// addmm(input, mat1, mat2) with beta = alpha = 1 and input a contiguous [n] (a bias) or [m, n]: the result
// holds input (broadcast), then one gemm adds mat1 @ mat2 into it (beta 1), as ATen's addmm does.
py::object addmm(const TensorPtr& input, const TensorPtr& mat1, const TensorPtr& mat2) {
  if (!input || !mat1 || !mat2 || !float_dtype(mat1->dtype()) || !blas_available()) return py::none();
  const DType dt = mat1->dtype();
  if (!usable(input, dt) || !(input->device() == mat1->device())) return py::none();
  GemmOperand ga, gb;
  if (!gemm_operand(mat1, dt, mat1->device(), ga) || !gemm_operand(mat2, dt, mat1->device(), gb)) return py::none();
  const int64_t m = mat1->sizes()[0], k = mat1->sizes()[1], n = mat2->sizes()[1];
  if (mat2->sizes()[0] != k) return py::none();
  const bool row = input->dim() == 1 && input->sizes()[0] == n;
  const bool full = input->dim() == 2 && input->sizes()[0] == m && input->sizes()[1] == n;
  if (!row && !full) return py::none();
  Runtime& r = rt();
  const void* in = host_readable(r, input);
  if (!in) return py::none();
  TensorPtr out = ds::empty(r, {m, n}, dt, mat1->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  const size_t row_bytes = size_t(n) * itemsize(dt);
  for (int64_t i = 0; i < m; ++i)
    std::memcpy(static_cast<char*>(o) + size_t(i) * row_bytes,
                static_cast<const char*>(in) + (row ? 0 : size_t(i) * row_bytes), row_bytes);
  if (!gemm(dt, m, n, k, ga, gb, o, 1.0)) return py::none();
  return py::cast(std::move(out));
}

// The gradient of a broadcast [n] bias from a contiguous [m, n] gradient: its column sums, in double.
template <typename T>
void column_sums(const T* g, int64_t m, int64_t n, T* out) {
  std::vector<double> acc(size_t(n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) acc[size_t(j)] += double(g[i * n + j]);
  for (int64_t j = 0; j < n; ++j) out[j] = T(acc[size_t(j)]);
}

py::object sum_rows(const TensorPtr& g) {
  if (!g || !usable(g, g->dtype()) || g->dim() != 2) return py::none();
  Runtime& r = rt();
  const void* in = host_readable(r, g);
  if (!in) return py::none();
  const int64_t m = g->sizes()[0], n = g->sizes()[1];
  TensorPtr out = ds::empty(r, {n}, g->dtype(), g->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  if (g->dtype() == DType::Float32) column_sums(static_cast<const float*>(in), m, n, static_cast<float*>(o));
  else column_sums(static_cast<const double*>(in), m, n, static_cast<double*>(o));
  return py::cast(std::move(out));
}

}  // namespace

void bind_fast_grad(py::module_& m) {
  // Arguments are TensorImpl objects (a Tensor's _impl); None when the fast kernel does not apply.
  m.def("nn_log_softmax", [](py::handle x, int64_t dim) { return log_softmax(x.cast<TensorPtr>(), dim); });
  m.def("nn_log_softmax_backward", [](py::handle grad, py::handle result, int64_t dim) {
    return log_softmax_backward(grad.cast<TensorPtr>(), result.cast<TensorPtr>(), dim);
  });
  m.def("nn_mm", [](py::handle a, py::handle b, bool ta, bool tb) {
    return mm(a.cast<TensorPtr>(), b.cast<TensorPtr>(), ta, tb);
  });
  m.def("nn_addmm", [](py::handle input, py::handle mat1, py::handle mat2) {
    return addmm(input.cast<TensorPtr>(), mat1.cast<TensorPtr>(), mat2.cast<TensorPtr>());
  });
  m.def("nn_sum_rows", [](py::handle g) { return sum_rows(g.cast<TensorPtr>()); });
}

}  // namespace ds::python
