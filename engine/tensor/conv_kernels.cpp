// im2col + GEMM convolution (Caffe's and ATen's slow_conv2d scheme): per group, the input windows become the
// columns of a (C/g * kh * kw) x columns matrix, and the convolution is one matrix product with the
// (O/g) x (C/g * kh * kw) weight. Backward reuses the same matrices: grad_weight is grad_out @ cols^T,
// grad_input is col2im(weight^T @ grad_out).
//
// Two things make it fast on the small images of LeNet- and CIFAR-sized nets, where the work is in moving
// data rather than in the products:
//  - Full-width columns for stride 1 (any padding or dilation): a sample's column i stands for output
//    (i / wp, i % wp) over the padded width wp, so the row of kernel tap (c, ki, kj) is ONE contiguous slice
//    of the (padded) input plane - one memcpy instead of oh copies of ow values (8 to 32 on these nets,
//    where per-copy overhead dominated). The wp - ow extra columns per output row are computed and dropped
//    (forward) or carry zero gradient (backward); the GEMMs get wp / ow more columns.
//  - Several samples per product when one sample's product is small: OpenBLAS (0.3.x, SkylakeX and later)
//    runs products up to M * N * K = 1e6 on its unpacked small-matrix kernels, several times faster for the
//    few output channels of these layers than its packed path, and one call per sample was mostly call and
//    packing overhead. Sample j's columns sit at [j * width, (j + 1) * width) of the chunk's matrix.
// Every output element is a dot product of the same terms as the textbook scheme's (plus exact zeros on the
// full-width path); only the BLAS's blocking of the inner dimension differs.
#include "tensor/conv_kernels.h"

#include <algorithm>
#include <cmath>
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

// The largest M * N * K OpenBLAS hands to its small-matrix kernels (SMALL_MATRIX_OPT's threshold).
constexpr int64_t kSmallProduct = 1000000;

