// im2col + GEMM convolution (Caffe's and ATen's slow_conv2d scheme): per sample and group, the input
// windows become the columns of a (C/g * kh * kw) x (oh * ow) matrix, and the convolution is one matrix
// product with the (O/g) x (C/g * kh * kw) weight. Backward reuses the same matrices: grad_weight is
// grad_out @ cols^T summed over the batch, grad_input is col2im(weight^T @ grad_out).
#include "tensor/conv_kernels.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tensor/blas_gemm.h"

namespace ds {
namespace {

template <typename T>
constexpr DType dtype_of() {
  return std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
}

// The part of an output row whose input column ix = ox * sw + ix0 lies inside [0, w): ox in [lo, hi).
void valid_range(int64_t ix0, int64_t sw, int64_t w, int64_t ow, int64_t& lo, int64_t& hi) {
  lo = ix0 >= 0 ? 0 : (-ix0 + sw - 1) / sw;
  hi = ix0 >= w ? 0 : (w - 1 - ix0) / sw + 1;
  hi = std::min(hi, ow);
  lo = std::min(lo, hi);
}

// cols (cg*kh*kw, oh*ow) from one sample's cg channels x (cg, h, w); padding reads as zero.
template <typename T>
void im2col(const ConvGeometry& g, int64_t cg, const T* x, T* cols) {
  const int64_t oh = g.oh(), ow = g.ow(), l = oh * ow;
  for (int64_t c = 0; c < cg; ++c) {
    const T* plane = x + c * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        T* row = cols + ((c * g.kh + ki) * g.kw + kj) * l;
        const int64_t ix0 = kj * g.dw - g.pw;
        int64_t lo, hi;
        valid_range(ix0, g.sw, g.w, ow, lo, hi);
        for (int64_t oy = 0; oy < oh; ++oy) {
          T* r = row + oy * ow;
          const int64_t iy = oy * g.sh - g.ph + ki * g.dh;
          if (iy < 0 || iy >= g.h) {
            std::fill(r, r + ow, T(0));
            continue;
          }
          const T* src = plane + iy * g.w;
          std::fill(r, r + lo, T(0));
          if (g.sw == 1) {
            std::memcpy(r + lo, src + ix0 + lo, size_t(hi - lo) * sizeof(T));
          } else {
            for (int64_t ox = lo; ox < hi; ++ox) r[ox] = src[ox * g.sw + ix0];
          }
          std::fill(r + hi, r + ow, T(0));
        }
      }
    }
  }
}

// The adjoint of im2col: dx (cg, h, w) += scatter of cols (padding positions are dropped).
template <typename T>
void col2im_add(const ConvGeometry& g, int64_t cg, const T* cols, T* dx) {
  const int64_t oh = g.oh(), ow = g.ow(), l = oh * ow;
  for (int64_t c = 0; c < cg; ++c) {
    T* plane = dx + c * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        const T* row = cols + ((c * g.kh + ki) * g.kw + kj) * l;
        const int64_t ix0 = kj * g.dw - g.pw;
        int64_t lo, hi;
        valid_range(ix0, g.sw, g.w, ow, lo, hi);
        for (int64_t oy = 0; oy < oh; ++oy) {
          const int64_t iy = oy * g.sh - g.ph + ki * g.dh;
          if (iy < 0 || iy >= g.h) continue;
          const T* r = row + oy * ow;
          T* dst = plane + iy * g.w + ix0;
          if (g.sw == 1) {
            for (int64_t ox = lo; ox < hi; ++ox) dst[ox] += r[ox];
          } else {
            for (int64_t ox = lo; ox < hi; ++ox) dst[ox * g.sw] += r[ox];
          }
        }
      }
    }
  }
}

// A 1x1 kernel with stride 1 and no padding reads the input itself as its columns.
bool columns_are_input(const ConvGeometry& g) {
  return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
}

}  // namespace

