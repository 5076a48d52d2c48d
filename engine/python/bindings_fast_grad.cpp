// C++ kernels for the hot ops of a small training step that Python computed with many numpy calls (issue 23):
// log_softmax forward and backward (cross_entropy's first half), addmm (nn.Linear's forward) and the products
// and bias sum of its backward, relu's, tanh's and sigmoid's backward, nll_loss forward and backward (cross_entropy's second half). The Python layer (torch/_ops/reduction.py, linalg.py) checks arguments, builds
// the autograd node and calls these; each entry allocates exactly what ATen's kernel allocates (one output,
// through ds::empty, so the event log and the memory panes see it) and returns None when it does not apply
// (another dtype or layout, virtual tensors, real device memory the host cannot address), where Python takes
// its numpy path.
//
// Values: log_softmax and the bias sum compute in double and round once to the tensor's dtype, as the numpy
// path did (float64 math); products are one BLAS gemm in the operands' dtype, as numpy's matmul was.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "tensor/blas_gemm.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

bool fast_gemm_layout(const TensorImpl& t, GemmOperand& op);  // bindings_ops.cpp
float fast_numpy_sum(const float* a, int64_t n);                // bindings_ops.cpp: np.sum's order
double fast_numpy_sum(const double* a, int64_t n);

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

// A backward kernel's operands: the gradient and the op's result (same dense float layout, one device), read on
// the host, and a fresh output like the result. False when the kernel does not apply (the Python formula runs).
struct GradResult {
  const void* grad = nullptr;
  const void* result = nullptr;
  TensorPtr out;
};

bool grad_and_result(const TensorPtr& grad, const TensorPtr& result, GradResult& in) {
  if (!usable(result, result ? result->dtype() : DType::Float32) || !usable(grad, result->dtype()) ||
      grad->sizes() != result->sizes() || !(grad->device() == result->device()))
    return false;
  Runtime& r = rt();
  in.grad = host_readable(r, grad);
  in.result = host_readable(r, result);
  if (!in.grad || !in.result) return false;
  in.out = ds::empty(r, result->sizes(), result->dtype(), result->device(), false, false, current_storage_role());
  return true;
}

