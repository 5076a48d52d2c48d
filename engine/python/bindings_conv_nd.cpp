// Transposed convolutions (1-3 spatial dims), 3-D convolution, and F.unfold / F.fold (im2col / col2im) for
// torch.nn.functional (engine/python/torch/nn/_functional_conv_nd.py checks arguments in PyTorch's words and
// builds the autograd nodes); values from engine/tensor/conv_nd_kernels, host I/O from nn_host_io.h.
//
// Allocations, per entry (what ATen's CUDA kernels allocate, in their order; column matrices are host scratch):
//   conv_nd            output
//   conv_nd_backward   grad_input, grad_weight, grad_bias (each per output_mask)
//   im2col             output (N, C * prod(kernel), L)     (no N for an unbatched input)
//   col2im             output (N, C, *output_size)         (likewise)
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bindings_common.h"
#include "core/errors.h"
#include "nn_host_io.h"
#include "tensor/conv_nd_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

using namespace nn_host;

const char* kNoBlas = "DeviceScope: convolution needs a BLAS (cblas_sgemm), none was found";

// The geometry of a convolution (transposed or not) of x (N, C, *spatial) with weight; spatial lists are
// right-aligned into the geometry's three slots.
ConvNdGeometry conv_nd_geometry(const TensorImpl& x, const TensorImpl& w, const Shape& stride, const Shape& padding,
                                const Shape& dilation, int64_t groups, bool transposed, const Shape& output_padding) {
  ConvNdGeometry g;
  const int nd = int(x.dim()) - 2;
  g.nd = nd;
  g.n = x.sizes()[0];
  g.groups = groups;
  for (int i = 0; i < nd; ++i) {
    const int slot = 3 - nd + i;
    const int64_t in = x.sizes()[size_t(2 + i)], k = w.sizes()[size_t(2 + i)];
    g.k[slot] = k;
    g.s[slot] = stride[size_t(i)];
    g.p[slot] = padding[size_t(i)];
    g.d[slot] = dilation[size_t(i)];
    if (transposed) {  // the image is the output
      g.col[slot] = in;
      g.img[slot] = (in - 1) * g.s[slot] - 2 * g.p[slot] + g.d[slot] * (k - 1) + output_padding[size_t(i)] + 1;
    } else {
      g.img[slot] = in;
      g.col[slot] = (in + 2 * g.p[slot] - g.d[slot] * (k - 1) - 1) / g.s[slot] + 1;
    }
  }
  if (transposed) {
    g.c_vec = x.sizes()[1];
    g.c_img = w.sizes()[1] * groups;
  } else {
    g.c_img = x.sizes()[1];
    g.c_vec = w.sizes()[0];
  }
  return g;
}

Shape spatial_shape(const ConvNdGeometry& g, int64_t n, int64_t c, bool image) {
  Shape s{n, c};
  for (int i = 3 - g.nd; i < 3; ++i) s.push_back(image ? g.img[i] : g.col[i]);
  return s;
}

// True when the products have something to multiply (no zero-sized dimension reaches the BLAS, whose
// leading-dimension checks refuse zeros); otherwise every output is zero.
bool has_work(const ConvNdGeometry& g) {
  return g.n > 0 && g.c_img > 0 && g.c_vec > 0 && g.img_numel() > 0 && g.col_numel() > 0 && g.k_numel() > 0;
}

template <typename T>
void zero(HostOut<T>& out) {
  if (!tl_virtual) std::fill(out.get(), out.get() + out.numel(), T(0));
}

