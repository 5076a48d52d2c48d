// Convolution, pooling and normalization kernels for torch.nn.functional (issue 23): the Python layer
// checks arguments (PyTorch's messages), builds the autograd node and calls these; each entry allocates
// exactly the tensors ATen's CUDA kernel allocates, in its order (issue 21), and computes on the host
// (engine/tensor/{conv,pool,norm}_kernels).
//
// Allocations, per entry (outputs through ds::empty, so the event log and the panes see them):
//   conv_forward        output. cuDNN also takes an algorithm-dependent workspace from the caching
//                       allocator; it is not modelled (it depends on the algorithm cuDNN picks).
//   conv_backward       grad_input, grad_weight, grad_bias (each per output_mask); cuDNN's workspace as above.
//   max_pool2d          output, indices (int64)           max_pool2d_backward    grad_input
//   avg_pool2d          output                            avg_pool2d_backward    grad_input
//   adaptive_*_pool2d   output (+ indices for max)        adaptive_avg_backward  grad_input
//   layer_norm          Y, mean, rstd ([M], accumulate dtype)
//   layer_norm_backward dX, dgamma, dbeta (per mask)
//   batch_norm          output, save_mean, save_invstd ([C]; [0] for cuDNN in evaluation)
//   batch_norm_backward grad_input, grad_weight, grad_bias (training); evaluation as native_batch_norm_backward
//   group_norm          Y, mean, rstd ([N, G]) and the kernel's a, b ([N, C], freed on return)
//   group_norm_backward dX, dgamma, dbeta, then the kernel's ds, db, c2, c3, c1 (freed on return)
// Host scratch (im2col columns, converted copies of half/bfloat16 or non-contiguous operands) is plain
// host memory, not device memory: nothing is recorded for it.
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "core/errors.h"
#include "nn_host_io.h"
#include "tensor/conv_kernels.h"
#include "tensor/norm_kernels.h"
#include "tensor/pool_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

using namespace nn_host;  // HostIn, HostOut, dispatch, tl_virtual (nn_host_io.h)

// ------------------------------------------------------------------------------------------ convolution
// x: (N, C, H, W) or (N, C, L) for conv1d; stride/padding/dilation have one entry per spatial dim.
ConvGeometry conv_geometry(const TensorImpl& x, const TensorImpl& w, const Shape& stride, const Shape& padding,
                           const Shape& dilation, int64_t groups) {
  ConvGeometry g;
  const bool one_d = x.dim() == 3;
  g.n = x.sizes()[0];
  g.c = x.sizes()[1];
  g.h = one_d ? 1 : x.sizes()[2];
  g.w = x.sizes()[size_t(x.dim() - 1)];
  g.o = w.sizes()[0];
  g.kh = one_d ? 1 : w.sizes()[2];
  g.kw = w.sizes()[size_t(w.dim() - 1)];
  const size_t last = stride.size() - 1;
  g.sh = one_d ? 1 : stride[0];
  g.sw = stride[last];
  g.ph = one_d ? 0 : padding[0];
  g.pw = padding[last];
  g.dh = one_d ? 1 : dilation[0];
  g.dw = dilation[last];
  g.groups = groups;
  return g;
}

Shape conv_out_shape(const ConvGeometry& g, bool one_d) {
  return one_d ? Shape{g.n, g.o, g.ow()} : Shape{g.n, g.o, g.oh(), g.ow()};
}

TensorPtr conv_forward(const TensorPtr& x, const TensorPtr& w, const TensorPtr& b, const Shape& stride,
                       const Shape& padding, const Shape& dilation, int64_t groups) {
  const ConvGeometry g = conv_geometry(*x, *w, stride, padding, dilation, groups);
  const Shape out_shape = conv_out_shape(g, x->dim() == 3);
  return dispatch(x->dtype(), {&x, &w, &b}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x), wi(w), bi(b);
    HostOut<T> out(out_shape, x->dtype(), x->device());
    if (shape_numel(out_shape) > 0 && !tl_virtual) {
      if (g.c / g.groups * g.kh * g.kw == 0) {
        std::fill(out.get(), out.get() + shape_numel(out_shape), T(0));
      } else {
        check(ds::conv2d_forward<T>(g, xi.get(), wi.get(), bi.get(), out.get()),
              "DeviceScope: convolution needs a BLAS (cblas_sgemm), none was found");
      }
    }
    return out.finish();
  });
}

