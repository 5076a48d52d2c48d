// C++ kernels for one time step of the recurrent cells (torch/nn/_rnn_cells.py, ATen's CPU LSTMCell /
// GRUCell / SimpleCell in aten/src/ATen/native/RNN.cpp), issue 23: the Python cell built each step from ~10
// numpy passes and as many tensor allocations in Python; here the pointwise part of a step is one pass and
// its allocations are made in the order and layout the Python path (and ATen) makes them. Python still makes
// the chunk views and the autograd nodes (names, saved tensors, edges as PyTorch 1.13's).
//
// Entries (arguments are TensorImpls; None when the fast case does not apply, where Python's numpy path runs):
//   rnn_lstm_gates(gates, igates, cx)  gates.add_(igates), then sigmoid_ / tanh_ of the i, f, g, o chunks, in
//                                      place (gates' version bumped once per in-place op, as the Python path
//                                      writes it once); True when it ran. cx is only checked here, so that
//                                      rnn_lstm_state cannot refuse after the gates were written.
//   rnn_lstm_state(gates, cx)          fcx = f * cx, ig = i * g, cy = fcx.add_(ig) (ig freed), tc = cy.tanh(),
//                                      hy = o * tc: allocates fcx, ig, tc, hy in that order; returns (cy, tc, hy).
//   rnn_gru(igates, hgates, hx, clones) the GRU step after linear_hh: r, z = sigmoid(hg + ig), hn = hg_n * r
//                                      written into hgates; new_gate = tanh(ig_n + hn), hy = (hx - new_gate) *
//                                      z + new_gate. Allocates (orig_hn clone,) new_gate, hy(, orig_d clone): the
//                                      clones are the saved selves of the two mul_ that autograd keeps when the
//                                      gates need a gradient. Returns (orig_hn or None, new_gate, hy, orig_d or None).
//   rnn_chunks(t, n)                   t.unsafe_chunk(n, 1)'s views (as_strided each), no node.
//   rnn_add_(gates, igates)            a simple cell's gates.add_(igates) in place; True when it ran.
//   rnn_activation(kind, x)            its tanh (1) or relu (2) as a new tensor.
//   rnn_act_grad(kind, grad, result)   the backward of an activation from its saved result, as the Python closures
//                                      compute it: 0 sigmoid grad * (1 - y) * y (ATen's sigmoid_backward order),
//                                      1 tanh grad * (1 - y * y), 2 relu grad where y > 0 else 0.
//   rnn_mul_grad(grad, other)          grad * other (MulBackward0's gradient for one side); other may be a
//                                      strided gate chunk.
//   rnn_neg_grad(grad)                 -grad (SubBackward0's gradient of `other`).
//   rnn_split_grad(grads, rows, cols)  UnsafeSplitBackward0: the pieces' gradients side by side in one [rows, cols]
//                                      tensor, zeros for a missing one.
// Every output is one ds::empty (the event log sees it), contiguous unless said otherwise. Values: sums and
// products in the tensor's dtype (float32 or float64), sigmoid and tanh in double rounded once, as the numpy
// path computed them (float64: numpy's own exp and tanh loops; see forward_dtype).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "numpy_loops.h"
#include "rnn_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

// A 2-D float operand read (and written) in place: element (i, j) at p[i * s0 + j * s1].
struct Mat {
  char* p = nullptr;
  int64_t s0 = 0, s1 = 0;
};

bool float_dtype(DType t) { return t == DType::Float32 || t == DType::Float64; }

// The forward kernels take float32, and float64 where numpy's own exp and tanh loops were found (numpy_loops.h):
// the numpy path's float64 values come from numpy's SIMD exp and tanh, which the libm functions do not match to
// the last bit (tests/rnn_kernels wants every bit). The backward kernels are products and sums, exact in both.
bool forward_dtype(DType t) { return t == DType::Float32 || (t == DType::Float64 && numpy_loops::available()); }

