// The torch._foreach_* ops of the multi-tensor optimizers (torch/optim/_foreach.py), issue 23: an Adam step
// over a model's parameters made ~10 Python tensor ops per parameter (lerp_, addcmul_ and addcdiv_ three each,
// sqrt through numpy), 5x PyTorch's step. Here each foreach op over its lists is one call: the checks first,
// for every tensor, and only then the writes, so a call either does the whole list or nothing (False / None:
// _foreach.py's per-tensor Python path then runs, which stays the reference for semantics and errors).
//
// Values: the same bits as the per-tensor Python path: the binary ops are the elementwise fast path's kernels
// (bindings_ops.cpp); lerp_, addcmul_ and addcdiv_ are one ATen kernel each (ternary_pointwise.py), whose float32
// multiply-adds are fused as ATen's AVX2 kernels fuse them. Allocations: only the out-of-place ops' results (one
// ds::empty per tensor, in list order, as _foreach_sqrt's empty_like each); nothing else touches a device. Every in-place op bumps each written
// tensor's version once, as the Python path's write does.
//
// Entries (pybind11; the optimizer runs them under torch.no_grad, and with grad mode on they decline):
//   foreach_group(lists, steps_index)   True when every tensor of every list (None entries aside) shares the
//                                       device and dtype of list 0's tensor at its index and all of list 0 is
//                                       on one device and dtype (the step counters, list steps_index, may be
//                                       CPU float32/64 scalars): the grouping is then one group, in order.
//   foreach_binary_(kind, tensors, other, alpha)  tensors[i] op= other (a number, a list of numbers or a list
//                                       of tensors of the same shape, dtype and device; alpha: add only).
//                                       kind: "add", "mul", "div".
//   foreach_unary(kind, tensors)        a list of new tensors: "sqrt" (float32 as double, rounded once, as
//                                       unary.py's precise sqrt), "neg".
//   foreach_pointwise_(kind, tensors, t1, t2, scalars)  "lerp": tensors[i].lerp_(t1[i], w) (t2 None, scalars
//                                       one number); "addcmul" / "addcdiv": tensors[i] += scalar * t1[i] * t2[i]
//                                       (or / t2[i]), scalars one number or a list.
//   foreach_items(tensors)              [t.item() ...] of one-element float CPU tensors, or None.
//   foreach_norm2_into(results, tensors) each tensor's 2-norm into its 0-dim result (_foreach_norm's values).
// foreach_binary_'s other may also be a 0-dim tensor of the tensors' dtype and device (_foreach_mul_(tensors, t)).
#include <Python.h>

#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings_common.h"
#include "copy_origin.h"
#include "fast_entry.h"
#include "tensor/elementwise_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

double fast_numpy_sum(const double* a, int64_t n);  // bindings_ops.cpp: np.sum's (pairwise) order

namespace {

bool grad_mode_on() {
  const FastEntryState& g = fast_state();
  if (!g.grad_enabled) return true;  // not set up (no fast entries): decline
  const int on = PyObject_IsTrue(PyList_GET_ITEM(g.grad_enabled, 0));
  if (on < 0) PyErr_Clear();
  return on != 0;
}

// One list item as a tensor the kernels read and write in place: float32/float64, non-empty, row-major
// contiguous (as the result the Python path would make for it), real bytes on the host or a simulated device.
struct Item {
  TensorImpl* t = nullptr;
  void* data = nullptr;
};

bool plain(PyObject* obj, Item& out, bool writable) {
  TensorImpl* t = fast_impl_of(obj);
  if (!t) return false;
  const DType d = t->dtype();
  if ((d != DType::Float32 && d != DType::Float64) || t->numel() <= 0 || t->is_virtual() ||
      t->device().type() == DeviceType::Meta || t->strides() != contiguous_strides(t->sizes()))
    return false;
  Runtime& r = rt();
  const TensorPtr keep(TensorPtr{}, t);  // non-owning: the Python object owns it
  out.data = writable ? host_writable(r, keep) : const_cast<void*>(host_readable(r, keep));
  out.t = t;
  return out.data != nullptr;
}

// A list (exactly) of n plain tensors, each of the dtype, device and shape of like[i] when like is given.
bool plain_list(PyObject* list, std::vector<Item>& out, bool writable, const std::vector<Item>* like) {
  if (!PyList_CheckExact(list)) return false;
  const Py_ssize_t n = PyList_GET_SIZE(list);
  if (like && size_t(n) != like->size()) return false;
  out.resize(size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!plain(PyList_GET_ITEM(list, i), out[size_t(i)], writable)) return false;
    if (like) {
      const TensorImpl& a = *out[size_t(i)].t;
      const TensorImpl& b = *(*like)[size_t(i)].t;
      if (a.dtype() != b.dtype() || !(a.device() == b.device()) || a.sizes() != b.sizes()) return false;
    }
  }
  return true;
}

