// The numerics of bindings_ops.cpp's fast paths, apart from their CPython dispatch: how a 2-D tensor reads as a
// BLAS matrix, numpy's summation order, and pow's products. Plain functions of memory and sizes (no Python, no
// runtime), each written to give the Python path's values to the last bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numpy_loops.h"
#include "tensor/blas_gemm.h"
#include "tensor/elementwise_kernels.h"
#include "tensor/tensor.h"

namespace ds::python {

// How a 2-D operand reads as a BLAS matrix: row-major as stored, or the transpose of a row-major one
// (weight.t() in nn.Linear); false for other layouts (Python copies those).
inline bool gemm_layout(const TensorImpl& t, GemmOperand& op) {
  const int64_t r = t.sizes()[0], c = t.sizes()[1], s0 = t.strides()[0], s1 = t.strides()[1];
  if ((s1 == 1 || c == 1) && (r == 1 || s0 >= std::max<int64_t>(c, 1))) {
    op.transposed = false;
    op.ld = r == 1 ? std::max<int64_t>(c, 1) : s0;
    return true;
  }
  if ((s0 == 1 || r == 1) && (c == 1 || s1 >= std::max<int64_t>(r, 1))) {
    op.transposed = true;
    op.ld = c == 1 ? std::max<int64_t>(r, 1) : s1;
    return true;
  }
  return false;
}

// numpy's pairwise summation (loops_utils.h.src pairwise_sum), accumulating in T: the Python path sums with
// np.sum, and scripts print sums to the last digit (a gradient that sums to -0.0 in PyTorch, as numpy's
// order gives it too), so the fast path adds in exactly numpy's order.
template <typename T>
T pairwise_sum(const T* a, int64_t n) {
  if (n < 8) {
    T res = 0;
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

// np.sum of a contiguous array: the reduction starts from 0 and adds the pairwise sum of each block of the
// ufunc buffer size (8192 elements, numpy's default) in turn.
template <typename T>
T numpy_sum(const T* a, int64_t n) {
  constexpr int64_t kBuffer = 8192;
  T acc = 0;
  for (int64_t i = 0; i < n; i += kBuffer) acc += pairwise_sum(a + i, std::min(kBuffer, n - i));
  return acc;
}

// x * x, or x * x * x, elementwise in T: numpy's x * x rounded to the dtype, then times x for the cube
// (pow_tensor_scalar_kernel's products, elementwise._pow_float_number's values).
template <typename T>
void square_or_cube(T* dst, const T* src, int64_t n, bool cube) {
  for (int64_t i = 0; i < n; ++i) {
    const T v = src[i];
    const T sq = v * v;
    dst[i] = cube ? sq * v : sq;
  }
}

// float32 x ** e for an integral 4 <= e <= 64: elementwise._pow_scalar_special's values - the power taken in double
// by squaring (the same products in the same order: acc times the odd bits' squares, low bit first) and rounded
// to float once, as std::pow's result is.
inline void float_int_power(float* dst, const float* src, int64_t n, int e) {
  for (int64_t i = 0; i < n; ++i) {
    double base = double(src[i]), acc = 0;
    bool have = false;
    for (int k = e; k;) {
      if (k & 1) {
        acc = have ? acc * base : base;
        have = true;
      }
      k >>= 1;
      if (k) base = base * base;
    }
    dst[i] = float(acc);
  }
}

// tanh / exp / sigmoid of float32 values as unary.py computes them (precise: in float64 with numpy's own loops, then
// rounded once to float32): numpy_loops.h's exp and tanh, the sigmoid in _sigmoid_np's form (exp(-|v|) on either
// side of 0). Needs numpy_loops::available(); `out` may be `in`.
inline void numpy_unary_f32(UnaryKind kind, int64_t n, float* out, const float* in) {
  std::vector<double> v(in, in + n);
  if (kind == UnaryKind::Tanh) {
    numpy_loops::tanh_f64(v.data(), v.data(), n);
  } else if (kind == UnaryKind::Exp) {
    numpy_loops::exp_f64(v.data(), v.data(), n);
  } else {  // Sigmoid
    std::vector<double> e(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) e[size_t(i)] = -std::fabs(v[size_t(i)]);
    numpy_loops::exp_f64(e.data(), e.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      const double x = v[size_t(i)], ex = e[size_t(i)];
      v[size_t(i)] = x >= 0 ? 1.0 / (1.0 + ex) : ex / (1.0 + ex);
    }
  }
  for (int64_t i = 0; i < n; ++i) out[i] = float(v[size_t(i)]);
}

}  // namespace ds::python
