// 3-D max and average pooling for torch.nn.functional (engine/python/torch/nn/_functional_pool3d.py checks the
// arguments and builds MaxPool3DWithIndicesBackward0 / AvgPool3DBackward0). Every leading dim is a plane
// (N*C or C planes of D x H x W). The loops follow ATen's CPU/CUDA kernels: max pooling skips padding and takes
// the first maximum (a NaN wins), its indices are flat positions in the input plane; average pooling divides by
// divisor_override, or the window clipped to the padded input (count_include_pad), or to the input itself.
//
// Allocations, per entry (what ATen's CUDA kernels allocate, in their order):
//   max_pool3d           output, indices (int64)          max_pool3d_backward   grad_input
//   avg_pool3d           output                           avg_pool3d_backward   grad_input
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "bindings_common.h"
#include "nn_host_io.h"

namespace ds::python {
namespace {

using namespace nn_host;

// One pooling's geometry: input (planes, D, H, W), output (OD, OH, OW), window k / s / p / d per dim.
struct Pool3d {
  int64_t planes = 0, in[3] = {0, 0, 0}, out[3] = {0, 0, 0};
  int64_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
};

Pool3d geometry(const TensorImpl& x, const Shape& out, const Shape& k, const Shape& s, const Shape& p,
                const Shape& d) {
  Pool3d g;
  const size_t nd = size_t(x.dim());
  for (int i = 0; i < 3; ++i) {
    g.in[i] = x.sizes()[nd - 3 + size_t(i)];
    g.out[i] = out[size_t(i)];
    g.k[i] = k[size_t(i)];
    g.s[i] = s[size_t(i)];
    g.p[i] = p[size_t(i)];
    g.d[i] = d.empty() ? 1 : d[size_t(i)];
  }
  g.planes = g.in_numel() ? x.numel() / g.in_numel() : 0;
  return g;
}

Shape pooled(const TensorImpl& x, const Pool3d& g) {
  Shape s = x.sizes();
  for (int i = 0; i < 3; ++i) s[s.size() - 3 + size_t(i)] = g.out[i];
  return s;
}

template <typename T>
void max_forward(const Pool3d& g, const T* x, T* y, int64_t* idx) {
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    const T* xp = x + pl * g.in_numel();
    int64_t o = pl * g.out_numel();
    for (int64_t od = 0; od < g.out[0]; ++od)
      for (int64_t oh = 0; oh < g.out[1]; ++oh)
        for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
          const int64_t ds = od * g.s[0] - g.p[0], hs = oh * g.s[1] - g.p[1], ws = ow * g.s[2] - g.p[2];
          T best = -std::numeric_limits<T>::infinity();
          int64_t where = -1;
          for (int64_t a = 0; a < g.k[0]; ++a) {
            const int64_t id = ds + a * g.d[0];
            if (id < 0 || id >= g.in[0]) continue;
            for (int64_t b = 0; b < g.k[1]; ++b) {
              const int64_t ih = hs + b * g.d[1];
              if (ih < 0 || ih >= g.in[1]) continue;
              for (int64_t c = 0; c < g.k[2]; ++c) {
                const int64_t iw = ws + c * g.d[2];
                if (iw < 0 || iw >= g.in[2]) continue;
                const int64_t pos = (id * g.in[1] + ih) * g.in[2] + iw;
                const T v = xp[pos];
                if (where < 0 || v > best || std::isnan(v)) {  // ATen's test: a NaN propagates (the last one)
                  best = v;
                  where = pos;
                }
              }
            }
          }
          y[o] = best;
          if (idx) idx[o] = where;
        }
  }
}

// The averaging divisor of one window and its clipped bounds [lo, hi) per dim.
int64_t avg_window(const Pool3d& g, const int64_t o[3], bool count_include_pad, int64_t divisor, int64_t lo[3],
                   int64_t hi[3]) {
  int64_t padded = 1, inside = 1;
  for (int i = 0; i < 3; ++i) {
    lo[i] = o[i] * g.s[i] - g.p[i];
    hi[i] = std::min(lo[i] + g.k[i], g.in[i] + g.p[i]);
    padded *= hi[i] - lo[i];
    lo[i] = std::max<int64_t>(lo[i], 0);
    hi[i] = std::min(hi[i], g.in[i]);
    inside *= std::max<int64_t>(hi[i] - lo[i], 0);
  }
  if (divisor) return divisor;
  return count_include_pad ? padded : inside;
}

template <typename T>
void avg_forward(const Pool3d& g, bool count_include_pad, int64_t divisor, const T* x, T* y) {
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    const T* xp = x + pl * g.in_numel();
    int64_t oi = pl * g.out_numel();
    int64_t o[3];
    for (o[0] = 0; o[0] < g.out[0]; ++o[0])
      for (o[1] = 0; o[1] < g.out[1]; ++o[1])
        for (o[2] = 0; o[2] < g.out[2]; ++o[2], ++oi) {
          int64_t lo[3], hi[3];
          const int64_t div = avg_window(g, o, count_include_pad, divisor, lo, hi);
          double sum = 0.0;
          for (int64_t a = lo[0]; a < hi[0]; ++a)
            for (int64_t b = lo[1]; b < hi[1]; ++b)
              for (int64_t c = lo[2]; c < hi[2]; ++c) sum += double(xp[(a * g.in[1] + b) * g.in[2] + c]);
          y[oi] = T(sum / double(div));
        }
  }
}