template <typename T>
bool all_finite(const T* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

// The part of an output row whose input column ix = ox * sw + ix0 lies inside [0, w): ox in [lo, hi).
void valid_range(int64_t ix0, int64_t sw, int64_t w, int64_t ow, int64_t& lo, int64_t& hi) {
  lo = ix0 >= 0 ? 0 : (-ix0 + sw - 1) / sw;
  hi = ix0 >= w ? 0 : (w - 1 - ix0) / sw + 1;
  hi = std::min(hi, ow);
  lo = std::min(lo, hi);
}

// How one convolution lays out its column matrices.
struct Plan {
  int64_t cg = 0, og = 0, k = 0, oh = 0, ow = 0, l = 0;
  bool full = false;          // stride 1: full-width columns
  bool padded = false;        // full width over a zero-padded copy of each sample's planes
  int64_t hp = 0, wp = 0;     // the (padded) plane the full-width rows are cut from
  int64_t width = 0;          // columns per sample: l, or (oh - 1) * wp + ow on the full-width path
  int64_t nb = 1;             // samples per product
  bool direct = false;        // 1x1, stride 1, no padding, one sample per product: the input is its columns

  Plan(const ConvGeometry& g, bool full_width) {
    cg = g.c / g.groups;
    og = g.o / g.groups;
    k = cg * g.kh * g.kw;
    oh = g.oh();
    ow = g.ow();
    l = oh * ow;
    full = full_width && g.sh == 1 && g.sw == 1 && oh > 0 && ow > 0;
    padded = full && (g.ph > 0 || g.pw > 0);
    hp = g.h + 2 * g.ph;
    wp = g.w + 2 * g.pw;
    width = full ? (oh - 1) * wp + ow : l;
    const int64_t per_sample = og * k * width;
    nb = per_sample > 0 ? std::max<int64_t>(1, std::min<int64_t>(g.n, kSmallProduct / per_sample)) : 1;
    direct = nb == 1 && g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
  }
};

// One sample's columns (general path): rows (cg*kh*kw) of oh*ow values at cols + row * ld, from its cg
// channels x (cg, h, w); padding reads as zero.
template <typename T>
void im2col(const ConvGeometry& g, int64_t cg, const T* x, T* cols, int64_t ld) {
  const int64_t oh = g.oh(), ow = g.ow();
  for (int64_t c = 0; c < cg; ++c) {
    const T* plane = x + c * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        T* row = cols + ((c * g.kh + ki) * g.kw + kj) * ld;
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

// The adjoint of im2col: dx (cg, h, w) += scatter of one sample's columns (padding positions are dropped).
template <typename T>
void col2im_add(const ConvGeometry& g, int64_t cg, const T* cols, int64_t ld, T* dx) {
  const int64_t oh = g.oh(), ow = g.ow();
  for (int64_t c = 0; c < cg; ++c) {
    T* plane = dx + c * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        const T* row = cols + ((c * g.kh + ki) * g.kw + kj) * ld;
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

// Host scratch of one convolution call: the chunk's column matrix, a product or gathered gradient of
// (og, nb * width), and for the full-width path one sample's zero-padded planes (`pad`: only the interior is
// ever written, the borders stay zero) and its padded input gradient (`dpad`).
template <typename T>
struct Scratch {
  std::vector<T> cols, prod, pad, dpad;
  Scratch(const Plan& p, bool need_cols, bool need_dpad) {
    if (need_cols) cols.resize(size_t(p.k * p.nb * p.width));
    if (p.full || p.nb > 1) prod.resize(size_t(p.og * p.nb * p.width));
    if (p.padded) pad.assign(size_t(p.cg * p.hp * p.wp), T(0));
    if (p.padded && need_dpad) dpad.resize(size_t(p.cg * p.hp * p.wp));
  }
};

// Sample xs's columns (its group's cg channels) into cols (row stride ld).
template <typename T>
void fill_columns(const ConvGeometry& g, const Plan& p, const T* xs, T* cols, int64_t ld, Scratch<T>& s) {
  if (!p.full) {
    im2col(g, p.cg, xs, cols, ld);
    return;
  }
  const T* src = xs;
  if (p.padded) {
    for (int64_t c = 0; c < p.cg; ++c)
      for (int64_t y = 0; y < g.h; ++y)
        std::memcpy(s.pad.data() + (c * p.hp + y + g.ph) * p.wp + g.pw, xs + (c * g.h + y) * g.w,
                    size_t(g.w) * sizeof(T));
    src = s.pad.data();
  }
  for (int64_t c = 0; c < p.cg; ++c)
    for (int64_t ki = 0; ki < g.kh; ++ki)
      for (int64_t kj = 0; kj < g.kw; ++kj)
        std::memcpy(cols + ((c * g.kh + ki) * g.kw + kj) * ld, src + (c * p.hp + ki * g.dh) * p.wp + kj * g.dw,
                    size_t(p.width) * sizeof(T));
}

// grad_input for sample dxs (its group's cg channels, zeroed) from its columns' gradient.
template <typename T>
void add_columns(const ConvGeometry& g, const Plan& p, const T* cols, int64_t ld, T* dxs, Scratch<T>& s) {
  if (!p.full) {
    col2im_add(g, p.cg, cols, ld, dxs);
    return;
  }
  T* dst = dxs;
  if (p.padded) {
    std::fill(s.dpad.begin(), s.dpad.end(), T(0));
    dst = s.dpad.data();
  }
  for (int64_t c = 0; c < p.cg; ++c)
    for (int64_t ki = 0; ki < g.kh; ++ki)
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        const T* r = cols + ((c * g.kh + ki) * g.kw + kj) * ld;
        T* d = dst + (c * p.hp + ki * g.dh) * p.wp + kj * g.dw;
        for (int64_t i = 0; i < p.width; ++i) d[i] += r[i];
      }
  if (p.padded) {
    for (int64_t c = 0; c < p.cg; ++c)
      for (int64_t y = 0; y < g.h; ++y)
        std::memcpy(dxs + (c * g.h + y) * g.w, s.dpad.data() + (c * p.hp + y + g.ph) * p.wp + g.pw,
                    size_t(g.w) * sizeof(T));
  }
}

}  // namespace

template <typename T>
bool conv2d_forward(const ConvGeometry& g, const T* x, const T* weight, const T* bias, T* out) {
  if (!blas_available()) return false;
  const Plan p(g, true);  // the extra full-width columns are dropped: any input value is fine
  Scratch<T> s(p, !p.direct, false);
  const int64_t plane = g.h * g.w;
  for (int64_t n0 = 0; n0 < g.n; n0 += p.nb) {
    const int64_t m = std::min(p.nb, g.n - n0), ld = m * p.width;
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* xs = x + (n0 * g.c + grp * p.cg) * plane;
      T* o = out + (n0 * g.o + grp * p.og) * p.l;
      GemmOperand a{weight + grp * p.og * p.k, p.k, false}, b{xs, p.l, false};
      if (!p.direct) {
        for (int64_t j = 0; j < m; ++j)
          fill_columns(g, p, xs + j * g.c * plane, s.cols.data() + j * p.width, ld, s);
        b = {s.cols.data(), ld, false};
      }
      if (p.direct || (!p.full && m == 1)) {  // one sample's (og, oh * ow) product lands in out itself
        if (!gemm(dtype_of<T>(), p.og, p.l, p.k, a, b, o)) return false;
        if (bias)
          for (int64_t oc = 0; oc < p.og; ++oc)
            for (int64_t i = 0; i < p.l; ++i) o[oc * p.l + i] += bias[grp * p.og + oc];
        continue;
      }
      if (!gemm(dtype_of<T>(), p.og, ld, p.k, a, b, s.prod.data())) return false;
      // (og, m * width) -> each sample's (og, oh * ow) block of out, the bias added on the way
      for (int64_t oc = 0; oc < p.og; ++oc) {
        const T bv = bias ? bias[grp * p.og + oc] : T(0);
        for (int64_t j = 0; j < m; ++j) {
          const T* src = s.prod.data() + oc * ld + j * p.width;
          T* dst = o + j * g.o * p.l + oc * p.l;
          const int64_t rows = p.full ? p.oh : 1, cols = p.full ? p.ow : p.l, stride = p.full ? p.wp : p.l;
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t i = 0; i < cols; ++i) dst[r * cols + i] = src[r * stride + i] + bv;
        }
      }
    }
  }
  return true;
}

template <typename T>
bool conv2d_backward(const ConvGeometry& g, const T* grad_out, const T* x, const T* weight, T* grad_input,
                     T* grad_weight, T* grad_bias) {
  if (!blas_available()) return false;
  // Full width only when the extra columns' terms are exact zeros: 0 * x for grad_weight, weight^T @ 0 for
  // grad_input (an infinite or NaN value would make them NaN).
  // ... and only for products small enough for OpenBLAS's small-matrix kernels: on larger layers the GEMMs
  // dominate, and their extra full-width columns (and the gathered gradient) cost more than the copies save.
  const int64_t og = g.o / g.groups, k = g.c / g.groups * g.kh * g.kw;
  const bool small = og * k * ((g.oh() - 1) * (g.w + 2 * g.pw) + g.ow()) <= kSmallProduct;
  const bool finite = small && (!grad_weight || all_finite(x, g.n * g.c * g.h * g.w)) &&
                      (!grad_input || all_finite(weight, g.o * k));
  const Plan p(g, finite);
  Scratch<T> s(p, !p.direct || grad_input, grad_input != nullptr);
  const int64_t plane = g.h * g.w;
  if (grad_input) std::fill(grad_input, grad_input + g.n * g.c * plane, T(0));
  for (int64_t n0 = 0; n0 < g.n && (grad_weight || grad_input); n0 += p.nb) {
    const int64_t m = std::min(p.nb, g.n - n0), ld = m * p.width;
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* dy = grad_out + (n0 * g.o + grp * p.og) * p.l;
      if (p.full || m > 1) {
        // the chunk's grad_out as (og, m * width); the full-width extra columns get zero gradient
        for (int64_t oc = 0; oc < p.og; ++oc)
          for (int64_t j = 0; j < m; ++j) {
            T* dst = s.prod.data() + oc * ld + j * p.width;
            const T* src = dy + j * g.o * p.l + oc * p.l;
            if (!p.full) {
              std::memcpy(dst, src, size_t(p.l) * sizeof(T));
              continue;
            }
            for (int64_t r = 0; r < p.oh; ++r) {
              std::memcpy(dst + r * p.wp, src + r * p.ow, size_t(p.ow) * sizeof(T));
              if (r + 1 < p.oh) std::fill(dst + r * p.wp + p.ow, dst + (r + 1) * p.wp, T(0));
            }
          }
        dy = s.prod.data();
      }
      const T* xs = x + (n0 * g.c + grp * p.cg) * plane;
      if (grad_weight) {
        if (!p.direct)
          for (int64_t j = 0; j < m; ++j)
            fill_columns(g, p, xs + j * g.c * plane, s.cols.data() + j * p.width, ld, s);
        // dW_g (og x k) (+)= dy (og x m*width) @ cols^T (m*width x k)
        GemmOperand a{dy, ld, false}, b{p.direct ? xs : s.cols.data(), ld, true};
        if (!gemm(dtype_of<T>(), p.og, p.k, ld, a, b, grad_weight + grp * p.og * p.k, n0 == 0 ? 0.0 : 1.0))
          return false;
      }
      if (grad_input) {
        T* dxs = grad_input + (n0 * g.c + grp * p.cg) * plane;
        GemmOperand a{weight + grp * p.og * p.k, p.k, true}, b{dy, ld, false};
        if (p.direct) {
          // dx (k x l) = W^T (k x og) @ dy (og x l), written straight into the zeroed input gradient
          if (!gemm(dtype_of<T>(), p.k, p.l, p.og, a, b, dxs)) return false;
        } else {
          if (!gemm(dtype_of<T>(), p.k, ld, p.og, a, b, s.cols.data())) return false;
          for (int64_t j = 0; j < m; ++j) add_columns(g, p, s.cols.data() + j * p.width, ld, dxs + j * g.c * plane, s);
        }
      }
    }
  }
  if (grad_weight && g.n == 0) std::fill(grad_weight, grad_weight + g.o * p.k, T(0));
  if (grad_bias) {
    for (int64_t oc = 0; oc < g.o; ++oc) {
      double acc[4] = {0, 0, 0, 0};  // double accumulation (a bias sums N * oh * ow terms), four chains
      for (int64_t n = 0; n < g.n; ++n) {
        const T* dy = grad_out + (n * g.o + oc) * p.l;
        int64_t i = 0;
        for (; i + 4 <= p.l; i += 4)
          for (int q = 0; q < 4; ++q) acc[q] += dy[i + q];
        for (; i < p.l; ++i) acc[0] += dy[i];
      }
      grad_bias[oc] = T((acc[0] + acc[1]) + (acc[2] + acc[3]));
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
