// Pooling loops as ATen writes them (aten/src/ATen/native/cpu/{MaxPoolKernel,AvgPoolKernel,
// AdaptiveAvgPoolKernel,AdaptiveMaxPoolKernel}.cpp): the same window bounds, divisors and NaN rule, so the
// values (and the indices a max pooling returns) are PyTorch's.
#include "tensor/pool_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ds {
namespace {

int64_t div_rtn(int64_t x, int64_t y) {  // division rounding toward negative infinity
  int64_t q = x / y, r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) --q;
  return q;
}

int64_t start_index(int64_t a, int64_t b, int64_t c) { return (a * c) / b; }
int64_t end_index(int64_t a, int64_t b, int64_t c) { return ((a + 1) * c + b - 1) / b; }

// Accumulation type: float sums in double would differ from PyTorch's float accumulation only in the last
// bits; double keeps the sums of large windows exact enough for either.
template <typename T>
using Acc = double;

}  // namespace

int64_t pooling_output_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                            bool ceil_mode) {
  int64_t out = div_rtn(in + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0), stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;  // the last window must start inside the image
  return out;
}

namespace {

// Windows wholly inside the image, no dilation (the common nn.MaxPool2d(k) case): no bounds per window.
template <typename T, int KH, int KW>
void max_pool2d_inner(const PoolGeometry& g, const T* x, T* out, int64_t* indices) {
  const int64_t kh = KH ? KH : g.kh, kw = KW ? KW : g.kw, h = g.h, w = g.w, oh = g.oh, ow = g.ow, sh = g.sh,
                sw = g.sw;
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* plane = x + p * h * w;
    T* o = out + p * oh * ow;
    int64_t* ind = indices ? indices + p * oh * ow : nullptr;
    for (int64_t oy = 0; oy < oh; ++oy) {
      for (int64_t ox = 0; ox < ow; ++ox) {
        const int64_t first = oy * sh * w + ox * sw;
        T maxval = -std::numeric_limits<T>::infinity();
        int64_t best = first;
        for (int64_t ky = 0; ky < kh; ++ky) {
          for (int64_t kx = 0; kx < kw; ++kx) {
            const int64_t idx = first + ky * w + kx;
            const T v = plane[idx];
            const bool take = v > maxval || v != v;  // NaN wins, as in ATen
            maxval = take ? v : maxval;
            best = take ? idx : best;
          }
        }
        o[oy * ow + ox] = maxval;
        if (ind) ind[oy * ow + ox] = best;
      }
    }
  }
}

}  // namespace

template <typename T>
void max_pool2d_forward(const PoolGeometry& g, const T* x, T* out, int64_t* indices) {
  if (g.dh == 1 && g.dw == 1 && g.ph == 0 && g.pw == 0 && (g.oh - 1) * g.sh + g.kh <= g.h &&
      (g.ow - 1) * g.sw + g.kw <= g.w) {
    if (g.kh == 2 && g.kw == 2) return max_pool2d_inner<T, 2, 2>(g, x, out, indices);
    if (g.kh == 3 && g.kw == 3) return max_pool2d_inner<T, 3, 3>(g, x, out, indices);
    return max_pool2d_inner<T, 0, 0>(g, x, out, indices);
  }
  const int64_t dh = g.dh, dw = g.dw, w = g.w;  // locals: the int64 index stores could alias g's fields
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* plane = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      int64_t iy0 = oy * g.sh - g.ph;
      const int64_t iy1 = std::min(iy0 + (g.kh - 1) * g.dh + 1, g.h);
      while (iy0 < 0) iy0 += g.dh;
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        int64_t ix0 = ox * g.sw - g.pw;
        const int64_t ix1 = std::min(ix0 + (g.kw - 1) * g.dw + 1, g.w);
        while (ix0 < 0) ix0 += g.dw;
        int64_t best = iy0 * g.w + ix0;
        T maxval = -std::numeric_limits<T>::infinity();
        for (int64_t iy = iy0; iy < iy1; iy += dh) {
          for (int64_t ix = ix0; ix < ix1; ix += dw) {
            const int64_t idx = iy * w + ix;
            const T v = plane[idx];
            // selects, not branches: random data mispredicts a branch every other element
            const bool take = v > maxval || v != v;
            maxval = take ? v : maxval;
            best = take ? idx : best;
          }
        }
        const int64_t o = (p * g.oh + oy) * g.ow + ox;
        out[o] = maxval;
        if (indices) indices[o] = best;
      }
    }
  }
}

template <typename T>
void max_pool2d_backward(int64_t planes, int64_t in_plane, int64_t out_plane, const T* grad_out,
                         const int64_t* indices, T* grad_input) {
  std::fill(grad_input, grad_input + planes * in_plane, T(0));
  for (int64_t p = 0; p < planes; ++p) {
    T* gi = grad_input + p * in_plane;
    const T* go = grad_out + p * out_plane;
    const int64_t* ind = indices + p * out_plane;
    for (int64_t i = 0; i < out_plane; ++i) {
      const int64_t idx = ind[i];
      if (idx >= 0 && idx < in_plane) gi[idx] += go[i];
    }
  }
}

namespace {

// One average-pooling window: its clipped bounds and the divisor ATen uses for it.
struct AvgWindow {
  int64_t y0, y1, x0, x1;
  int64_t divisor;
};

AvgWindow avg_window(const PoolGeometry& g, int64_t oy, int64_t ox, bool count_include_pad, int64_t divisor_override) {
  int64_t y0 = oy * g.sh - g.ph, x0 = ox * g.sw - g.pw;
  int64_t y1 = std::min(y0 + g.kh, g.h + g.ph), x1 = std::min(x0 + g.kw, g.w + g.pw);
  const int64_t pool_size = (y1 - y0) * (x1 - x0);
  y0 = std::max<int64_t>(y0, 0);
  x0 = std::max<int64_t>(x0, 0);
  y1 = std::min(y1, g.h);
  x1 = std::min(x1, g.w);
  int64_t divisor = divisor_override ? divisor_override : count_include_pad ? pool_size : (y1 - y0) * (x1 - x0);
  return {y0, y1, x0, x1, divisor};
}

}  // namespace