// t as a [rows, cols] operand of dtype dt on device dev, addressable on the host; false when it is not the fast
// case (another dtype or shape, a virtual or meta tensor, real device memory).
bool operand(const TensorPtr& t, DType dt, const Device& dev, int64_t rows, int64_t cols, Mat& m,
             bool writable = false) {
  if (!t || t->dim() != 2 || t->dtype() != dt || t->sizes()[0] != rows || t->sizes()[1] != cols || rows <= 0 ||
      cols <= 0 || t->is_virtual() || !(t->device() == dev) || dev.type() == DeviceType::Meta)
    return false;
  Runtime& r = rt();
  const void* base = writable ? host_writable(r, t) : host_readable(r, t);
  if (!base) return false;
  m.p = static_cast<char*>(const_cast<void*>(base));
  m.s0 = t->strides()[0];
  m.s1 = t->strides()[1];
  return true;
}

template <typename T>
inline T& at(const Mat& m, int64_t i, int64_t j) {
  return reinterpret_cast<T*>(m.p)[i * m.s0 + j * m.s1];
}

// exp(x) in double without a libm call (Cody-Waite reduction by ln 2, a degree-13 Taylor polynomial on
// |r| <= ln2 / 2, the power of two put into the exponent): within a few double ulp, far below what rounding to
// float32 can see (no float32 sigmoid or tanh result differed from glibc's double exp / tanh over 2e7 random
// inputs). Written without branches so that the span loops below vectorize: glibc's scalar exp and tanh were
// most of a step's C++ time. x is clamped to [-708, 709] (results ~0 and ~8e307: the sigmoid and tanh below
// saturate as with inf). float32 cells use it; float64 ones keep std::exp / std::tanh.
static inline __attribute__((always_inline)) double exp_double(double x) {
  x = x < -708.0 ? -708.0 : x;  // (selects, not branches; a NaN stays NaN)
  x = x > 709.0 ? 709.0 : x;
  const double shifter = 6755399441055744.0;  // 0x1.8p52: adding it rounds to an integer in the low bits
  const double kd = x * 1.4426950408889634 + shifter;
  const double n = kd - shifter;
  const double r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;  // fdlibm's ln2 hi/lo
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  uint64_t kbits;
  std::memcpy(&kbits, &kd, sizeof kbits);
  const int64_t ni = int64_t(int32_t(uint32_t(kbits)));  // n, two's complement in the low bits
  const uint64_t sbits = uint64_t(ni + 1023) << 52;
  double scale;
  std::memcpy(&scale, &sbits, sizeof scale);
  return p * scale;
}

// v[k] = sigmoid(v[k]) / tanh(v[k]) in place, computed in double and rounded once. float32: exp_double in a loop
// GCC vectorizes (AVX-512 / AVX2 clones picked at load time; no-trapping-math lets it turn the selects into
// blends). tanh: (1 - e) / (1 + e) with e = exp(-2|x|), or x (1 - x^2/3 + 2x^4/15) below 1e-4 where that
// difference would cancel.
__attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3", "no-trapping-math"))) void
sigmoid_f32(float* v, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    const double x = double(v[k]);
    const double e = exp_double(-x);
    v[k] = float(1.0 / (1.0 + e));
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3", "no-trapping-math"))) void
tanh_f32(float* v, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    const double x = double(v[k]), a = std::fabs(x), x2 = x * x;
    const double e = exp_double(-2.0 * a);
    const double big = std::copysign((1.0 - e) / (1.0 + e), x);
    const double small = x * (1.0 - x2 * (1.0 / 3.0 - x2 * (2.0 / 15.0)));
    v[k] = float(a < 1e-4 ? small : big);
  }
}

void sigmoid_span(float* v, int64_t n) { sigmoid_f32(v, n); }
void tanh_span(float* v, int64_t n) { tanh_f32(v, n); }
// float64: the numpy path's 1.0 / (1.0 + np.exp(-v)) and np.tanh(v), with numpy's own loops (forward_dtype admits
// float64 only when they were found)
void sigmoid_span(double* v, int64_t n) {
  for (int64_t k = 0; k < n; ++k) v[k] = -v[k];
  numpy_loops::exp_f64(v, v, n);
  for (int64_t k = 0; k < n; ++k) v[k] = 1.0 / (1.0 + v[k]);
}
void tanh_span(double* v, int64_t n) { numpy_loops::tanh_f64(v, v, n); }