TensorPtr conv_nd(const TensorPtr& x, const TensorPtr& w, const TensorPtr& b, const Shape& stride,
                  const Shape& padding, const Shape& dilation, int64_t groups, bool transposed,
                  const Shape& output_padding) {
  const ConvNdGeometry g = conv_nd_geometry(*x, *w, stride, padding, dilation, groups, transposed, output_padding);
  const Shape out_shape = transposed ? spatial_shape(g, g.n, g.c_img, true) : spatial_shape(g, g.n, g.c_vec, false);
  return dispatch(x->dtype(), {&x, &w, &b}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x), wi(w), bi(b);
    HostOut<T> out(out_shape, x->dtype(), x->device());
    if (tl_virtual || out.numel() == 0) return out.finish();
    if (!has_work(g)) {  // an empty reduction: only the bias remains
      zero(out);
      if (b) {
        const int64_t c = out_shape[1], inner = c ? out.numel() / (g.n * c) : 0;
        for (int64_t i = 0; i < out.numel(); ++i) out.get()[i] = bi.get()[(i / inner) % c];
      }
      return out.finish();
    }
    const bool ok = transposed ? conv_nd_scatter<T>(g, xi.get(), wi.get(), bi.get(), out.get())
                               : conv_nd_gather<T>(g, xi.get(), wi.get(), bi.get(), out.get());
    check(ok, kNoBlas);
    return out.finish();
  });
}

py::tuple conv_nd_backward(const TensorPtr& grad, const TensorPtr& x, const TensorPtr& w, const Shape& stride,
                           const Shape& padding, const Shape& dilation, int64_t groups, bool transposed,
                           const Shape& output_padding, const std::vector<bool>& mask) {
  const ConvNdGeometry g = conv_nd_geometry(*x, *w, stride, padding, dilation, groups, transposed, output_padding);
  return dispatch(x->dtype(), {&grad, &x, &w}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad), xi(x), wi(w);
    std::optional<HostOut<T>> dx, dw, db;
    if (mask[0]) dx.emplace(x->sizes(), x->dtype(), x->device());
    if (mask[1]) dw.emplace(w->sizes(), w->dtype(), w->device());
    if (mask[2]) db.emplace(Shape{grad->sizes()[1]}, grad->dtype(), grad->device());
    if (!tl_virtual) {
      const bool work = has_work(g);
      for (auto* o : {&dx, &dw, &db})
        if (*o && !work) zero(**o);
      // The image side is x for a convolution and grad for a transposed one; the columns side the other.
      const T* img = transposed ? gi.get() : xi.get();
      const T* vec = transposed ? xi.get() : gi.get();
      if (work && dx)
        check(transposed ? conv_nd_gather<T>(g, img, wi.get(), nullptr, dx->get())
                         : conv_nd_scatter<T>(g, vec, wi.get(), nullptr, dx->get()),
              kNoBlas);
      if (work && dw) check(conv_nd_weight_grad<T>(g, vec, img, dw->get()), kNoBlas);
      if (db && grad->numel() > 0) {
        const int64_t c = grad->sizes()[1];
        channel_sums<T>(grad->sizes()[0], c, grad->numel() / (grad->sizes()[0] * c), gi.get(), db->get());
      } else if (db) {
        zero(*db);
      }
    }
    auto one = [](std::optional<HostOut<T>>& o) -> py::object { return o ? py::cast(o->finish()) : py::none(); };
    return py::make_tuple(one(dx), one(dw), one(db));
  });
}

// F.unfold's im2col / F.fold's col2im over a batched 4-D image: a geometry with one group, where the columns
// side is the (N, C * K, L) matrix itself.
ConvNdGeometry unfold_geometry(int64_t n, int64_t c, const Shape& image, const Shape& k, const Shape& d,
                               const Shape& p, const Shape& s) {
  ConvNdGeometry g;
  g.nd = 2;
  g.n = n;
  g.c_img = c;
  g.c_vec = c;
  for (int i = 0; i < 2; ++i) {
    g.img[1 + i] = image[size_t(i)];
    g.k[1 + i] = k[size_t(i)];
    g.d[1 + i] = d[size_t(i)];
    g.p[1 + i] = p[size_t(i)];
    g.s[1 + i] = s[size_t(i)];
    g.col[1 + i] = (image[size_t(i)] + 2 * p[size_t(i)] - d[size_t(i)] * (k[size_t(i)] - 1) - 1) / s[size_t(i)] + 1;
  }
  return g;
}