// A Python float, or an int that a float dtype holds exactly (as the fast path's scalar_fits).
bool number(PyObject* obj, double& out) {
  if (PyFloat_CheckExact(obj)) {
    out = PyFloat_AS_DOUBLE(obj);
    return true;
  }
  if (!PyLong_CheckExact(obj)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  if (std::llabs(v) > (1LL << 53)) return false;
  out = double(v);
  return true;
}

// One number for all tensors, or a list of n numbers.
bool numbers(PyObject* obj, size_t n, std::vector<double>& out) {
  double v = 0;
  if (number(obj, v)) {
    out.assign(n, v);
    return true;
  }
  if (!PyList_CheckExact(obj) || size_t(PyList_GET_SIZE(obj)) != n) return false;
  out.resize(n);
  for (size_t i = 0; i < n; ++i)
    if (!number(PyList_GET_ITEM(obj, Py_ssize_t(i)), out[i])) return false;
  return true;
}

// Writing t while reading u, which overlaps it in another layout, is PyTorch's overlap error: Python's.
bool overlaps_differently(const TensorImpl& t, const TensorImpl& u) {
  return t.storage() == u.storage() &&
         (t.offset() != u.offset() || t.sizes() != u.sizes() || t.strides() != u.strides());
}

KernelInput tensor_in(const void* data, const Shape& sizes) {
  KernelInput in;
  in.data = data;
  in.strides = contiguous_strides(sizes);
  return in;
}

KernelInput scalar_in(double v) {
  KernelInput in;
  in.fscalar = v;
  return in;
}

bool binary_kind(const std::string& kind, BinaryKind& out) {
  if (kind == "add") out = BinaryKind::Add;
  else if (kind == "mul") out = BinaryKind::Mul;
  else if (kind == "div") out = BinaryKind::Div;
  else return false;
  return true;
}

bool foreach_binary_(const std::string& kind, py::handle tensors, py::handle other, py::handle alpha_obj) {
  BinaryKind op;
  double alpha = 1;
  if (!binary_kind(kind, op) || grad_mode_on() || !number(alpha_obj.ptr(), alpha)) return false;
  if (op != BinaryKind::Add && alpha != 1) return false;
  std::vector<Item> self, others;
  std::vector<double> scalars;
  if (!plain_list(tensors.ptr(), self, true, nullptr)) return false;
  const bool list_of_tensors = PyList_CheckExact(other.ptr()) && PyList_GET_SIZE(other.ptr()) > 0 &&
                               PyObject_TypeCheck(PyList_GET_ITEM(other.ptr(), 0), fast_state().tensor_type);
  if (list_of_tensors) {
    if (!plain_list(other.ptr(), others, false, &self)) return false;
    for (size_t i = 0; i < self.size(); ++i)
      if (overlaps_differently(*self[i].t, *others[i].t)) return false;
  } else if (Item s; PyObject_TypeCheck(other.ptr(), fast_state().tensor_type)) {
    // _foreach_mul_(tensors, Tensor): a one-element tensor of the same dtype and device, read once (the
    // fast path's 0-dim operand: its value in the dtype, exact as a double)
    if (!plain(other.ptr(), s, false) || s.t->dim() != 0) return false;
    for (const Item& t : self)
      if (t.t->dtype() != s.t->dtype() || !(t.t->device() == s.t->device()) || t.t->storage() == s.t->storage())
        return false;
    const double v = s.t->dtype() == DType::Float32 ? double(*static_cast<const float*>(s.data))
                                                     : *static_cast<const double*>(s.data);
    scalars.assign(self.size(), v);
  } else if (!numbers(other.ptr(), self.size(), scalars)) {
    return false;
  }
  for (size_t i = 0; i < self.size(); ++i) {
    TensorImpl& t = *self[i].t;
    const KernelInput a = tensor_in(self[i].data, t.sizes());
    const KernelInput b = list_of_tensors ? tensor_in(others[i].data, t.sizes()) : scalar_in(scalars[i]);
    binary_kernel(op, t.dtype(), t.sizes(), self[i].data, a, b, alpha, int64_t(alpha));
    t.bump_version();
  }
  return true;
}

template <typename T>
void sqrt_loop(int64_t n, void* out_v, const void* x_v) {
  T* out = static_cast<T*>(out_v);
  const T* x = static_cast<const T*>(x_v);
  for (int64_t i = 0; i < n; ++i) out[i] = T(std::sqrt(double(x[i])));
}

py::object foreach_unary(const std::string& kind, py::handle tensors) {
  const bool is_sqrt = kind == "sqrt";
  if ((!is_sqrt && kind != "neg") || grad_mode_on()) return py::none();
  std::vector<Item> xs;
  if (!plain_list(tensors.ptr(), xs, false, nullptr)) return py::none();
  Runtime& r = rt();
  py::list out(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const TensorImpl& x = *xs[i].t;
    TensorPtr res = ds::empty(r, x.sizes(), x.dtype(), x.device(), false, false, current_storage_role());
    void* dst = host_writable(r, res);
    const void* src = host_readable(r, TensorPtr(TensorPtr{}, xs[i].t));  // after the allocation: re-read
    if (!is_sqrt) unary_kernel(UnaryKind::Neg, x.dtype(), x.numel(), dst, src);
    else if (x.dtype() == DType::Float32) sqrt_loop<float>(x.numel(), dst, src);
    else sqrt_loop<double>(x.numel(), dst, src);
    PyObject* wrapped = fast_wrap(std::move(res));
    if (!wrapped) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), Py_ssize_t(i), wrapped);
  }
  return std::move(out);
}