// Row i's first element of a matrix with unit column stride.
template <typename T>
inline T* row(const Mat& m, int64_t i) {
  return reinterpret_cast<T*>(m.p) + i * m.s0;
}

TensorPtr fresh(const Shape& sizes, DType dt, const Device& dev) {
  return ds::empty(rt(), sizes, dt, dev, false, false, current_storage_role());
}

Mat contiguous_mat(const TensorPtr& t) {
  Mat m;
  m.p = static_cast<char*>(host_writable(rt(), t));
  m.s0 = t->sizes()[1];
  m.s1 = 1;
  return m;
}

// ----------------------------------------------------------------------------- LSTM
template <typename T>
void lstm_gates_kernel(const Mat& g, const Mat& ig, int64_t rows, int64_t h) {  // g: unit column stride
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < 4 * h; ++j) at<T>(g, i, j) = T(at<T>(g, i, j) + at<T>(ig, i, j));
    T* r = row<T>(g, i);
    sigmoid_span(r, 2 * h);  // ingate, forgetgate
    tanh_span(r + 2 * h, h);  // cellgate
    sigmoid_span(r + 3 * h, h);  // outgate
  }
}

// The operands of an LSTM step: gates [rows, 4h] (row-major pieces: the chunks' results are contiguous, as the
// Python path's _pointwise makes them only when both operands have unit column stride) and cx [rows, h].
bool lstm_operands(const TensorPtr& gates, const TensorPtr& cx, Mat& g, Mat& c, bool writable) {
  if (!gates || !cx || gates->dim() != 2 || !forward_dtype(gates->dtype()) || gates->sizes()[1] % 4 != 0) return false;
  const int64_t rows = gates->sizes()[0], h = gates->sizes()[1] / 4;
  return operand(gates, gates->dtype(), gates->device(), rows, 4 * h, g, writable) && g.s1 == 1 &&
         operand(cx, gates->dtype(), gates->device(), rows, h, c) && c.s1 == 1;
}

py::object lstm_gates(const TensorPtr& gates, const TensorPtr& igates, const TensorPtr& cx) {
  Mat g, c, ig;
  if (!lstm_operands(gates, cx, g, c, true)) return py::bool_(false);
  const int64_t rows = gates->sizes()[0], h = gates->sizes()[1] / 4;
  if (!operand(igates, gates->dtype(), gates->device(), rows, 4 * h, ig)) return py::bool_(false);
  if (gates->dtype() == DType::Float32) lstm_gates_kernel<float>(g, ig, rows, h);
  else lstm_gates_kernel<double>(g, ig, rows, h);
  gates->bump_version();
  return py::bool_(true);
}

template <typename T>
py::object lstm_state_kernel(const TensorPtr& gates, const Mat& g, const Mat& c, int64_t rows, int64_t h) {
  const DType dt = gates->dtype();
  const Device dev = gates->device();
  const Shape shape{rows, h};
  TensorPtr fcx = fresh(shape, dt, dev);
  const Mat f = contiguous_mat(fcx);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < h; ++j) at<T>(f, i, j) = T(at<T>(g, i, h + j) * at<T>(c, i, j));
  {
    TensorPtr ig = fresh(shape, dt, dev);  // i * g: freed once cy holds the sum (nothing saves it)
    const Mat m = contiguous_mat(ig);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < h; ++j) at<T>(m, i, j) = T(at<T>(g, i, j) * at<T>(g, i, 2 * h + j));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < h; ++j) at<T>(f, i, j) = T(at<T>(f, i, j) + at<T>(m, i, j));
    fcx->bump_version();  // cy = fcx.add_(ig)
  }
  TensorPtr tc = fresh(shape, dt, dev);
  const Mat t = contiguous_mat(tc);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < h; ++j) at<T>(t, i, j) = at<T>(f, i, j);
    tanh_span(row<T>(t, i), h);
  }
  TensorPtr hy = fresh(shape, dt, dev);
  const Mat y = contiguous_mat(hy);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < h; ++j) at<T>(y, i, j) = T(at<T>(g, i, 3 * h + j) * at<T>(t, i, j));
  return py::make_tuple(py::cast(std::move(fcx)), py::cast(std::move(tc)), py::cast(std::move(hy)));
}