template <typename T>
void avg_pool2d_forward(const PoolGeometry& g, bool count_include_pad, int64_t divisor_override, const T* x, T* out) {
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* plane = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const AvgWindow wnd = avg_window(g, oy, ox, count_include_pad, divisor_override);
        T& o = out[(p * g.oh + oy) * g.ow + ox];
        if (wnd.y0 >= wnd.y1 || wnd.x0 >= wnd.x1) {
          o = T(0);
          continue;
        }
        Acc<T> s = 0;
        for (int64_t iy = wnd.y0; iy < wnd.y1; ++iy)
          for (int64_t ix = wnd.x0; ix < wnd.x1; ++ix) s += plane[iy * g.w + ix];
        o = T(s / Acc<T>(wnd.divisor));
      }
    }
  }
}

template <typename T>
void avg_pool2d_backward(const PoolGeometry& g, bool count_include_pad, int64_t divisor_override, const T* grad_out,
                         T* grad_input) {
  std::fill(grad_input, grad_input + g.planes * g.h * g.w, T(0));
  for (int64_t p = 0; p < g.planes; ++p) {
    T* plane = grad_input + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const AvgWindow wnd = avg_window(g, oy, ox, count_include_pad, divisor_override);
        if (wnd.y0 >= wnd.y1 || wnd.x0 >= wnd.x1) continue;
        const T share = grad_out[(p * g.oh + oy) * g.ow + ox] / T(wnd.divisor);
        for (int64_t iy = wnd.y0; iy < wnd.y1; ++iy)
          for (int64_t ix = wnd.x0; ix < wnd.x1; ++ix) plane[iy * g.w + ix] += share;
      }
    }
  }
}

template <typename T>
void adaptive_avg_pool2d_forward(const PoolGeometry& g, const T* x, T* out) {
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* plane = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      const int64_t y0 = start_index(oy, g.oh, g.h), y1 = end_index(oy, g.oh, g.h);
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t x0 = start_index(ox, g.ow, g.w), x1 = end_index(ox, g.ow, g.w);
        Acc<T> s = 0;
        for (int64_t iy = y0; iy < y1; ++iy)
          for (int64_t ix = x0; ix < x1; ++ix) s += plane[iy * g.w + ix];
        out[(p * g.oh + oy) * g.ow + ox] = T(s / Acc<T>((y1 - y0) * (x1 - x0)));
      }
    }
  }
}

template <typename T>
void adaptive_avg_pool2d_backward(const PoolGeometry& g, const T* grad_out, T* grad_input) {
  std::fill(grad_input, grad_input + g.planes * g.h * g.w, T(0));
  for (int64_t p = 0; p < g.planes; ++p) {
    T* plane = grad_input + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      const int64_t y0 = start_index(oy, g.oh, g.h), y1 = end_index(oy, g.oh, g.h);
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t x0 = start_index(ox, g.ow, g.w), x1 = end_index(ox, g.ow, g.w);
        const T share = grad_out[(p * g.oh + oy) * g.ow + ox] / T((y1 - y0) * (x1 - x0));
        for (int64_t iy = y0; iy < y1; ++iy)
          for (int64_t ix = x0; ix < x1; ++ix) plane[iy * g.w + ix] += share;
      }
    }
  }
}

template <typename T>
void adaptive_max_pool2d_forward(const PoolGeometry& g, const T* x, T* out, int64_t* indices) {
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* plane = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      const int64_t y0 = start_index(oy, g.oh, g.h), y1 = end_index(oy, g.oh, g.h);
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t x0 = start_index(ox, g.ow, g.w), x1 = end_index(ox, g.ow, g.w);
        int64_t best = y0 * g.w + x0;
        T maxval = -std::numeric_limits<T>::infinity();
        for (int64_t iy = y0; iy < y1; ++iy) {
          for (int64_t ix = x0; ix < x1; ++ix) {
            const int64_t idx = iy * g.w + ix;
            const T v = plane[idx];
            if (v > maxval || std::isnan(v)) {
              maxval = v;
              best = idx;
            }
          }
        }
        const int64_t o = (p * g.oh + oy) * g.ow + ox;
        out[o] = maxval;
        indices[o] = best;
      }
    }
  }
}

#define DS_POOL_INSTANTIATE(T)                                                                                   \
  template void max_pool2d_forward<T>(const PoolGeometry&, const T*, T*, int64_t*);                              \
  template void max_pool2d_backward<T>(int64_t, int64_t, int64_t, const T*, const int64_t*, T*);                 \
  template void avg_pool2d_forward<T>(const PoolGeometry&, bool, int64_t, const T*, T*);                         \
  template void avg_pool2d_backward<T>(const PoolGeometry&, bool, int64_t, const T*, T*);                        \
  template void adaptive_avg_pool2d_forward<T>(const PoolGeometry&, const T*, T*);                               \
  template void adaptive_avg_pool2d_backward<T>(const PoolGeometry&, const T*, T*);                              \
  template void adaptive_max_pool2d_forward<T>(const PoolGeometry&, const T*, T*, int64_t*);
DS_POOL_INSTANTIATE(float)
DS_POOL_INSTANTIATE(double)
#undef DS_POOL_INSTANTIATE

}  // namespace ds