// x * y + z rounded once to float (ATen's fused multiply-add on AVX2 machines), computed as
// ternary_pointwise._fma32 computes it: the float product is exact in double, the sum rounded to double, then float.
inline float fma32(float x, float y, float z) { return float(double(x) * double(y) + double(z)); }

// ternary_pointwise.py's values of lerp_ / addcmul_ / addcdiv_ (the per-tensor path), element by element:
// float32 with addcmul's and lerp's multiply-adds fused, float64 step by step.
template <typename T>
void pointwise_loop(const std::string& kind, int64_t n, void* out, const void* self, const void* t1, const void* t2,
                    double scalar) {
  T* r = static_cast<T*>(out);
  const T* s = static_cast<const T*>(self);
  const T* a = static_cast<const T*>(t1);
  const T* b = static_cast<const T*>(t2);
  const T v = T(scalar);
  constexpr bool f32 = std::is_same_v<T, float>;
  if (kind == "lerp") {  // self + w * (end - self) for w < 0.5, end - (end - self) * (1 - w) otherwise
    const T one_minus = T(1) - v;
    for (int64_t i = 0; i < n; ++i) {
      const T d = a[i] - s[i];
      if constexpr (f32) r[i] = v < T(0.5) ? fma32(v, d, s[i]) : fma32(-d, one_minus, a[i]);
      else r[i] = v < T(0.5) ? s[i] + v * d : a[i] - d * one_minus;
    }
  } else if (kind == "addcmul") {  // self + (value * t1) * t2
    for (int64_t i = 0; i < n; ++i) {
      const T p = v * a[i];
      if constexpr (f32) r[i] = fma32(p, b[i], s[i]);
      else r[i] = s[i] + p * b[i];
    }
  } else {  // addcdiv: self + (value * t1) / t2
    for (int64_t i = 0; i < n; ++i) {
      const T q = (v * a[i]) / b[i];
      r[i] = s[i] + q;
    }
  }
}