py::object lstm_state(const TensorPtr& gates, const TensorPtr& cx) {
  Mat g, c;
  if (!lstm_operands(gates, cx, g, c, false)) return py::none();
  const int64_t rows = gates->sizes()[0], h = gates->sizes()[1] / 4;
  if (gates->dtype() == DType::Float32) return lstm_state_kernel<float>(gates, g, c, rows, h);
  return lstm_state_kernel<double>(gates, g, c, rows, h);
}

// ----------------------------------------------------------------------------- GRU
// empty_like(piece) with preserve_format: the piece's strides when they are dense but not row-major (a one-row
// chunk of a wider matrix), else contiguous; as the Python path's _clone.
TensorPtr clone_like(const Shape& sizes, const Shape& strides, DType dt, const Device& dev, Mat& m) {
  const Shape cs = contiguous_strides(sizes);
  bool dense = true;
  {
    int64_t expected = 1;
    std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dims of size >= 2
    for (size_t k = 0; k < sizes.size(); ++k)
      if (sizes[k] >= 2) dims.emplace_back(strides[k], sizes[k]);
    std::sort(dims.begin(), dims.end());
    for (auto& [st, sz] : dims) {
      if (st != expected) dense = false;
      expected *= sz;
    }
  }
  if (strides == cs || !dense) {
    TensorPtr t = fresh(sizes, dt, dev);
    m = contiguous_mat(t);
    return t;
  }
  TensorPtr flat = fresh({shape_numel(sizes)}, dt, dev);
  m.p = static_cast<char*>(host_writable(rt(), flat));
  m.s0 = strides[0];
  m.s1 = strides[1];
  return ds::as_strided(flat, sizes, strides, 0);
}

template <typename T>
py::object gru_kernel(const TensorPtr& hgates, const Mat& ig, const Mat& hg, const Mat& hx, int64_t rows, int64_t h,
                      bool clones) {
  const DType dt = hgates->dtype();
  const Device dev = hgates->device();
  const Shape shape{rows, h};
  TensorPtr orig_hn, orig_d;
  Mat on, od;
  if (clones) {
    orig_hn = clone_like(shape, {hg.s0, hg.s1}, dt, dev, on);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < h; ++j) at<T>(on, i, j) = at<T>(hg, i, 2 * h + j);
  }
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < 2 * h; ++j) at<T>(hg, i, j) = T(at<T>(hg, i, j) + at<T>(ig, i, j));
    sigmoid_span(row<T>(hg, i), 2 * h);
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < h; ++j) at<T>(hg, i, 2 * h + j) = T(at<T>(hg, i, 2 * h + j) * at<T>(hg, i, j));
  hgates->bump_version();
  TensorPtr ng = fresh(shape, dt, dev);
  const Mat n = contiguous_mat(ng);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < h; ++j) at<T>(n, i, j) = T(at<T>(ig, i, 2 * h + j) + at<T>(hg, i, 2 * h + j));
    tanh_span(row<T>(n, i), h);
  }
  TensorPtr hy = fresh(shape, dt, dev);
  const Mat y = contiguous_mat(hy);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < h; ++j) at<T>(y, i, j) = T(at<T>(hx, i, j) - at<T>(n, i, j));  // hidden - new_gate
  if (clones) {
    orig_d = fresh(shape, dt, dev);
    od = contiguous_mat(orig_d);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < h; ++j) at<T>(od, i, j) = at<T>(y, i, j);
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < h; ++j) at<T>(y, i, j) = T(T(at<T>(y, i, j) * at<T>(hg, i, h + j)) + at<T>(n, i, j));
  return py::make_tuple(orig_hn ? py::cast(std::move(orig_hn)) : py::none(), py::cast(std::move(ng)),
                        py::cast(std::move(hy)), orig_d ? py::cast(std::move(orig_d)) : py::none());
}