py::object log_softmax_backward(const TensorPtr& grad, const TensorPtr& result, int64_t dim) {
  if (dim < 0 || (result && dim >= result->dim())) return py::none();
  GradResult in;
  if (!grad_and_result(grad, result, in)) return py::none();
  const void *gp = in.grad, *rp = in.result;
  TensorPtr out = in.out;
  void* o = host_writable(rt(), out);
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
TensorPtr mm_kernel(const TensorPtr& a, const TensorPtr& b, bool ta, bool tb) {
  if (!a || !b || !float_dtype(a->dtype()) || !blas_available()) return nullptr;
  GemmOperand ga, gb;
  if (!gemm_operand(a, a->dtype(), a->device(), ga) || !gemm_operand(b, a->dtype(), a->device(), gb))
    return nullptr;
  const int64_t m = a->sizes()[ta ? 1 : 0], k = a->sizes()[ta ? 0 : 1], n = b->sizes()[tb ? 0 : 1];
  if (b->sizes()[tb ? 1 : 0] != k) return nullptr;
  Runtime& r = rt();
  TensorPtr out = ds::empty(r, {m, n}, a->dtype(), a->device(), false, false, current_storage_role());
  if (!gemm(a->dtype(), m, n, k, ta ? transposed(ga) : ga, tb ? transposed(gb) : gb, host_writable(r, out)))
    return nullptr;
  return out;
}

// addmm(input, mat1, mat2) with beta = alpha = 1 and input a contiguous [n] (a bias) or [m, n]: the result
// holds input (broadcast), then one gemm adds mat1 @ mat2 into it (beta 1), as ATen's addmm does.
TensorPtr addmm_kernel(const TensorPtr& input, const TensorPtr& mat1, const TensorPtr& mat2) {
  if (!input || !mat1 || !mat2 || !float_dtype(mat1->dtype()) || !blas_available()) return nullptr;
  const DType dt = mat1->dtype();
  if (!usable(input, dt) || !(input->device() == mat1->device())) return nullptr;
  GemmOperand ga, gb;
  if (!gemm_operand(mat1, dt, mat1->device(), ga) || !gemm_operand(mat2, dt, mat1->device(), gb)) return nullptr;
  const int64_t m = mat1->sizes()[0], k = mat1->sizes()[1], n = mat2->sizes()[1];
  if (mat2->sizes()[0] != k) return nullptr;
  const bool row = input->dim() == 1 && input->sizes()[0] == n;
  const bool full = input->dim() == 2 && input->sizes()[0] == m && input->sizes()[1] == n;
  if (!row && !full) return nullptr;
  Runtime& r = rt();
  const void* in = host_readable(r, input);
  if (!in) return nullptr;
  TensorPtr out = ds::empty(r, {m, n}, dt, mat1->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  const size_t row_bytes = size_t(n) * itemsize(dt);
  if (row && n == 1) {  // nn.Linear(k, 1)'s bias: one value down the column (a memcpy call per 4 bytes cost 20%)
    if (dt == DType::Float32) std::fill_n(static_cast<float*>(o), m, *static_cast<const float*>(in));
    else std::fill_n(static_cast<double*>(o), m, *static_cast<const double*>(in));
  } else {
    for (int64_t i = 0; i < m; ++i)
      std::memcpy(static_cast<char*>(o) + size_t(i) * row_bytes,
                  static_cast<const char*>(in) + (row ? 0 : size_t(i) * row_bytes), row_bytes);
  }
  if (!gemm(dt, m, n, k, ga, gb, o, 1.0)) return nullptr;
  return out;
}

// The gradient of a broadcast [n] bias from a contiguous [m, n] gradient: its column sums, in double.
template <typename T>
void column_sums(const T* g, int64_t m, int64_t n, T* out) {
  std::vector<double> acc(size_t(n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) acc[size_t(j)] += double(g[i * n + j]);
  for (int64_t j = 0; j < n; ++j) out[j] = T(acc[size_t(j)]);
}

TensorPtr sum_rows_kernel(const TensorPtr& g) {
  if (!g || !usable(g, g->dtype()) || g->dim() != 2) return nullptr;
  Runtime& r = rt();
  const void* in = host_readable(r, g);
  if (!in) return nullptr;
  const int64_t m = g->sizes()[0], n = g->sizes()[1];
  TensorPtr out = ds::empty(r, {n}, g->dtype(), g->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  if (g->dtype() == DType::Float32) column_sums(static_cast<const float*>(in), m, n, static_cast<float*>(o));
  else column_sums(static_cast<const double*>(in), m, n, static_cast<double*>(o));
  return out;
}

// The backward of an activation that saved its result, in one pass and one allocation, as torch/_ops/unary.py's
// formulas compute it with the fast path's float ops (their intermediates are scratch, their result one
// allocation): relu grad * (result > 0), tanh grad * (1 - result * result), sigmoid (grad * result) * (1 - result).
// (Without -march there is no FMA to contract these into: each product rounds as the separate ops do.)
enum class Activation { Relu, Tanh, Sigmoid };

// relu's: a select of 1 or 0, then the product (g * 0 keeps -0.0 and NaN for a NaN or infinite g, as the formula
// does). Compiled at -O3 without trapping math so the select becomes a vector compare-and-mask: the -O2 scalar
// loop branched on the sign of r, half mispredicted on a trained net's mixed signs (7 ns an element, 4x
// PyTorch's threshold_backward on mnist_cnn's 2.4M-element activations). No FMA target: nothing to contract.
template <typename T>
__attribute__((optimize("O3", "no-trapping-math"))) void relu_backward_kernel(const T* g, const T* r, T* out,
                                                                                 int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = g[i] * (r[i] > T(0) ? T(1) : T(0));
}

template <typename T>
void activation_backward_kernel(Activation a, const T* g, const T* r, T* out, int64_t n) {
  switch (a) {
    case Activation::Relu: relu_backward_kernel(g, r, out, n); break;
    case Activation::Tanh:
      for (int64_t i = 0; i < n; ++i) {
        const T d = T(1) - r[i] * r[i];
        out[i] = g[i] * d;
      }
      break;
    case Activation::Sigmoid:
      for (int64_t i = 0; i < n; ++i) {
        const T gr = g[i] * r[i];
        out[i] = gr * (T(1) - r[i]);
      }
      break;
  }
}

py::object activation_backward(Activation a, const TensorPtr& grad, const TensorPtr& result) {
  GradResult in;
  if (!grad_and_result(grad, result, in)) return py::none();
  const void *gp = in.grad, *rp = in.result;
  TensorPtr out = in.out;
  void* o = host_writable(rt(), out);
  if (result->dtype() == DType::Float32)
    activation_backward_kernel(a, static_cast<const float*>(gp), static_cast<const float*>(rp), static_cast<float*>(o),
                               result->numel());
  else
    activation_backward_kernel(a, static_cast<const double*>(gp), static_cast<const double*>(rp),
                               static_cast<double*>(o), result->numel());
  return py::cast(std::move(out));
}

// nll_loss over a dense [n, c] float input and [n] int64 target (torch/nn/_loss_fast.py's case), in the order
// and dtype of that file's numpy formulas: w_i = weight[safe_i] * valid_i (safe: 0 for an ignored row),
// loss_i = -x[i, safe_i] * w_i, total_weight = np.sum(w) (0 for reduction 'none'), and the loss vector, its
// np.sum, or that sum / total_weight. Reduction codes as PyTorch's enum: 0 none, 1 mean, 2 sum.
struct NllArgs {
  TensorPtr target, weight;
  DType dtype = DType::Float32;  // the input's
  Device device;
  int64_t ignore_index = -100, reduction = 1, n = 0, c = 0;
};

// The class index of each row (0 for an ignored one) and whether it counts; false when an index is out of range
// (the composite path reports it as PyTorch does) or the operands are not the fast case.
bool nll_rows(const NllArgs& a, std::vector<int64_t>& safe, std::vector<char>& valid) {
  if (!float_dtype(a.dtype) || !a.target || a.target->dim() != 1 || a.target->dtype() != DType::Int64 ||
      !a.target->is_contiguous() || a.target->is_virtual() || a.target->numel() == 0 ||
      !(a.target->device() == a.device) || a.target->sizes()[0] != a.n || a.c <= 0)
    return false;
  if (a.weight && (!usable(a.weight, a.dtype) || a.weight->dim() != 1 || a.weight->sizes()[0] != a.c ||
                   !(a.weight->device() == a.device)))
    return false;
  const int64_t n = a.n, c = a.c;
  const int64_t* t = static_cast<const int64_t*>(host_readable(rt(), a.target));
  if (!t) return false;
  safe.resize(size_t(n));
  valid.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    valid[size_t(i)] = t[i] != a.ignore_index;
    safe[size_t(i)] = valid[size_t(i)] ? t[i] : 0;
    if (safe[size_t(i)] < 0 || safe[size_t(i)] >= c) return false;
  }
  return true;
}

template <typename T>
std::vector<T> nll_weights(const NllArgs& a, const std::vector<int64_t>& safe, const std::vector<char>& valid,
                           const T* wt) {
  std::vector<T> w(safe.size());
  for (size_t i = 0; i < safe.size(); ++i) w[i] = (wt ? wt[safe[i]] : T(1)) * T(valid[i] ? 1 : 0);
  return w;
}

template <typename T>
void nll_forward_kernel(const NllArgs& a, const std::vector<int64_t>& safe, const std::vector<char>& valid,
                        const T* x, const T* wt, T* out, T* total) {
  const std::vector<T> w = nll_weights(a, safe, valid, wt);
  std::vector<T> loss(safe.size());
  for (size_t i = 0; i < safe.size(); ++i) loss[i] = -x[int64_t(i) * a.c + safe[i]] * w[i];
  *total = a.reduction == 0 ? T(0) : fast_numpy_sum(w.data(), int64_t(w.size()));
  if (a.reduction == 0) std::memcpy(out, loss.data(), loss.size() * sizeof(T));
  else if (a.reduction == 2) *out = fast_numpy_sum(loss.data(), int64_t(loss.size()));
  else *out = fast_numpy_sum(loss.data(), int64_t(loss.size())) / *total;
}

// (loss, total_weight), allocated in that order, or None.
py::object nll_forward(const TensorPtr& input, NllArgs& a) {
  if (!usable(input, input ? input->dtype() : DType::Float32) || input->dim() != 2) return py::none();
  a.dtype = input->dtype();
  a.device = input->device();
  a.n = input->sizes()[0];
  a.c = input->sizes()[1];
  std::vector<int64_t> safe;
  std::vector<char> valid;
  if (!nll_rows(a, safe, valid)) return py::none();
  Runtime& r = rt();
  const void* x = host_readable(r, input);
  const void* wt = a.weight ? host_readable(r, a.weight) : nullptr;
  if (!x || (a.weight && !wt)) return py::none();
  const DType dt = a.dtype;
  const Shape shape = a.reduction == 0 ? Shape{a.n} : Shape{};
  TensorPtr out = ds::empty(r, shape, dt, a.device, false, false, current_storage_role());
  TensorPtr total = ds::empty(r, {}, dt, a.device, false, false, current_storage_role());
  if (dt == DType::Float32)
    nll_forward_kernel(a, safe, valid, static_cast<const float*>(x), static_cast<const float*>(wt),
                       static_cast<float*>(host_writable(r, out)), static_cast<float*>(host_writable(r, total)));
  else
    nll_forward_kernel(a, safe, valid, static_cast<const double*>(x), static_cast<const double*>(wt),
                       static_cast<double*>(host_writable(r, out)), static_cast<double*>(host_writable(r, total)));
  return py::make_tuple(py::cast(std::move(out)), py::cast(std::move(total)));
}

// NllLossBackward0 outside create_graph: zeros [n, c] with -w_i * (g / total_weight) ('mean'), -w_i * g ('sum')
// or -w_i * g_i ('none') at each counted row's class.
template <typename T>
void nll_backward_kernel(const NllArgs& a, const std::vector<int64_t>& safe, const std::vector<char>& valid,
                         const T* g, const T* wt, T total, T* out) {
  const std::vector<T> w = nll_weights(a, safe, valid, wt);
  std::memset(out, 0, size_t(a.n * a.c) * sizeof(T));
  for (size_t i = 0; i < safe.size(); ++i) {
    if (!valid[i]) continue;
    const T gi = a.reduction == 0 ? g[i] : g[0];
    out[int64_t(i) * a.c + safe[i]] = a.reduction == 1 ? -w[i] * (gi / total) : -w[i] * gi;
  }
}

// total: the saved total_weight, which also gives the input's dtype and device; n, c: the input's sizes.
py::object nll_backward(NllArgs& a, const TensorPtr& grad, const TensorPtr& total) {
  if (!total || !float_dtype(total->dtype())) return py::none();
  a.dtype = total->dtype();
  a.device = total->device();
  std::vector<int64_t> safe;
  std::vector<char> valid;
  if (!nll_rows(a, safe, valid)) return py::none();
  const DType dt = a.dtype;
  const int64_t want = a.reduction == 0 ? a.n : 1;
  if (!usable(grad, dt) || grad->numel() != want || grad->dim() != (a.reduction == 0 ? 1 : 0) ||
      !usable(total, dt) || total->dim() != 0 || !(grad->device() == a.device))
    return py::none();
  Runtime& r = rt();
  const void* g = host_readable(r, grad);
  const void* tw = host_readable(r, total);
  const void* wt = a.weight ? host_readable(r, a.weight) : nullptr;
  if (!g || !tw || (a.weight && !wt)) return py::none();
  TensorPtr out = ds::empty(r, {a.n, a.c}, dt, a.device, false, false, current_storage_role());
  if (dt == DType::Float32)
    nll_backward_kernel(a, safe, valid, static_cast<const float*>(g), static_cast<const float*>(wt),
                        *static_cast<const float*>(tw), static_cast<float*>(host_writable(r, out)));
  else
    nll_backward_kernel(a, safe, valid, static_cast<const double*>(g), static_cast<const double*>(wt),
                        *static_cast<const double*>(tw), static_cast<double*>(host_writable(r, out)));
  return py::cast(std::move(out));
}

py::object as_py(TensorPtr t) { return t ? py::cast(std::move(t)) : py::object(py::none()); }

NllArgs nll_args(py::handle target, py::handle weight, int64_t ignore_index, int64_t reduction) {
  NllArgs a;
  a.target = target.cast<TensorPtr>();
  a.weight = weight.is_none() ? TensorPtr{} : weight.cast<TensorPtr>();
  a.ignore_index = ignore_index;
  a.reduction = reduction;
  return a;
}

}  // namespace

// The kernels above for the C++ linalg entries (bindings_linalg_fast.cpp): null where they do not apply.
TensorPtr fast_addmm_kernel(const TensorPtr& input, const TensorPtr& mat1, const TensorPtr& mat2) {
  return addmm_kernel(input, mat1, mat2);
}
TensorPtr fast_mm_kernel(const TensorPtr& a, const TensorPtr& b, bool ta, bool tb) { return mm_kernel(a, b, ta, tb); }
TensorPtr fast_sum_rows_kernel(const TensorPtr& g) { return sum_rows_kernel(g); }
void bind_linalg_fast(py::module_& m);  // bindings_linalg_fast.cpp
void bind_loss_smooth_l1(py::module_& m);  // bindings_loss_smooth_l1.cpp
void bind_loss_mse(py::module_& m);        // bindings_loss_mse.cpp

void bind_fast_grad(py::module_& m) {
  bind_linalg_fast(m);
  bind_loss_smooth_l1(m);
  bind_loss_mse(m);
  // Arguments are TensorImpl objects (a Tensor's _impl); None when the fast kernel does not apply.
  m.def("nn_log_softmax", [](py::handle x, int64_t dim) { return log_softmax(x.cast<TensorPtr>(), dim); });
  m.def("nn_log_softmax_backward", [](py::handle grad, py::handle result, int64_t dim) {
    return log_softmax_backward(grad.cast<TensorPtr>(), result.cast<TensorPtr>(), dim);
  });
  m.def("nn_mm", [](py::handle a, py::handle b, bool ta, bool tb) {
    return as_py(mm_kernel(a.cast<TensorPtr>(), b.cast<TensorPtr>(), ta, tb));
  });
  m.def("nn_addmm", [](py::handle input, py::handle mat1, py::handle mat2) {
    return as_py(addmm_kernel(input.cast<TensorPtr>(), mat1.cast<TensorPtr>(), mat2.cast<TensorPtr>()));
  });
  m.def("nn_sum_rows", [](py::handle g) { return as_py(sum_rows_kernel(g.cast<TensorPtr>())); });
  m.def("nn_nll_loss", [](py::handle input, py::handle target, py::handle weight, int64_t ignore_index,
                          int64_t reduction) {
    NllArgs a = nll_args(target, weight, ignore_index, reduction);
    return nll_forward(input.cast<TensorPtr>(), a);
  });
  // grad, the saved target / weight / total_weight, the input's sizes n x c
  m.def("nn_nll_loss_backward", [](py::handle grad, py::handle target, py::handle weight, py::handle total,
                                   int64_t ignore_index, int64_t reduction, int64_t n, int64_t c) {
    NllArgs a = nll_args(target, weight, ignore_index, reduction);
    a.n = n;
    a.c = c;
    return nll_backward(a, grad.cast<TensorPtr>(), total.cast<TensorPtr>());
  });
  // kind: 0 relu, 1 tanh, 2 sigmoid (the backward from the saved result)
  m.def("nn_activation_backward", [](int kind, py::handle grad, py::handle result) {
    if (kind < 0 || kind > 2) return py::object(py::none());
    return activation_backward(Activation(kind), grad.cast<TensorPtr>(), result.cast<TensorPtr>());
  });
}

}  // namespace ds::python