bool foreach_pointwise_(const std::string& kind, py::handle tensors, py::handle t1, py::handle t2,
                        py::handle scalar_obj) {
  const bool lerp = kind == "lerp", addcdiv = kind == "addcdiv";
  if ((!lerp && !addcdiv && kind != "addcmul") || grad_mode_on()) return false;
  std::vector<Item> self, a, b;
  std::vector<double> scalars;
  if (!plain_list(tensors.ptr(), self, true, nullptr) || !plain_list(t1.ptr(), a, false, &self)) return false;
  if (!lerp && !plain_list(t2.ptr(), b, false, &self)) return false;
  if (!numbers(scalar_obj.ptr(), self.size(), scalars)) return false;
  if (lerp && PyList_CheckExact(scalar_obj.ptr())) return false;  // _foreach_lerp_ with one weight only
  // The result goes through a scratch buffer, so that a self overlapping an input reads its old values, as there.
  std::vector<double> scratch;
  for (size_t i = 0; i < self.size(); ++i) {
    TensorImpl& t = *self[i].t;
    const int64_t n = t.numel();
    const size_t bytes = size_t(n) * itemsize(t.dtype());
    scratch.resize((bytes + sizeof(double) - 1) / sizeof(double));
    const void* b_data = lerp ? nullptr : b[i].data;
    if (t.dtype() == DType::Float32)
      pointwise_loop<float>(kind, n, scratch.data(), self[i].data, a[i].data, b_data, scalars[i]);
    else
      pointwise_loop<double>(kind, n, scratch.data(), self[i].data, a[i].data, b_data, scalars[i]);
    std::memcpy(self[i].data, scratch.data(), bytes);
    t.bump_version();
  }
  return true;
}

template <typename T>
double norm2(const T* x, int64_t n, std::vector<double>& sq) {
  sq.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::fabs(double(x[i]));
    sq[size_t(i)] = a * a;
  }
  return std::sqrt(fast_numpy_sum(sq.data(), n));
}

// _foreach_norm's fused CUDA kernel for ord 2 (optim/_foreach.py norm): each tensor's 2-norm written into its
// 0-dim result, which the caller allocated as the kernel does. vector_norm.py's values: |x| in float64, squared,
// numpy's pairwise sum over all elements, sqrt, rounded once to the dtype. Each result's version bumps once (the
// Python path's copy_).
bool foreach_norm2_into(py::handle results, py::handle tensors) {
  if (grad_mode_on()) return false;
  std::vector<Item> xs, rs;
  if (!plain_list(tensors.ptr(), xs, false, nullptr) || !PyList_CheckExact(results.ptr()) ||
      size_t(PyList_GET_SIZE(results.ptr())) != xs.size())
    return false;
  rs.resize(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    Item& r = rs[i];
    if (!plain(PyList_GET_ITEM(results.ptr(), Py_ssize_t(i)), r, true) || r.t->dim() != 0 ||
        r.t->dtype() != xs[i].t->dtype() || !(r.t->device() == xs[i].t->device()))
      return false;
  }
  std::vector<double> sq;
  for (size_t i = 0; i < xs.size(); ++i) {
    const TensorImpl& x = *xs[i].t;
    if (x.dtype() == DType::Float32) {
      *static_cast<float*>(rs[i].data) = float(norm2(static_cast<const float*>(xs[i].data), x.numel(), sq));
    } else {
      *static_cast<double*>(rs[i].data) = norm2(static_cast<const double*>(xs[i].data), x.numel(), sq);
    }
    rs[i].t->bump_version();
  }
  return true;
}