template <typename T>
void avg_backward(const Pool3d& g, bool count_include_pad, int64_t divisor, const T* gy, T* gx) {
  std::fill(gx, gx + g.planes * g.in_numel(), T(0));
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    T* xp = gx + pl * g.in_numel();
    int64_t oi = pl * g.out_numel();
    int64_t o[3];
    for (o[0] = 0; o[0] < g.out[0]; ++o[0])
      for (o[1] = 0; o[1] < g.out[1]; ++o[1])
        for (o[2] = 0; o[2] < g.out[2]; ++o[2], ++oi) {
          int64_t lo[3], hi[3];
          const T share = gy[oi] / T(avg_window(g, o, count_include_pad, divisor, lo, hi));
          for (int64_t a = lo[0]; a < hi[0]; ++a)
            for (int64_t b = lo[1]; b < hi[1]; ++b)
              for (int64_t c = lo[2]; c < hi[2]; ++c) xp[(a * g.in[1] + b) * g.in[2] + c] += share;
        }
  }
}

py::tuple max_pool3d(const TensorPtr& x, const Shape& out, const Shape& k, const Shape& s, const Shape& p,
                     const Shape& d) {
  const Pool3d g = geometry(*x, out, k, s, p, d);
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> y(pooled(*x, g), x->dtype(), x->device());
    IndexOut ind(pooled(*x, g), x->device());
    if (!tl_virtual) max_forward<T>(g, xi.get(), y.get(), ind.get());
    return py::make_tuple(y.finish(), ind.finish());
  });
}

TensorPtr max_pool3d_backward(const TensorPtr& grad, const TensorPtr& x, const TensorPtr& indices) {
  return dispatch(x->dtype(), {&grad, &x, &indices}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad);
    const std::vector<int64_t> idx = read_indices(indices);
    HostOut<T> dx(x->sizes(), x->dtype(), x->device());
    if (!tl_virtual) {
      const int64_t plane_in = x->sizes()[size_t(x->dim() - 1)] * x->sizes()[size_t(x->dim() - 2)] *
                               x->sizes()[size_t(x->dim() - 3)];
      const int64_t planes = plane_in ? x->numel() / plane_in : 0;
      const int64_t plane_out = planes ? grad->numel() / planes : 0;
      std::fill(dx.get(), dx.get() + dx.numel(), T(0));
      for (int64_t pl = 0; pl < planes; ++pl)
        for (int64_t o = 0; o < plane_out; ++o) {
          const int64_t where = idx[size_t(pl * plane_out + o)];
          if (where >= 0) dx.get()[pl * plane_in + where] += gi.get()[pl * plane_out + o];
        }
    }
    return dx.finish();
  });
}

TensorPtr avg_pool3d(const TensorPtr& x, const Shape& out, const Shape& k, const Shape& s, const Shape& p,
                     bool count_include_pad, int64_t divisor) {
  const Pool3d g = geometry(*x, out, k, s, p, {});
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> y(pooled(*x, g), x->dtype(), x->device());
    if (!tl_virtual) avg_forward<T>(g, count_include_pad, divisor, xi.get(), y.get());
    return y.finish();
  });
}

TensorPtr avg_pool3d_backward(const TensorPtr& grad, const TensorPtr& x, const Shape& k, const Shape& s,
                              const Shape& p, bool count_include_pad, int64_t divisor) {
  const size_t nd = size_t(grad->dim());
  const Shape out{grad->sizes()[nd - 3], grad->sizes()[nd - 2], grad->sizes()[nd - 1]};
  const Pool3d g = geometry(*x, out, k, s, p, {});
  return dispatch(x->dtype(), {&grad, &x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad);
    HostOut<T> dx(x->sizes(), x->dtype(), x->device());
    if (!tl_virtual) avg_backward<T>(g, count_include_pad, divisor, gi.get(), dx.get());
    return dx.finish();
  });
}

}  // namespace

void bind_pool3d(py::module_& m) {
  m.def("nn_max_pool3d", [](py::handle x, py::handle out, py::handle k, py::handle s, py::handle p, py::handle d) {
    return max_pool3d(x.cast<TensorPtr>(), shape_of(out), shape_of(k), shape_of(s), shape_of(p), shape_of(d));
  });
  m.def("nn_max_pool3d_backward", [](py::handle grad, py::handle x, py::handle indices) {
    return max_pool3d_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), indices.cast<TensorPtr>());
  });
  m.def("nn_avg_pool3d", [](py::handle x, py::handle out, py::handle k, py::handle s, py::handle p,
                            bool count_include_pad, int64_t divisor) {
    return avg_pool3d(x.cast<TensorPtr>(), shape_of(out), shape_of(k), shape_of(s), shape_of(p), count_include_pad,
                      divisor);
  });
  m.def("nn_avg_pool3d_backward", [](py::handle grad, py::handle x, py::handle k, py::handle s, py::handle p,
                                     bool count_include_pad, int64_t divisor) {
    return avg_pool3d_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), shape_of(k), shape_of(s), shape_of(p),
                               count_include_pad, divisor);
  });
}

}  // namespace ds::python