py::tuple conv_backward(const TensorPtr& grad, const TensorPtr& x, const TensorPtr& w, const Shape& stride,
                        const Shape& padding, const Shape& dilation, int64_t groups, std::vector<bool> mask) {
  const ConvGeometry g = conv_geometry(*x, *w, stride, padding, dilation, groups);
  return dispatch(x->dtype(), {&grad, &x, &w}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad), xi(x), wi(w);
    std::optional<HostOut<T>> dx, dw, db;
    if (mask[0]) dx.emplace(x->sizes(), x->dtype(), x->device());
    if (mask[1]) dw.emplace(w->sizes(), w->dtype(), w->device());
    if (mask[2]) db.emplace(Shape{g.o}, grad->dtype(), grad->device());
    const bool empty = g.n * g.o * g.oh() * g.ow() == 0 || g.c / g.groups * g.kh * g.kw == 0;
    if (tl_virtual) {
      // shape-only: the gradients are allocated above, nothing is computed
    } else if (empty) {  // nothing flows: zero gradients
      for (auto* o : {&dx, &dw, &db})
        if (*o) std::fill((*o)->get(), (*o)->get() + (*o)->numel(), T(0));
    } else {
      check(ds::conv2d_backward<T>(g, gi.get(), xi.get(), wi.get(), dx ? dx->get() : nullptr, dw ? dw->get() : nullptr,
                               db ? db->get() : nullptr),
            "DeviceScope: convolution needs a BLAS (cblas_sgemm), none was found");
    }
    return py::make_tuple(dx ? py::cast(dx->finish()) : py::none(), dw ? py::cast(dw->finish()) : py::none(),
                          db ? py::cast(db->finish()) : py::none());
  });
}

// ------------------------------------------------------------------------------------------ pooling
// x: (..., H, W): every leading dim is a plane.
PoolGeometry pool_geometry(const TensorImpl& x, int64_t oh, int64_t ow) {
  PoolGeometry g;
  g.h = x.sizes()[size_t(x.dim() - 2)];
  g.w = x.sizes()[size_t(x.dim() - 1)];
  g.planes = g.h * g.w ? x.numel() / (g.h * g.w) : 0;
  g.oh = oh;
  g.ow = ow;
  return g;
}

Shape pooled_shape(const TensorImpl& x, int64_t oh, int64_t ow) {
  Shape s = x.sizes();
  s[s.size() - 2] = oh;
  s[s.size() - 1] = ow;
  return s;
}

void set_window(PoolGeometry& g, const Shape& k, const Shape& s, const Shape& p, const Shape& d) {
  g.kh = k[0];
  g.kw = k[1];
  g.sh = s[0];
  g.sw = s[1];
  g.ph = p[0];
  g.pw = p[1];
  g.dh = d[0];
  g.dw = d[1];
}

py::tuple max_pool2d(const TensorPtr& x, const Shape& k, const Shape& s, const Shape& p, const Shape& d, int64_t oh,
                     int64_t ow, bool with_indices) {
  PoolGeometry g = pool_geometry(*x, oh, ow);
  set_window(g, k, s, p, d);
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> out(pooled_shape(*x, oh, ow), x->dtype(), x->device());
    std::optional<IndexOut> ind;
    if (with_indices) ind.emplace(pooled_shape(*x, oh, ow), x->device());
    if (!tl_virtual) ds::max_pool2d_forward<T>(g, xi.get(), out.get(), ind ? ind->get() : nullptr);
    return py::make_tuple(out.finish(), ind ? py::cast(ind->finish()) : py::none());
  });
}

