// im2col + GEMM convolution (Caffe's and ATen's slow_conv2d scheme): per group, the input windows become the
// columns of a (C/g * kh * kw) x columns matrix, and the convolution is one matrix product with the
// (O/g) x (C/g * kh * kw) weight. Backward reuses the same matrices: grad_weight is grad_out @ cols^T,
// grad_input is col2im(weight^T @ grad_out).
//
// Two things make it fast on the small images of LeNet- and CIFAR-sized nets, where the work is in moving
// data rather than in the products:
//  - Full-width columns (any stride, padding or dilation): a sample's column i stands for output
//    (i / wq, i % wq) over the width wq of a phase plane, so the row of kernel tap (c, ki, kj) is ONE
//    contiguous slice of that plane - one memcpy instead of oh copies (or gathers) of ow values (7 to 32 on
//    these nets, where per-copy overhead dominated). With stride 1 the phase plane is the (padded) input
//    plane itself (wq = wp). With stride s each padded channel is first split into s_h * s_w phase planes,
//    P[a][b](y, x) = padded(y * s_h + a, x * s_w + b) (hq x wq = ceil(hp / s_h) x ceil(wp / s_w)), one pass
//    over the input; tap (ki, kj) reads P[ki*dh % s_h][kj*dw % s_w] from row ki*dh / s_h, column kj*dw / s_w
//    at stride 1. The wq - ow extra columns per output row are computed and dropped (forward) or carry zero
//    gradient (backward); the GEMMs get wq / ow more columns.
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