template <typename T>
bool conv2d_forward(const ConvGeometry& g, const T* x, const T* weight, const T* bias, T* out) {
  if (!blas_available()) return false;
  const int64_t cg = g.c / g.groups, og = g.o / g.groups, k = cg * g.kh * g.kw, l = g.oh() * g.ow();
  const bool direct = columns_are_input(g);
  std::vector<T> cols(direct ? 0 : size_t(k * l));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* xs = x + (n * g.c + grp * cg) * g.h * g.w;
      if (!direct) im2col(g, cg, xs, cols.data());
      T* o = out + (n * g.o + grp * og) * l;
      GemmOperand a{weight + grp * og * k, k, false}, b{direct ? xs : cols.data(), l, false};
      if (!gemm(dtype_of<T>(), og, l, k, a, b, o)) return false;
    }
    if (bias) {
      for (int64_t oc = 0; oc < g.o; ++oc) {
        T* o = out + (n * g.o + oc) * l;
        const T b = bias[oc];
        for (int64_t i = 0; i < l; ++i) o[i] += b;
      }
    }
  }
  return true;
}

template <typename T>
bool conv2d_backward(const ConvGeometry& g, const T* grad_out, const T* x, const T* weight, T* grad_input,
                     T* grad_weight, T* grad_bias) {
  if (!blas_available()) return false;
  const int64_t cg = g.c / g.groups, og = g.o / g.groups, k = cg * g.kh * g.kw, l = g.oh() * g.ow();
  const bool direct = columns_are_input(g);
  std::vector<T> cols(direct && !grad_input ? 0 : size_t(k * l));
  if (grad_input) std::fill(grad_input, grad_input + g.n * g.c * g.h * g.w, T(0));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* dy = grad_out + (n * g.o + grp * og) * l;
      const int64_t in_off = (n * g.c + grp * cg) * g.h * g.w;
      if (grad_weight) {
        const T* xs = x + in_off;
        if (!direct) im2col(g, cg, xs, cols.data());
        // dW_g (og x k) (+)= dy (og x l) @ cols^T (l x k)
        GemmOperand a{dy, l, false}, b{direct ? xs : cols.data(), l, true};
        if (!gemm(dtype_of<T>(), og, k, l, a, b, grad_weight + grp * og * k, n == 0 ? 0.0 : 1.0)) return false;
      }
      if (grad_input) {
        GemmOperand a{weight + grp * og * k, k, true}, b{dy, l, false};
        if (direct) {
          // dx (k x l) = W^T (k x og) @ dy (og x l), written straight into the zeroed input gradient
          if (!gemm(dtype_of<T>(), k, l, og, a, b, grad_input + in_off)) return false;
        } else {
          if (!gemm(dtype_of<T>(), k, l, og, a, b, cols.data())) return false;
          col2im_add(g, cg, cols.data(), grad_input + in_off);
        }
      }
    }
  }
  if (grad_weight && g.n == 0) std::fill(grad_weight, grad_weight + g.o * k, T(0));
  if (grad_bias) {
    for (int64_t oc = 0; oc < g.o; ++oc) {
      double s = 0;  // double accumulation: a bias sums N * oh * ow terms
      for (int64_t n = 0; n < g.n; ++n) {
        const T* dy = grad_out + (n * g.o + oc) * l;
        for (int64_t i = 0; i < l; ++i) s += dy[i];
      }
      grad_bias[oc] = T(s);
    }
  }
  return true;
}

template bool conv2d_forward<float>(const ConvGeometry&, const float*, const float*, const float*, float*);
template bool conv2d_forward<double>(const ConvGeometry&, const double*, const double*, const double*, double*);
template bool conv2d_backward<float>(const ConvGeometry&, const float*, const float*, const float*, float*, float*,
                                     float*);
template bool conv2d_backward<double>(const ConvGeometry&, const double*, const double*, const double*, double*,
                                      double*, double*);

}  // namespace ds