// Also adaptive max pooling's backward: a scatter of grad to the saved indices.
TensorPtr max_pool2d_backward(const TensorPtr& grad, const TensorPtr& x, const TensorPtr& indices) {
  const PoolGeometry g = pool_geometry(*x, grad->sizes()[size_t(grad->dim() - 2)], grad->sizes()[size_t(grad->dim() - 1)]);
  return dispatch(x->dtype(), {&grad, &x, &indices}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad);
    const std::vector<int64_t> idx = read_indices(indices);
    HostOut<T> dx(x->sizes(), x->dtype(), x->device());
    if (!tl_virtual) ds::max_pool2d_backward<T>(g.planes, g.h * g.w, g.oh * g.ow, gi.get(), idx.data(), dx.get());
    return dx.finish();
  });
}

TensorPtr avg_pool2d(const TensorPtr& x, const Shape& k, const Shape& s, const Shape& p, int64_t oh, int64_t ow,
                     bool count_include_pad, int64_t divisor) {
  PoolGeometry g = pool_geometry(*x, oh, ow);
  set_window(g, k, s, p, {1, 1});
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> out(pooled_shape(*x, oh, ow), x->dtype(), x->device());
    if (!tl_virtual) ds::avg_pool2d_forward<T>(g, count_include_pad, divisor, xi.get(), out.get());
    return out.finish();
  });
}

TensorPtr avg_pool2d_backward(const TensorPtr& grad, const TensorPtr& x, const Shape& k, const Shape& s,
                              const Shape& p, bool count_include_pad, int64_t divisor) {
  PoolGeometry g = pool_geometry(*x, grad->sizes()[size_t(grad->dim() - 2)], grad->sizes()[size_t(grad->dim() - 1)]);
  set_window(g, k, s, p, {1, 1});
  return dispatch(x->dtype(), {&grad, &x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad);
    HostOut<T> dx(x->sizes(), x->dtype(), x->device());
    if (!tl_virtual) ds::avg_pool2d_backward<T>(g, count_include_pad, divisor, gi.get(), dx.get());
    return dx.finish();
  });
}

py::tuple adaptive_pool2d(const TensorPtr& x, int64_t oh, int64_t ow, bool max) {
  const PoolGeometry g = pool_geometry(*x, oh, ow);
  return dispatch(x->dtype(), {&x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x);
    HostOut<T> out(pooled_shape(*x, oh, ow), x->dtype(), x->device());
    if (!max) {
      if (!tl_virtual) ds::adaptive_avg_pool2d_forward<T>(g, xi.get(), out.get());
      return py::make_tuple(out.finish(), py::none());
    }
    IndexOut ind(pooled_shape(*x, oh, ow), x->device());
    if (!tl_virtual) ds::adaptive_max_pool2d_forward<T>(g, xi.get(), out.get(), ind.get());
    return py::make_tuple(out.finish(), ind.finish());
  });
}

TensorPtr adaptive_avg_pool2d_backward(const TensorPtr& grad, const TensorPtr& x) {
  const PoolGeometry g = pool_geometry(*x, grad->sizes()[size_t(grad->dim() - 2)], grad->sizes()[size_t(grad->dim() - 1)]);
  return dispatch(x->dtype(), {&grad, &x}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> gi(grad);
    HostOut<T> dx(x->sizes(), x->dtype(), x->device());
    if (!tl_virtual) ds::adaptive_avg_pool2d_backward<T>(g, gi.get(), dx.get());
    return dx.finish();
  });
}