// No infinity or NaN in p[0, n): on the exponent bits (all ones for both), a loop that vectorizes (isfinite's
// early exit does not, and it took 10% of a small layer's backward).
template <typename T>
bool all_finite(const T* p, int64_t n) {
  using U = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;
  constexpr U kExp = std::is_same_v<T, float> ? U(0x7f800000u) : U(0x7ff0000000000000ull);
  for (int64_t i0 = 0; i0 < n; i0 += 4096) {  // blocks, so that a NaN early in a large tensor stops soon
    const int64_t i1 = std::min(n, i0 + 4096);
    U bad = 0;
    for (int64_t i = i0; i < i1; ++i) {
      U u;
      std::memcpy(&u, p + i, sizeof(U));
      bad |= U((u & kExp) == kExp);
    }
    if (bad) return false;
  }
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
  bool full = false;          // full-width columns
  bool padded = false;        // full width over a zero-padded (and, strided, phase-split) copy of the planes
  int64_t hp = 0, wp = 0;     // the padded plane
  int64_t phases = 1;         // sh * sw phase planes per channel on the full-width path
  int64_t hq = 0, wq = 0;     // one phase plane, which the full-width rows are cut from (hp x wp at stride 1)
  int64_t width = 0;          // columns per sample: l, or (oh - 1) * wq + ow on the full-width path
  // Full width: where tap (ki, kj)'s row starts in a channel's phase planes (taps[ki * kw + kj]): phase
  // (ki*dh % sh, kj*dw % sw), row ki*dh / sh, column kj*dw / sw (at stride 1: row ki*dh, column kj*dw of the
  // padded plane); and for each phase column b, the first input column x0 in it and its column in the phase.
  std::vector<int64_t> taps, x0, col0, count;  // count: how many input columns are in phase column b
  int64_t nb = 1;             // samples per product
  bool direct = false;        // 1x1, stride 1, no padding, one sample per product: the input is its columns

  Plan(const ConvGeometry& g, bool full_width) {
    cg = g.c / g.groups;
    og = g.o / g.groups;
    k = cg * g.kh * g.kw;
    oh = g.oh();
    ow = g.ow();
    l = oh * ow;
    full = full_width && oh > 0 && ow > 0;
    padded = full && (g.ph > 0 || g.pw > 0 || g.sh > 1 || g.sw > 1);
    hp = g.h + 2 * g.ph;
    wp = g.w + 2 * g.pw;
    phases = g.sh * g.sw;
    hq = (hp + g.sh - 1) / g.sh;
    wq = (wp + g.sw - 1) / g.sw;
    width = full ? (oh - 1) * wq + ow : l;
    if (full) {  // (divisions are slow: done once here, not per row)
      for (int64_t ki = 0; ki < g.kh; ++ki)
        for (int64_t kj = 0; kj < g.kw; ++kj) {
          const int64_t a = ki * g.dh % g.sh, b = kj * g.dw % g.sw;
          taps.push_back(((a * g.sw + b) * hq + ki * g.dh / g.sh) * wq + kj * g.dw / g.sw);
        }
      for (int64_t b = 0; b < g.sw; ++b) {
        const int64_t first = ((b - g.pw) % g.sw + g.sw) % g.sw;  // the first x with (x + pw) % sw == b
        x0.push_back(first);
        col0.push_back((first + g.pw) / g.sw);
        count.push_back(first < g.w ? (g.w - first + g.sw - 1) / g.sw : 0);
      }
    }
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
// (og, nb * width), and for the full-width path one sample's zero-padded phase planes (`pad`: only the places
// of input values are ever written, the borders and unused phase positions stay zero) and their gradient
// (`dpad`).
template <typename T>
struct Scratch {
  std::vector<T> cols, prod, pad, dpad;
  Scratch(const Plan& p, bool need_cols, bool need_dpad) {
    if (need_cols) cols.resize(size_t(p.k * p.nb * p.width));
    if (p.full || p.nb > 1) prod.resize(size_t(p.og * p.nb * p.width));
    if (p.padded) pad.assign(size_t(p.cg * p.phases * p.hq * p.wq), T(0));
    if (p.padded && need_dpad) dpad.resize(size_t(p.cg * p.phases * p.hq * p.wq));
  }
};

// Where tap (c, ki, kj)'s full-width row starts in one sample's (phase) planes.
inline int64_t tap_offset(const ConvGeometry& g, const Plan& p, int64_t c, int64_t ki, int64_t kj) {
  return c * p.phases * p.hq * p.wq + p.taps[size_t(ki * g.kw + kj)];
}

// The runs between an input row and the phase planes: for input row y of channel c and each phase column b,
// f(offset of the row in the sample, x0, offset of its first element in the planes, count): input elements
// x0, x0 + sw, ... (count of them: the ones whose padded column is in phase b) go to consecutive places of
// the phase row.
template <typename F>
void for_each_row(const ConvGeometry& g, const Plan& p, F f) {
  for (int64_t c = 0; c < p.cg; ++c) {
    int64_t a = g.ph % g.sh, r = g.ph / g.sh;  // padded row y + ph = r * sh + a
    for (int64_t y = 0; y < g.h; ++y) {
      for (int64_t b = 0; b < g.sw; ++b)
        if (p.count[size_t(b)] > 0)
          f((c * g.h + y) * g.w, p.x0[size_t(b)], ((c * p.phases + a * g.sw + b) * p.hq + r) * p.wq + p.col0[size_t(b)],
            p.count[size_t(b)]);
      if (++a == g.sh) {
        a = 0;
        ++r;
      }
    }
  }
}

// Sample xs's columns (its group's cg channels) into cols (row stride ld).
template <typename T>
void fill_columns(const ConvGeometry& g, const Plan& p, const T* xs, T* cols, int64_t ld, Scratch<T>& s) {
  if (!p.full) {
    im2col(g, p.cg, xs, cols, ld);
    return;
  }
  const T* src = xs;
  if (p.padded) {
    for_each_row(g, p, [&](int64_t in_row, int64_t x0, int64_t plane_at, int64_t count) {
      const T* from = xs + in_row + x0;
      T* to = s.pad.data() + plane_at;
      if (g.sw == 1) std::memcpy(to, from, size_t(count) * sizeof(T));
      else
        for (int64_t i = 0; i < count; ++i) to[i] = from[i * g.sw];
    });
    src = s.pad.data();
  }
  for (int64_t c = 0; c < p.cg; ++c)
    for (int64_t ki = 0; ki < g.kh; ++ki)
      for (int64_t kj = 0; kj < g.kw; ++kj)
        std::memcpy(cols + ((c * g.kh + ki) * g.kw + kj) * ld, src + tap_offset(g, p, c, ki, kj),
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
        T* d = dst + tap_offset(g, p, c, ki, kj);
        for (int64_t i = 0; i < p.width; ++i) d[i] += r[i];
      }
  if (p.padded) {
    for_each_row(g, p, [&](int64_t in_row, int64_t x0, int64_t plane_at, int64_t count) {
      T* to = dxs + in_row + x0;
      const T* from = s.dpad.data() + plane_at;
      if (g.sw == 1) std::memcpy(to, from, size_t(count) * sizeof(T));
      else
        for (int64_t i = 0; i < count; ++i) to[i * g.sw] = from[i];
    });
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
          const int64_t rows = p.full ? p.oh : 1, cols = p.full ? p.ow : p.l, stride = p.full ? p.wq : p.l;
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
  const bool small = og * k * Plan(g, true).width <= kSmallProduct;
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
              std::memcpy(dst + r * p.wq, src + r * p.ow, size_t(p.ow) * sizeof(T));
              if (r + 1 < p.oh) std::fill(dst + r * p.wq + p.ow, dst + (r + 1) * p.wq, T(0));
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