py::object gru(const TensorPtr& igates, const TensorPtr& hgates, const TensorPtr& hx, bool clones) {
  if (!hgates || hgates->dim() != 2 || !forward_dtype(hgates->dtype()) || hgates->sizes()[1] % 3 != 0)
    return py::none();
  const DType dt = hgates->dtype();
  const Device dev = hgates->device();
  const int64_t rows = hgates->sizes()[0], h = hgates->sizes()[1] / 3;
  Mat ig, hg, x;
  // unit column strides: the Python path's _pointwise makes new_gate and hy contiguous only then
  if (!operand(hgates, dt, dev, rows, 3 * h, hg, true) || hg.s1 != 1 ||
      !operand(igates, dt, dev, rows, 3 * h, ig) || ig.s1 != 1 || !operand(hx, dt, dev, rows, h, x) || x.s1 != 1)
    return py::none();
  if (dt == DType::Float32) return gru_kernel<float>(hgates, ig, hg, x, rows, h, clones);
  return gru_kernel<double>(hgates, ig, hg, x, rows, h, clones);
}

// ----------------------------------------------------------------------------- simple cell
template <typename T>
void add_kernel(const Mat& a, const Mat& b, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) at<T>(a, i, j) = T(at<T>(a, i, j) + at<T>(b, i, j));
}

// gates.add_(igates) of two [rows, cols] float tensors of one dtype and device; false when not the fast case.
bool add_inplace(const TensorPtr& gates, const TensorPtr& igates) {
  if (!gates || gates->dim() != 2 || !forward_dtype(gates->dtype())) return false;
  const int64_t rows = gates->sizes()[0], cols = gates->sizes()[1];
  Mat a, b;
  if (!operand(gates, gates->dtype(), gates->device(), rows, cols, a, true) ||
      !operand(igates, gates->dtype(), gates->device(), rows, cols, b))
    return false;
  if (gates->dtype() == DType::Float32) add_kernel<float>(a, b, rows, cols);
  else add_kernel<double>(a, b, rows, cols);
  gates->bump_version();
  return true;
}

// tanh (kind 1) or relu (kind 2, numpy's maximum(x, 0): a NaN stays) of x as a new contiguous tensor.
template <typename T>
void activation_kernel(int kind, const Mat& x, const Mat& o, int64_t rows, int64_t cols) {  // o contiguous
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const T v = at<T>(x, i, j);
      at<T>(o, i, j) = kind == 1 ? v : ((v >= T(0) || v != v) ? v : T(0));
    }
    if (kind == 1) tanh_span(row<T>(o, i), cols);
  }
}

py::object activation(int kind, const TensorPtr& x) {
  if (!x || x->dim() != 2 || !forward_dtype(x->dtype()) || (kind != 1 && kind != 2)) return py::none();
  const int64_t rows = x->sizes()[0], cols = x->sizes()[1];
  Mat m;
  if (!operand(x, x->dtype(), x->device(), rows, cols, m)) return py::none();
  TensorPtr out = fresh(x->sizes(), x->dtype(), x->device());
  if (x->dtype() == DType::Float32) activation_kernel<float>(kind, m, contiguous_mat(out), rows, cols);
  else activation_kernel<double>(kind, m, contiguous_mat(out), rows, cols);
  return py::cast(std::move(out));
}

// ----------------------------------------------------------------------------- backward kernels
// grad and a saved operand of the same [rows, cols] float shape, dtype and device; out a fresh contiguous one.
bool grad_operands(const TensorPtr& grad, const TensorPtr& saved, Mat& g, Mat& s, TensorPtr& out) {
  if (!grad || !saved || saved->dim() != 2 || !float_dtype(saved->dtype())) return false;
  const int64_t rows = saved->sizes()[0], cols = saved->sizes()[1];
  if (!operand(saved, saved->dtype(), saved->device(), rows, cols, s) ||
      !operand(grad, saved->dtype(), saved->device(), rows, cols, g))
    return false;
  out = fresh(saved->sizes(), saved->dtype(), saved->device());
  return true;
}