// ------------------------------------------------------------------------------------------ normalization
py::tuple layer_norm(const TensorPtr& x, int64_t m, int64_t n, const TensorPtr& w, const TensorPtr& b, double eps) {
  return dispatch(x->dtype(), {&x, &w, &b}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x), wi(w), bi(b);
    HostOut<T> y(x->sizes(), x->dtype(), x->device());
    HostOut<T> mean(Shape{m}, acc_dtype(x->dtype()), x->device());
    HostOut<T> rstd(Shape{m}, acc_dtype(x->dtype()), x->device());
    if (!tl_virtual) ds::layer_norm_forward<T>(m, n, xi.get(), wi.get(), bi.get(), eps, y.get(), mean.get(), rstd.get());
    return py::make_tuple(y.finish(), mean.finish(), rstd.finish());
  });
}

py::tuple layer_norm_backward(const TensorPtr& dy, const TensorPtr& x, const TensorPtr& mean, const TensorPtr& rstd,
                              const TensorPtr& w, const TensorPtr& b, int64_t m, int64_t n, std::vector<bool> mask) {
  return dispatch(x->dtype(), {&dy, &x, &mean, &rstd, &w}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> dyi(dy), xi(x), mi(mean), ri(rstd), wi(w);
    GradTriple<T> d(mask, x, w, b);
    if (!tl_virtual)
      ds::layer_norm_backward<T>(m, n, dyi.get(), xi.get(), mi.get(), ri.get(), wi.get(), d.ptr(d.input),
                                 d.ptr(d.weight), d.ptr(d.bias));
    return d.finish();
  });
}

// (N, C, S) view of x: S the product of the dims after the channel dim.
void channel_dims(const TensorImpl& x, int64_t& n, int64_t& c, int64_t& s) {
  n = x.sizes()[0];
  c = x.dim() > 1 ? x.sizes()[1] : 1;
  s = 1;
  for (int i = 2; i < x.dim(); ++i) s *= x.sizes()[size_t(i)];
}

// stats: "native" ([C] save_mean / save_invstd in the accumulate dtype, always), "cudnn" ([C] in the weight's
// dtype in training, empty in evaluation) or "cpu" ([C] in training, empty in evaluation).
py::tuple batch_norm(const TensorPtr& x, const TensorPtr& w, const TensorPtr& b, const TensorPtr& rm,
                     const TensorPtr& rv, bool training, double momentum, double eps, const std::string& stats) {
  int64_t n, c, s;
  channel_dims(*x, n, c, s);
  return dispatch(x->dtype(), {&x, &w, &b, &rm, &rv}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x), wi(w), bi(b), rmi(rm), rvi(rv);
    HostOut<T> y(x->sizes(), x->dtype(), x->device());
    const DType stat_dtype = stats == "cudnn" && w ? w->dtype() : stats == "native" ? acc_dtype(x->dtype()) : x->dtype();
    const int64_t stat_n = (training || stats == "native") ? c : 0;
    HostOut<T> mean(Shape{stat_n}, stat_dtype, x->device());
    HostOut<T> invstd(Shape{stat_n}, stat_dtype, x->device());
    // Running statistics are updated in place (a host copy when they are not plain compute-dtype memory).
    std::vector<T> new_rm, new_rv;
    if (training && rm && !tl_virtual) new_rm.assign(rmi.get(), rmi.get() + c);
    if (training && rv && !tl_virtual) new_rv.assign(rvi.get(), rvi.get() + c);
    // evaluation reads the running statistics (the kernel writes them only in training)
    T* rm_arg = training ? (rm ? new_rm.data() : nullptr) : const_cast<T*>(rmi.get());
    T* rv_arg = training ? (rv ? new_rv.data() : nullptr) : const_cast<T*>(rvi.get());
    if (!tl_virtual) ds::batch_norm_forward<T>(n, c, s, xi.get(), wi.get(), bi.get(), rm_arg, rv_arg, training, momentum, eps, y.get(),
                          training ? mean.get() : nullptr, training ? invstd.get() : nullptr);
    if (!training && stat_n > 0 && !tl_virtual) {
      // native_batch_norm in evaluation keeps the running mean and its invstd as the saved statistics
      for (int64_t ch = 0; ch < c; ++ch) {
        mean.get()[ch] = rmi.get()[ch];
        invstd.get()[ch] = T(1.0 / std::sqrt(double(rvi.get()[ch]) + eps));
      }
    }
    if (training && rm) {
      HostOut<T>::store(rm, new_rm.data());
      rm->bump_version();
    }
    if (training && rv) {
      HostOut<T>::store(rv, new_rv.data());
      rv->bump_version();
    }
    return py::make_tuple(y.finish(), mean.finish(), invstd.finish());
  });
}

