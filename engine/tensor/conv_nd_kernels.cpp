// vol2col / col2vol and the products of conv_nd_kernels.h. Spatial dims are right-aligned in the geometry's
// 3-entry arrays (a 2-D geometry has img[0] = col[0] = k[0] = 1), so one loop nest serves 1-D, 2-D and 3-D.
// One sample and one group per product: simple, and the products here are rarely the hot path (the tuned
// 1-D/2-D forward convolution is conv_kernels.cpp's).
#include "tensor/conv_nd_kernels.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "tensor/blas_gemm.h"

namespace ds {
namespace {

template <typename T>
constexpr DType dtype_of() {
  return std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
}

// Calls f(row, col_index, img_index) for every column entry whose window position lies inside the image
// (row = channel * K + kernel offset, col_index the position in the L columns, img_index in the channel's
// plane). Entries outside the image are skipped: they read as zero and scatter nowhere.
template <typename F>
void for_each_tap(const ConvNdGeometry& g, int64_t channels, F&& f) {
  const int64_t kn = g.k_numel(), l = g.col_numel(), plane = g.img_numel();
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
      for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
        for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
          const int64_t row = c * kn + (k0 * g.k[1] + k1) * g.k[2] + k2;
          for (int64_t o0 = 0; o0 < g.col[0]; ++o0) {
            const int64_t i0 = o0 * g.s[0] - g.p[0] + k0 * g.d[0];
            if (i0 < 0 || i0 >= g.img[0]) continue;
            for (int64_t o1 = 0; o1 < g.col[1]; ++o1) {
              const int64_t i1 = o1 * g.s[1] - g.p[1] + k1 * g.d[1];
              if (i1 < 0 || i1 >= g.img[1]) continue;
              const int64_t col_base = (o0 * g.col[1] + o1) * g.col[2];
              const int64_t img_base = c * plane + (i0 * g.img[1] + i1) * g.img[2];
              for (int64_t o2 = 0; o2 < g.col[2]; ++o2) {
                const int64_t i2 = o2 * g.s[2] - g.p[2] + k2 * g.d[2];
                if (i2 < 0 || i2 >= g.img[2]) continue;
                f(row * l + col_base + o2, img_base + i2);
              }
            }
          }
        }
  }
}

}  // namespace

template <typename T>
void vol2col(const ConvNdGeometry& g, int64_t channels, const T* img, T* cols) {
  std::fill(cols, cols + channels * g.k_numel() * g.col_numel(), T(0));
  for_each_tap(g, channels, [&](int64_t ci, int64_t ii) { cols[ci] = img[ii]; });
}

template <typename T>
void col2vol_add(const ConvNdGeometry& g, int64_t channels, const T* cols, T* img) {
  for_each_tap(g, channels, [&](int64_t ci, int64_t ii) { img[ii] += cols[ci]; });
}

template <typename T>
bool conv_nd_gather(const ConvNdGeometry& g, const T* img, const T* weight, const T* bias, T* vec) {
  const int64_t ig = g.c_img / g.groups, vg = g.c_vec / g.groups, kn = g.k_numel(), l = g.col_numel();
  const int64_t rows = ig * kn;
  std::vector<T> cols(size_t(rows * l));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      vol2col(g, ig, img + (n * g.c_img + grp * ig) * g.img_numel(), cols.data());
      T* out = vec + (n * g.c_vec + grp * vg) * l;
      // out (vg x l) = W_grp (vg x rows) @ cols (rows x l)
      if (!gemm(dtype_of<T>(), vg, l, rows, {weight + grp * vg * rows, rows, false}, {cols.data(), l, false}, out))
        return false;
      if (bias)
        for (int64_t o = 0; o < vg; ++o)
          for (int64_t j = 0; j < l; ++j) out[o * l + j] += bias[grp * vg + o];
    }
  return true;
}

template <typename T>
bool conv_nd_scatter(const ConvNdGeometry& g, const T* vec, const T* weight, const T* bias, T* img) {
  const int64_t ig = g.c_img / g.groups, vg = g.c_vec / g.groups, kn = g.k_numel(), l = g.col_numel();
  const int64_t rows = ig * kn, plane = g.img_numel();
  std::fill(img, img + g.n * g.c_img * plane, T(0));
  std::vector<T> cols(size_t(rows * l));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      // cols (rows x l) = W_grp^T (rows x vg) @ vec_grp (vg x l)
      if (!gemm(dtype_of<T>(), rows, l, vg, {weight + grp * vg * rows, rows, true},
                {vec + (n * g.c_vec + grp * vg) * l, l, false}, cols.data()))
        return false;
      T* dst = img + (n * g.c_img + grp * ig) * plane;
      col2vol_add(g, ig, cols.data(), dst);
      if (bias)
        for (int64_t c = 0; c < ig; ++c)
          for (int64_t j = 0; j < plane; ++j) dst[c * plane + j] += bias[grp * ig + c];
    }
  return true;
}

template <typename T>
bool conv_nd_weight_grad(const ConvNdGeometry& g, const T* vec, const T* img, T* grad_weight) {
  const int64_t ig = g.c_img / g.groups, vg = g.c_vec / g.groups, kn = g.k_numel(), l = g.col_numel();
  const int64_t rows = ig * kn;
  std::fill(grad_weight, grad_weight + g.c_vec * rows, T(0));
  std::vector<T> cols(size_t(rows * l));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      vol2col(g, ig, img + (n * g.c_img + grp * ig) * g.img_numel(), cols.data());
      // dW_grp (vg x rows) += vec_grp (vg x l) @ cols^T (l x rows)
      if (!gemm(dtype_of<T>(), vg, rows, l, {vec + (n * g.c_vec + grp * vg) * l, l, false},
                {cols.data(), l, true}, grad_weight + grp * vg * rows, 1.0))
        return false;
    }
  return true;
}

template <typename T>
void channel_sums(int64_t n, int64_t c, int64_t inner, const T* x, T* out) {
  for (int64_t ch = 0; ch < c; ++ch) {
    double acc = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      const T* p = x + (i * c + ch) * inner;
      for (int64_t j = 0; j < inner; ++j) acc += double(p[j]);
    }
    out[ch] = T(acc);
  }
}

#define DS_CONV_ND_INSTANTIATE(T)                                                                   \
  template void vol2col<T>(const ConvNdGeometry&, int64_t, const T*, T*);                           \
  template void col2vol_add<T>(const ConvNdGeometry&, int64_t, const T*, T*);                       \
  template bool conv_nd_gather<T>(const ConvNdGeometry&, const T*, const T*, const T*, T*);         \
  template bool conv_nd_scatter<T>(const ConvNdGeometry&, const T*, const T*, const T*, T*);        \
  template bool conv_nd_weight_grad<T>(const ConvNdGeometry&, const T*, const T*, T*);              \
  template void channel_sums<T>(int64_t, int64_t, int64_t, const T*, T*);
DS_CONV_ND_INSTANTIATE(float)
DS_CONV_ND_INSTANTIATE(double)
#undef DS_CONV_ND_INSTANTIATE

}  // namespace ds