template <typename T, typename F>
void pointwise2(const Mat& g, const Mat& s, const TensorPtr& out, F f) {
  const int64_t rows = out->sizes()[0], cols = out->sizes()[1];
  const Mat o = contiguous_mat(out);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) at<T>(o, i, j) = f(at<T>(g, i, j), at<T>(s, i, j));
}

template <typename T>
void act_grad_kernel(int kind, const Mat& g, const Mat& r, const TensorPtr& out) {
  if (kind == 0) pointwise2<T>(g, r, out, [](T gv, T y) { return T(T(gv * T(T(1) - y)) * y); });
  else if (kind == 1) pointwise2<T>(g, r, out, [](T gv, T y) { return T(gv * T(T(1) - T(y * y))); });
  else pointwise2<T>(g, r, out, [](T gv, T y) { return y > T(0) ? gv : T(0); });
}

py::object act_grad(int kind, const TensorPtr& grad, const TensorPtr& result) {
  Mat g, r;
  TensorPtr out;
  if (kind < 0 || kind > 2 || !grad_operands(grad, result, g, r, out)) return py::none();
  if (out->dtype() == DType::Float32) act_grad_kernel<float>(kind, g, r, out);
  else act_grad_kernel<double>(kind, g, r, out);
  return py::cast(std::move(out));
}

py::object mul_grad(const TensorPtr& grad, const TensorPtr& other) {
  Mat g, s;
  TensorPtr out;
  if (!grad_operands(grad, other, g, s, out)) return py::none();
  if (out->dtype() == DType::Float32) pointwise2<float>(g, s, out, [](float a, float b) { return a * b; });
  else pointwise2<double>(g, s, out, [](double a, double b) { return a * b; });
  return py::cast(std::move(out));
}

py::object neg_grad(const TensorPtr& grad) {
  Mat g, s;
  TensorPtr out;
  if (!grad_operands(grad, grad, g, s, out)) return py::none();
  if (out->dtype() == DType::Float32) pointwise2<float>(g, s, out, [](float a, float) { return -a; });
  else pointwise2<double>(g, s, out, [](double a, double) { return -a; });
  return py::cast(std::move(out));
}

template <typename T>
void split_kernel(const std::vector<Mat>& parts, const std::vector<bool>& have, const Mat& o, int64_t rows,
                  int64_t split) {
  for (size_t k = 0; k < parts.size(); ++k)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < split; ++j)
        at<T>(o, i, int64_t(k) * split + j) = have[k] ? at<T>(parts[k], i, j) : T(0);
}

py::object split_grad(py::list grads, int64_t rows, int64_t cols) {
  const size_t n = grads.size();
  if (n == 0 || cols % int64_t(n) != 0) return py::none();
  const int64_t split = cols / int64_t(n);
  TensorPtr ref;
  std::vector<TensorPtr> ts(n);
  for (size_t k = 0; k < n; ++k) {
    if (grads[k].is_none()) continue;
    ts[k] = impl_of(grads[k]);
    if (!ts[k]) return py::none();
    if (!ref) ref = ts[k];
  }
  if (!ref || !float_dtype(ref->dtype())) return py::none();
  std::vector<Mat> parts(n);
  std::vector<bool> have(n, false);
  for (size_t k = 0; k < n; ++k) {
    if (!ts[k]) continue;
    if (!operand(ts[k], ref->dtype(), ref->device(), rows, split, parts[k])) return py::none();
    have[k] = true;
  }
  TensorPtr out = fresh({rows, cols}, ref->dtype(), ref->device());
  const Mat o = contiguous_mat(out);
  if (ref->dtype() == DType::Float32) split_kernel<float>(parts, have, o, rows, split);
  else split_kernel<double>(parts, have, o, rows, split);
  return py::cast(std::move(out));
}