py::tuple batch_norm_backward(const TensorPtr& dy, const TensorPtr& x, const TensorPtr& w, const TensorPtr& rm,
                              const TensorPtr& rv, const TensorPtr& save_mean, const TensorPtr& save_invstd,
                              bool training, double eps, std::vector<bool> mask) {
  int64_t n, c, s;
  channel_dims(*x, n, c, s);
  return dispatch(x->dtype(), {&dy, &x, &w, &rm, &rv, &save_mean, &save_invstd}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> dyi(dy), xi(x), wi(w), rmi(rm), rvi(rv), smi(training ? save_mean : TensorPtr()),
        sii(training ? save_invstd : TensorPtr());
    GradTriple<T> d;
    // native_batch_norm_backward in evaluation after cuDNN (no saved statistics): invstd from the running
    // variance, and the reduction's sum_dy / sum_dy_xmu, are tensors of the kernel (freed on return).
    TensorPtr eval_invstd, sum_dy, sum_dy_xmu;
    if (!training && (!save_invstd || save_invstd->numel() == 0)) {
      eval_invstd = ds::empty(rt(), {c}, acc_dtype(x->dtype()), x->device(), false, tl_virtual, current_storage_role());
      if (mask[0] && (mask[1] || mask[2])) {
        sum_dy = ds::empty(rt(), {c}, acc_dtype(x->dtype()), x->device(), false, tl_virtual, current_storage_role());
        sum_dy_xmu = ds::empty(rt(), {c}, acc_dtype(x->dtype()), x->device(), false, tl_virtual, current_storage_role());
      }
      d.want(d.weight, mask[1], w);  // this path allocates the parameter gradients first
      d.want(d.bias, mask[2], w);
      d.want(d.input, mask[0], x);
    } else {
      d.want(d.input, mask[0], x);
      d.want(d.weight, mask[1], w);
      d.want(d.bias, mask[2], w);
    }
    if (!tl_virtual)
      ds::batch_norm_backward<T>(n, c, s, dyi.get(), xi.get(), wi.get(), rmi.get(), rvi.get(), smi.get(), sii.get(),
                                 training, eps, d.ptr(d.input), d.ptr(d.weight), d.ptr(d.bias));
    return d.finish();
  });
}

py::tuple group_norm(const TensorPtr& x, const TensorPtr& w, const TensorPtr& b, int64_t n, int64_t c, int64_t hxw,
                     int64_t groups, double eps) {
  return dispatch(x->dtype(), {&x, &w, &b}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> xi(x), wi(w), bi(b);
    HostOut<T> y(x->sizes(), x->dtype(), x->device());
    HostOut<T> mean(Shape{n, groups}, x->dtype(), x->device());
    HostOut<T> rstd(Shape{n, groups}, x->dtype(), x->device());
    // The CUDA kernel's fused scale and shift per (sample, channel) when an affine parameter is given.
    TensorPtr a_buf, b_buf;
    if (hxw != 1 && n > 0 && (w || b)) {
      a_buf = ds::empty(rt(), {n, c}, acc_dtype(x->dtype()), x->device(), false, tl_virtual, current_storage_role());
      b_buf = ds::empty(rt(), {n, c}, acc_dtype(x->dtype()), x->device(), false, tl_virtual, current_storage_role());
    }
    if (!tl_virtual) ds::group_norm_forward<T>(n, c, hxw, groups, xi.get(), wi.get(), bi.get(), eps, y.get(), mean.get(), rstd.get());
    return py::make_tuple(y.finish(), mean.finish(), rstd.finish());
  });
}