// x: (N, C, H, W), or (C, H, W) unbatched (the result then has no batch dim either).
TensorPtr im2col(const TensorPtr& x, const Shape& k, const Shape& d, const Shape& p, const Shape& s) {
  const bool batched = x->dim() == 4;
  const Shape& xs = x->sizes();
  const size_t b = batched ? 1 : 0;
  const ConvNdGeometry g = unfold_geometry(batched ? xs[0] : 1, xs[b], {xs[b + 1], xs[b + 2]}, k, d, p, s);
  const int64_t rows = g.c_img * g.k_numel(), l = g.col_numel();
  const Shape out_shape = batched ? Shape{g.n, rows, l} : Shape{rows, l};
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> out(out_shape, x->dtype(), x->device());
    if (!tl_virtual && out.numel() > 0)
      for (int64_t i = 0; i < g.n; ++i)
        vol2col<T>(g, g.c_img, xi.get() + i * g.c_img * g.img_numel(), out.get() + i * rows * l);
    return out.finish();
  });
}

// cols: (N, C * K, L), or (C * K, L) unbatched.
TensorPtr col2im(const TensorPtr& cols, const Shape& output_size, const Shape& k, const Shape& d, const Shape& p,
                 const Shape& s) {
  const bool batched = cols->dim() == 3;
  const size_t b = batched ? 1 : 0;
  const int64_t kn = k[0] * k[1], rows = cols->sizes()[b], l = cols->sizes()[b + 1];
  const ConvNdGeometry g = unfold_geometry(batched ? cols->sizes()[0] : 1, rows / kn, output_size, k, d, p, s);
  const Shape out_shape = batched ? Shape{g.n, g.c_img, output_size[0], output_size[1]}
                                  : Shape{g.c_img, output_size[0], output_size[1]};
  return dispatch(cols->dtype(), {&cols}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> ci(cols);
    HostOut<T> out(out_shape, cols->dtype(), cols->device());
    if (!tl_virtual && out.numel() > 0) {
      zero(out);
      for (int64_t i = 0; i < g.n; ++i)
        col2vol_add<T>(g, g.c_img, ci.get() + i * rows * l, out.get() + i * g.c_img * g.img_numel());
    }
    return out.finish();
  });
}

}  // namespace

void bind_conv_nd(py::module_& m) {
  m.def("nn_conv_nd", [](py::handle x, py::handle w, py::handle b, py::handle stride, py::handle padding,
                         py::handle dilation, int64_t groups, bool transposed, py::handle output_padding) {
    return conv_nd(x.cast<TensorPtr>(), w.cast<TensorPtr>(), opt_tensor(b), shape_of(stride), shape_of(padding),
                   shape_of(dilation), groups, transposed, shape_of(output_padding));
  });
  m.def("nn_conv_nd_backward", [](py::handle grad, py::handle x, py::handle w, py::handle stride, py::handle padding,
                                  py::handle dilation, int64_t groups, bool transposed, py::handle output_padding,
                                  std::vector<bool> mask) {
    return conv_nd_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), w.cast<TensorPtr>(), shape_of(stride),
                            shape_of(padding), shape_of(dilation), groups, transposed, shape_of(output_padding), mask);
  });
  m.def("nn_im2col", [](py::handle x, py::handle k, py::handle d, py::handle p, py::handle s) {
    return im2col(x.cast<TensorPtr>(), shape_of(k), shape_of(d), shape_of(p), shape_of(s));
  });
  m.def("nn_col2im", [](py::handle cols, py::handle output_size, py::handle k, py::handle d, py::handle p,
                        py::handle s) {
    return col2im(cols.cast<TensorPtr>(), shape_of(output_size), shape_of(k), shape_of(d), shape_of(p), shape_of(s));
  });
}

}  // namespace ds::python