// t.unsafe_chunk(n, 1) of a 2-D tensor whose columns divide by n: the n [rows, cols / n] views (no autograd here).
py::tuple chunks(const TensorPtr& t, int64_t n) {
  if (!t || t->dim() != 2 || n <= 0 || t->sizes()[1] % n != 0)
    raise(ErrorKind::RuntimeError, "rnn_chunks: expected a 2-D tensor whose columns divide into the chunks");
  const int64_t rows = t->sizes()[0], w = t->sizes()[1] / n, s1 = t->strides()[1];
  py::tuple out(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k)
    out[size_t(k)] = py::cast(ds::as_strided(t, {rows, w}, t->strides(), t->offset() + k * w * s1));
  return out;
}

}  // namespace

// The step kernels for the graph-building steps of bindings_rnn_graph.cpp (rnn_kernels.h).
namespace rnn_kernels {
py::object lstm_gates(const TensorPtr& gates, const TensorPtr& igates, const TensorPtr& cx) {
  return ds::python::lstm_gates(gates, igates, cx);
}
py::object lstm_state(const TensorPtr& gates, const TensorPtr& cx) { return ds::python::lstm_state(gates, cx); }
py::object gru(const TensorPtr& igates, const TensorPtr& hgates, const TensorPtr& hx, bool clones) {
  return ds::python::gru(igates, hgates, hx, clones);
}
bool add_inplace(const TensorPtr& gates, const TensorPtr& igates) { return ds::python::add_inplace(gates, igates); }
py::object activation(int kind, const TensorPtr& x) { return ds::python::activation(kind, x); }
py::tuple chunks(const TensorPtr& t, int64_t n) { return ds::python::chunks(t, n); }
py::object act_grad(int kind, const TensorPtr& grad, const TensorPtr& result) {
  return ds::python::act_grad(kind, grad, result);
}
py::object mul_grad(const TensorPtr& grad, const TensorPtr& other) { return ds::python::mul_grad(grad, other); }
py::object neg_grad(const TensorPtr& grad) { return ds::python::neg_grad(grad); }
py::object split_grad(py::list grads, int64_t rows, int64_t cols) { return ds::python::split_grad(grads, rows, cols); }
}  // namespace rnn_kernels

void bind_rnn(py::module_& m) {
  m.def("rnn_chunks", [](py::handle t, int64_t n) { return chunks(t.cast<TensorPtr>(), n); });
  m.def("rnn_lstm_gates", [](py::handle gates, py::handle igates, py::handle cx) {
    return lstm_gates(gates.cast<TensorPtr>(), igates.cast<TensorPtr>(), cx.cast<TensorPtr>());
  });
  m.def("rnn_lstm_state", [](py::handle gates, py::handle cx) {
    return lstm_state(gates.cast<TensorPtr>(), cx.cast<TensorPtr>());
  });
  m.def("rnn_gru", [](py::handle igates, py::handle hgates, py::handle hx, bool clones) {
    return gru(igates.cast<TensorPtr>(), hgates.cast<TensorPtr>(), hx.cast<TensorPtr>(), clones);
  });
  m.def("rnn_add_", [](py::handle gates, py::handle igates) {
    return add_inplace(gates.cast<TensorPtr>(), igates.cast<TensorPtr>());
  });
  m.def("rnn_activation", [](int kind, py::handle x) { return activation(kind, x.cast<TensorPtr>()); });
  m.def("rnn_act_grad", [](int kind, py::handle grad, py::handle result) {
    return act_grad(kind, grad.cast<TensorPtr>(), result.cast<TensorPtr>());
  });
  m.def("rnn_mul_grad", [](py::handle grad, py::handle other) {
    return mul_grad(grad.cast<TensorPtr>(), other.cast<TensorPtr>());
  });
  m.def("rnn_neg_grad", [](py::handle grad) { return neg_grad(grad.cast<TensorPtr>()); });
  // grads: the pieces' gradients (Tensors or None), as the node receives them
  m.def("rnn_split_grad", [](py::list grads, int64_t rows, int64_t cols) { return split_grad(grads, rows, cols); });
}

}  // namespace ds::python