py::tuple group_norm_backward(const TensorPtr& dy, const TensorPtr& x, const TensorPtr& mean, const TensorPtr& rstd,
                              const TensorPtr& w, int64_t n, int64_t c, int64_t hxw, int64_t groups,
                              std::vector<bool> mask) {
  return dispatch(x->dtype(), {&dy, &x, &mean, &rstd, &w}, [&](auto tag) {
    using T = decltype(tag);
    HostIn<T> dyi(dy), xi(x), mi(mean), ri(rstd), wi(w);
    GradTriple<T> d(mask, x, w, w);  // group norm's bias gradient is shaped as its weight
    const DType acc = acc_dtype(x->dtype());
    const Role role = current_storage_role();
    // The CUDA kernel's own tensors, in its order: ds, db; then for dX: c2, c3 (and c1 when gamma is given,
    // sized by the TensorIterator that fills it).
    std::vector<TensorPtr> kernel_tensors;
    if (n > 0) {
      kernel_tensors.push_back(ds::empty(rt(), {n, c}, acc, x->device(), false, tl_virtual, role));
      kernel_tensors.push_back(ds::empty(rt(), {n, c}, acc, x->device(), false, tl_virtual, role));
      if (d.input) {
        kernel_tensors.push_back(ds::empty(rt(), {n, groups}, acc, x->device(), false, tl_virtual, role));
        kernel_tensors.push_back(ds::empty(rt(), {n, groups}, acc, x->device(), false, tl_virtual, role));
        if (w && hxw != 1) kernel_tensors.push_back(ds::empty(rt(), {n, c}, acc, x->device(), false, tl_virtual, role));
      }
    }
    std::vector<T> ds_buf(tl_virtual ? 0 : size_t(n * c)), db_buf(tl_virtual ? 0 : size_t(n * c));
    if (!tl_virtual)
      ds::group_norm_backward<T>(n, c, hxw, groups, dyi.get(), xi.get(), mi.get(), ri.get(), wi.get(), ds_buf.data(),
                                 db_buf.data(), d.ptr(d.input), d.ptr(d.weight), d.ptr(d.bias));
    return d.finish();
  });
}

}  // namespace

void bind_conv_nd(py::module_& m);  // transposed and 3-D convolution, im2col / col2im (bindings_conv_nd.cpp)
void bind_pool3d(py::module_& m);   // 3-D max and average pooling (bindings_pool3d.cpp)