bool same_place(const TensorImpl& a, const TensorImpl& b) {
  return a.dtype() == b.dtype() && a.device() == b.device();
}

// A step counter the grouping lets differ from its parameter: one float32/64 element on the CPU.
bool cpu_step(const TensorImpl& t) {
  return t.device().type() == DeviceType::CPU && t.numel() == 1 &&
         (t.dtype() == DType::Float32 || t.dtype() == DType::Float64);
}

bool foreach_group(py::handle lists_obj, int steps_index) {
  PyObject* lists = lists_obj.ptr();
  if (!PyList_CheckExact(lists) || PyList_GET_SIZE(lists) == 0) return false;
  PyObject* first_list = PyList_GET_ITEM(lists, 0);
  if (!PyList_CheckExact(first_list)) return false;
  const Py_ssize_t n = PyList_GET_SIZE(first_list);
  std::vector<TensorImpl*> firsts(size_t(n), nullptr);
  for (Py_ssize_t i = 0; i < n; ++i) {
    firsts[size_t(i)] = fast_impl_of(PyList_GET_ITEM(first_list, i));
    if (!firsts[size_t(i)] || !same_place(*firsts[size_t(i)], *firsts[0])) return false;
  }
  for (Py_ssize_t j = 1; j < PyList_GET_SIZE(lists); ++j) {
    PyObject* lst = PyList_GET_ITEM(lists, j);
    if (!PyList_CheckExact(lst)) return false;
    const Py_ssize_t m = PyList_GET_SIZE(lst);
    if (m == 0) continue;
    if (m != n) return false;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* obj = PyList_GET_ITEM(lst, i);
      if (obj == Py_None) continue;
      TensorImpl* t = fast_impl_of(obj);
      if (!t) return false;
      if (!same_place(*t, *firsts[size_t(i)]) && !(j == steps_index && cpu_step(*t))) return false;
    }
  }
  return true;
}

py::object foreach_items(py::handle tensors) {
  std::vector<Item> xs;
  PyObject* list = tensors.ptr();
  if (!PyList_CheckExact(list)) return py::none();
  const Py_ssize_t n = PyList_GET_SIZE(list);
  py::list out{size_t(n)};
  for (Py_ssize_t i = 0; i < n; ++i) {
    TensorImpl* t = fast_impl_of(PyList_GET_ITEM(list, i));
    if (!t || t->device().type() != DeviceType::CPU || t->numel() != 1 || t->is_virtual() ||
        (t->dtype() != DType::Float32 && t->dtype() != DType::Float64))
      return py::none();
    const void* p = host_readable(rt(), TensorPtr(TensorPtr{}, t));
    if (!p) return py::none();
    const double v = t->dtype() == DType::Float32 ? double(*static_cast<const float*>(p)) : *static_cast<const double*>(p);
    PyObject* f = PyFloat_FromDouble(v);
    if (!f) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), i, f);
  }
  return std::move(out);
}

}  // namespace

void bind_foreach(py::module_& m) {
  m.def("foreach_group", &foreach_group);
  m.def("foreach_binary_", &foreach_binary_);
  m.def("foreach_unary", &foreach_unary);
  m.def("foreach_pointwise_", &foreach_pointwise_);
  m.def("foreach_items", &foreach_items);
  m.def("foreach_norm2_into", &foreach_norm2_into);
}

}  // namespace ds::python