void bind_nn(py::module_& m) {
  bind_conv_nd(m);
  bind_pool3d(m);
  // Tensor arguments are TensorImpl objects (a Tensor's _impl) or None; sizes are sequences of ints.
  m.def("nn_conv", [](py::handle x, py::handle w, py::handle b, py::handle stride, py::handle padding,
                      py::handle dilation, int64_t groups) {
    return conv_forward(x.cast<TensorPtr>(), w.cast<TensorPtr>(), opt_tensor(b), shape_of(stride), shape_of(padding),
                        shape_of(dilation), groups);
  });
  m.def("nn_conv_backward", [](py::handle grad, py::handle x, py::handle w, py::handle stride, py::handle padding,
                               py::handle dilation, int64_t groups, std::vector<bool> mask) {
    return conv_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), w.cast<TensorPtr>(), shape_of(stride),
                         shape_of(padding), shape_of(dilation), groups, std::move(mask));
  });
  m.def("nn_max_pool2d", [](py::handle x, py::handle k, py::handle s, py::handle p, py::handle d, int64_t oh,
                            int64_t ow, bool with_indices) {
    return max_pool2d(x.cast<TensorPtr>(), shape_of(k), shape_of(s), shape_of(p), shape_of(d), oh, ow, with_indices);
  });
  m.def("nn_max_pool2d_backward", [](py::handle grad, py::handle x, py::handle indices) {
    return max_pool2d_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), indices.cast<TensorPtr>());
  });
  m.def("nn_avg_pool2d", [](py::handle x, py::handle k, py::handle s, py::handle p, int64_t oh, int64_t ow,
                            bool count_include_pad, int64_t divisor) {
    return avg_pool2d(x.cast<TensorPtr>(), shape_of(k), shape_of(s), shape_of(p), oh, ow, count_include_pad, divisor);
  });
  m.def("nn_avg_pool2d_backward", [](py::handle grad, py::handle x, py::handle k, py::handle s, py::handle p,
                                     bool count_include_pad, int64_t divisor) {
    return avg_pool2d_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>(), shape_of(k), shape_of(s), shape_of(p),
                               count_include_pad, divisor);
  });
  m.def("nn_adaptive_pool2d", [](py::handle x, int64_t oh, int64_t ow, bool max) {
    return adaptive_pool2d(x.cast<TensorPtr>(), oh, ow, max);
  });
  m.def("nn_adaptive_avg_pool2d_backward", [](py::handle grad, py::handle x) {
    return adaptive_avg_pool2d_backward(grad.cast<TensorPtr>(), x.cast<TensorPtr>());
  });
  m.def("nn_layer_norm", [](py::handle x, int64_t m_rows, int64_t n, py::handle w, py::handle b, double eps) {
    return layer_norm(x.cast<TensorPtr>(), m_rows, n, opt_tensor(w), opt_tensor(b), eps);
  });
  m.def("nn_layer_norm_backward", [](py::handle dy, py::handle x, py::handle mean, py::handle rstd, py::handle w,
                                     py::handle b, int64_t m_rows, int64_t n, std::vector<bool> mask) {
    return layer_norm_backward(dy.cast<TensorPtr>(), x.cast<TensorPtr>(), mean.cast<TensorPtr>(),
                               rstd.cast<TensorPtr>(), opt_tensor(w), opt_tensor(b), m_rows, n, std::move(mask));
  });
  m.def("nn_batch_norm", [](py::handle x, py::handle w, py::handle b, py::handle rm, py::handle rv, bool training,
                            double momentum, double eps, const std::string& stats) {
    return batch_norm(x.cast<TensorPtr>(), opt_tensor(w), opt_tensor(b), opt_tensor(rm), opt_tensor(rv), training,
                      momentum, eps, stats);
  });
  m.def("nn_batch_norm_backward", [](py::handle dy, py::handle x, py::handle w, py::handle rm, py::handle rv,
                                     py::handle save_mean, py::handle save_invstd, bool training, double eps,
                                     std::vector<bool> mask) {
    return batch_norm_backward(dy.cast<TensorPtr>(), x.cast<TensorPtr>(), opt_tensor(w), opt_tensor(rm),
                               opt_tensor(rv), opt_tensor(save_mean), opt_tensor(save_invstd), training, eps,
                               std::move(mask));
  });
  m.def("nn_group_norm", [](py::handle x, py::handle w, py::handle b, int64_t n, int64_t c, int64_t hxw,
                            int64_t groups, double eps) {
    return group_norm(x.cast<TensorPtr>(), opt_tensor(w), opt_tensor(b), n, c, hxw, groups, eps);
  });
  m.def("nn_group_norm_backward", [](py::handle dy, py::handle x, py::handle mean, py::handle rstd, py::handle w,
                                     int64_t n, int64_t c, int64_t hxw, int64_t groups, std::vector<bool> mask) {
    return group_norm_backward(dy.cast<TensorPtr>(), x.cast<TensorPtr>(), mean.cast<TensorPtr>(),
                               rstd.cast<TensorPtr>(), opt_tensor(w), n, c, hxw, groups, std::move(mask));
  });
}

}  // namespace ds::python
