// Raw CPython forms of torch/_ops/_core.py's make and new_empty, the two ways nearly every op makes its result:
//   _devicescope_C.fast_make(values, dtype_code, device) -> Tensor or None
//   _devicescope_C.fast_empty(sizes, dtype_code, device) -> Tensor or None
// Each is one C call where the Python path made three pybind11 calls (empty, write_contiguous, the Tensor's
// wrap) at about 1 us apiece. They take only the plain case and answer None, before allocating anything, for
// every other one; the Python functions then run their own path unchanged, which stays the reference for the
// layout, the casts and the errors. The allocation is the very ds::empty call _devicescope_C.empty makes (same
// size, dtype, device, storage role; virtual inside devicescope.virtual_mode()), the bytes the memcpy
// write_contiguous does. fast_embed_grad is the same for the gradient of a select or slice view (zeros with the
// gradient written into the viewed region), the backward of SelectBackward0 / SliceBackward0 outside create_graph;
// fast_expand_grad of sum's and mean's (the gradient broadcast back), fast_cat_grad of cat's (the slices copied),
// fast_unbind_grad of unbind's (the pieces' gradients written into zeros); fast_sum_keepdim reduces a broadcast
// operand's gradient back to its shape (numpy's order).
#include <pybind11/numpy.h>

#include <cstring>
#include <iterator>
#include <vector>

#include "copy_origin.h"
#include "core/errors.h"
#include "fast_entry.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

constexpr long kBFloat16 = long(DType::BFloat16);

// numpy's dtype for the bytes of each engine dtype (bindings_values.cpp numpy_dtype), made once.
PyObject* numpy_dtype_of(long code) {
  static PyObject* cache[std::size(kAllDTypes)] = {};
  PyObject*& d = cache[code];
  if (!d) {
    py::dtype dt;
    switch (DType(code)) {
      case DType::Float32: dt = py::dtype::of<float>(); break;
      case DType::Float64: dt = py::dtype::of<double>(); break;
      case DType::Float16: dt = py::dtype("float16"); break;
      case DType::BFloat16: dt = py::dtype::of<uint16_t>(); break;
      case DType::Int64: dt = py::dtype::of<int64_t>(); break;
      case DType::Int32: dt = py::dtype::of<int32_t>(); break;
      case DType::Int16: dt = py::dtype::of<int16_t>(); break;
      case DType::Int8: dt = py::dtype::of<int8_t>(); break;
      case DType::UInt8: dt = py::dtype::of<uint8_t>(); break;
      case DType::Bool: dt = py::dtype("bool"); break;
    }
    d = dt.release().ptr();  // kept for the interpreter's life
  }
  return d;
}

// A dtype code the engine stores (complex codes and junk answer false: Python reports them).
bool dtype_code_of(PyObject* obj, long& code) {
  if (!PyLong_CheckExact(obj)) return false;
  code = PyLong_AsLong(obj);
  if (code == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return code >= 0 && code < long(std::size(kAllDTypes));
}

// None -> the CPU (as _devicescope_C.empty reads it); a torch.device -> its device; anything else false.
bool device_arg(PyObject* obj, Device& out) {
  out = Device(DeviceType::CPU);
  if (obj == Py_None) return true;
  const PyTypes& t = py_types();
  if (!t.ready || Py_TYPE(obj) != reinterpret_cast<PyTypeObject*>(t.device_cls.ptr())) return false;
  return device_from_py(py::handle(obj), out);
}

PyObject* none() { Py_RETURN_NONE; }

template <typename F>
PyObject* guarded(F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    set_python_error(e);  // e.g. torch.cuda.OutOfMemoryError from the allocator, as _devicescope_C.empty raises it
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// fast_make(values, dtype_code, device): make()'s case of a non-empty C-contiguous ndarray (exactly
// numpy.ndarray) whose dtype equals dtype's storage dtype, bfloat16 aside.
PyObject* fast_make(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError, "fast_make(values, dtype_code, device)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type) return none();
    const auto& api = py::detail::npy_api::get();
    PyObject* values = args[0];
    if (Py_TYPE(values) != api.PyArray_Type_) return none();
    long code = 0;
    if (!dtype_code_of(args[1], code) || code == kBFloat16) return none();
    Device device;
    if (!device_arg(args[2], device)) return none();
    auto* proxy = py::detail::array_proxy(values);
    if (!(proxy->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_)) return none();
    if (!api.PyArray_EquivTypes_(proxy->descr, numpy_dtype_of(code))) return none();
    Shape sizes(size_t(proxy->nd));
    int64_t numel = 1;
    for (int i = 0; i < proxy->nd; ++i) numel *= (sizes[size_t(i)] = int64_t(proxy->dimensions[i]));
    if (numel == 0) return none();
    TensorPtr t = ds::empty(rt(), sizes, DType(code), device, false, false, current_storage_role());
    if (!t->is_virtual()) {  // (inside devicescope.virtual_mode() the allocation holds no bytes to write)
      const size_t bytes = t->nbytes();
      if (void* d = host_writable(rt(), t)) {
        std::memcpy(d, proxy->data, bytes);
      } else {
        const Place place = t->storage()->place();
        raw_device_copy(t->data_ptr(), place, proxy->data, Place::pageable(), bytes, place.device);
      }
    }
    return fast_wrap(std::move(t));
  });
}

// fast_empty(sizes, dtype_code, device): new_empty()'s case of a tuple of plain non-negative ints whose byte
// size fits int64 (check_storage_size's overflow error and the engine's negative-size one stay Python's),
// neither pinned nor virtual.
PyObject* fast_empty(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError, "fast_empty(sizes, dtype_code, device)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type || !PyTuple_CheckExact(args[0])) return none();
    long code = 0;
    if (!dtype_code_of(args[1], code)) return none();
    Device device;
    if (!device_arg(args[2], device)) return none();
    const Py_ssize_t n = PyTuple_GET_SIZE(args[0]);
    Shape sizes(static_cast<size_t>(n));
    __int128 nbytes = itemsize(DType(code));
    for (Py_ssize_t i = 0; i < n; ++i) {
      int64_t s = 0;
      if (!fast_plain_int(PyTuple_GET_ITEM(args[0], i), s) || s < 0) return none();
      sizes[size_t(i)] = s;
      nbytes *= s;
      if (nbytes > __int128(INT64_MAX)) return none();
    }
    return fast_wrap(ds::empty(rt(), sizes, DType(code), device, false, false, current_storage_role()));
  });
}

// The region `index` (a tuple of slices, the last of which may be an int: shape.py's select / slice index) selects
// from a contiguous tensor of `sizes`: its offset, sizes and strides in elements. False for any other index.
bool index_region(PyObject* index, const Shape& sizes, int64_t& offset, Shape& rsizes, Shape& rstrides) {
  if (!PyTuple_CheckExact(index) || PyTuple_GET_SIZE(index) > Py_ssize_t(sizes.size())) return false;
  Shape strides(sizes.size());
  int64_t st = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = st;
    st *= sizes[i];
  }
  offset = 0;
  rsizes.clear();
  rstrides.clear();
  const Py_ssize_t n = PyTuple_GET_SIZE(index);
  for (size_t d = 0; d < sizes.size(); ++d) {
    PyObject* item = Py_ssize_t(d) < n ? PyTuple_GET_ITEM(index, Py_ssize_t(d)) : nullptr;
    if (!item) {  // (dims past the index: all of them)
      rsizes.push_back(sizes[d]);
      rstrides.push_back(strides[d]);
      continue;
    }
    if (PySlice_Check(item)) {
      Py_ssize_t start = 0, stop = 0, step = 1;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
        PyErr_Clear();
        return false;
      }
      const Py_ssize_t len = PySlice_AdjustIndices(Py_ssize_t(sizes[d]), &start, &stop, step);
      if (step <= 0) return false;
      offset += int64_t(start) * strides[d];
      rsizes.push_back(len);
      rstrides.push_back(strides[d] * step);
      continue;
    }
    int64_t i = 0;
    if (Py_ssize_t(d) != n - 1 || !fast_plain_int(item, i) || i < 0 || i >= sizes[d]) return false;
    offset += i * strides[d];  // an int (select): the dim goes
  }
  return true;
}

// dst[i] = src[i] over `sizes`, each side through its own strides in elements (last dim innermost; a 0 stride
// repeats an element: a broadcast source).
void strided_copy(char* dst, const Shape& dst_strides, const char* src, const Shape& src_strides, const Shape& sizes,
                  size_t item) {
  const size_t nd = sizes.size();
  if (nd == 0) {
    std::memcpy(dst, src, item);
    return;
  }
  std::vector<int64_t> idx(nd, 0);
  const int64_t inner = sizes[nd - 1], sd = dst_strides[nd - 1], ss = src_strides[nd - 1];
  for (;;) {
    int64_t od = 0, os = 0;
    for (size_t d = 0; d + 1 < nd; ++d) {
      od += idx[d] * dst_strides[d];
      os += idx[d] * src_strides[d];
    }
    if (sd == 1 && ss == 1) {
      std::memcpy(dst + size_t(od) * item, src + size_t(os) * item, size_t(inner) * item);
    } else {
      for (int64_t k = 0; k < inner; ++k)
        std::memcpy(dst + size_t(od + k * sd) * item, src + size_t(os + k * ss) * item, item);
    }
    size_t d = nd - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

Shape contiguous_of(const Shape& sizes) {
  Shape st(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    st[i] = s;
    s *= sizes[i];
  }
  return st;
}

// A float32/float64 gradient readable on the host whose results (dtype `dt`, on `device`) the kernels below make.
const void* float_grad(TensorImpl* g, DType dt, const Device& device) {
  if (!g || (dt != DType::Float32 && dt != DType::Float64) || g->dtype() != dt || g->is_virtual() ||
      !(g->device() == device) || device.type() == DeviceType::Meta || g->numel() == 0)
    return nullptr;
  return host_readable(rt(), TensorPtr(TensorPtr{}, g));
}

// sizes from a tuple of plain non-negative ints (false otherwise)
bool sizes_of(PyObject* tuple, Shape& sizes, int64_t& numel) {
  if (!PyTuple_CheckExact(tuple)) return false;
  const Py_ssize_t nd = PyTuple_GET_SIZE(tuple);
  sizes.assign(size_t(nd), 0);
  numel = 1;
  for (Py_ssize_t i = 0; i < nd; ++i) {
    int64_t v = 0;
    if (!fast_plain_int(PyTuple_GET_ITEM(tuple, i), v) || v < 0) return false;
    numel *= (sizes[size_t(i)] = v);
  }
  return true;
}

// fast_embed_grad(g, sizes, dtype_code, device, index): torch/_ops/shape.py _embed_grad's values and allocation
// (zeros of `sizes` with g written at `index`, made as _core.make makes a result: one ds::empty of the storage
// role in force) for a float32/float64 g of that dtype on that device, readable on the host, whose shape is the
// region's. None for every other case (nothing allocated): the Python path runs.
PyObject* fast_embed_grad(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "fast_embed_grad(g, sizes, dtype_code, device, index)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type || !PyTuple_CheckExact(args[1])) return none();
    TensorImpl* g = fast_impl_of(args[0]);
    long code = 0;
    if (!g || !dtype_code_of(args[2], code)) return none();
    const DType dt = DType(code);
    if ((dt != DType::Float32 && dt != DType::Float64) || g->dtype() != dt || g->is_virtual()) return none();
    Device device;
    if (!device_arg(args[3], device) || !(g->device() == device) || device.type() == DeviceType::Meta) return none();
    Shape sizes;
    int64_t numel = 0;
    if (!sizes_of(args[1], sizes, numel) || numel == 0 || g->numel() == 0) return none();
    int64_t offset = 0;
    Shape rsizes, rstrides;
    if (!index_region(args[4], sizes, offset, rsizes, rstrides) || rsizes != g->sizes()) return none();
    Runtime& r = rt();
    const void* gp = host_readable(r, TensorPtr(TensorPtr{}, g));
    if (!gp) return none();
    TensorPtr out = ds::empty(r, sizes, dt, device, false, false, current_storage_role());
    if (out->is_virtual()) return fast_wrap(std::move(out));  // (virtual_mode: no bytes; not reached off it)
    void* op = host_writable(r, out);
    if (!op) return none();  // (a simulated or host device always gives one: the check above read g there)
    const size_t item = itemsize(dt);
    std::memset(op, 0, out->nbytes());
    strided_copy(static_cast<char*>(op) + size_t(offset) * item, rstrides, static_cast<const char*>(gp), g->strides(),
                 g->sizes(), item);
    return fast_wrap(std::move(out));
  });
}

// divide(T) by an exact Python int the way numpy's `array / n` does for a float32/float64 array (n becomes the
// array's dtype, then one IEEE division per element)
template <typename T>
void divide_all(T* p, int64_t n, int64_t divisor) {
  const T d = T(divisor);
  for (int64_t i = 0; i < n; ++i) p[i] = p[i] / d;
}

// fast_expand_grad(g, shape, dims, keepdim, dtype_code, device, divisor): torch/_ops/reduction.py
// _reduction_grad's values outside create_graph (g broadcast back over the reduced dims - all of them for dims None -
// then divided by the count for mean) as one contiguous tensor of `shape`, the one allocation make() gives. None
// for any other case (nothing allocated).
PyObject* fast_expand_grad(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 7) {
    PyErr_SetString(PyExc_TypeError, "fast_expand_grad(g, shape, dims, keepdim, dtype_code, device, divisor)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type) return none();
    TensorImpl* g = fast_impl_of(args[0]);
    long code = 0;
    Device device;
    Shape sizes;
    int64_t numel = 0, divisor = 0;
    if (!g || !dtype_code_of(args[4], code) || !device_arg(args[5], device) || !sizes_of(args[1], sizes, numel) ||
        numel == 0 || (args[3] != Py_True && args[3] != Py_False) ||
        (args[6] != Py_None && (!fast_plain_int(args[6], divisor) || divisor <= 0)))
      return none();
    const DType dt = DType(code);
    const void* gp = float_grad(g, dt, device);
    if (!gp) return none();
    // g's strides over the output dims: 0 on the reduced ones (g's size-1 dims with keepdim, absent without)
    const size_t nd = sizes.size();
    Shape src(nd, 0);
    if (args[2] == Py_None) {
      if (g->numel() != 1) return none();
    } else {
      if (!PyTuple_CheckExact(args[2])) return none();
      std::vector<char> reduced(nd, 0);
      for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[2]); ++i) {
        int64_t d = 0;
        if (!fast_plain_int(PyTuple_GET_ITEM(args[2], i), d) || d < 0 || d >= int64_t(nd) || reduced[size_t(d)])
          return none();
        reduced[size_t(d)] = 1;
      }
      const bool keepdim = args[3] == Py_True;
      size_t k = 0;  // g's dim
      for (size_t d = 0; d < nd; ++d) {
        if (reduced[d] && !keepdim) continue;
        if (k >= size_t(g->dim())) return none();
        const int64_t gs = g->sizes()[k];
        if (reduced[d] ? gs != 1 : gs != sizes[d]) return none();
        src[d] = reduced[d] ? 0 : g->strides()[k];
        ++k;
      }
      if (k != size_t(g->dim())) return none();
    }
    Runtime& r = rt();
    TensorPtr out = ds::empty(r, sizes, dt, device, false, false, current_storage_role());
    if (out->is_virtual()) return fast_wrap(std::move(out));
    void* op = host_writable(r, out);
    if (!op) return none();
    strided_copy(static_cast<char*>(op), contiguous_of(sizes), static_cast<const char*>(gp), src, sizes, itemsize(dt));
    if (args[6] != Py_None) {
      if (dt == DType::Float32) divide_all(static_cast<float*>(op), numel, divisor);
      else divide_all(static_cast<double*>(op), numel, divisor);
    }
    return fast_wrap(std::move(out));
  });
}

// fast_cat_grad(g, dim, metas): torch/_ops/join.py CatBackward0's values outside create_graph, each input's slice
// of g along dim as a new contiguous tensor, made in order (metas: (size along dim, torch.dtype, device) per input,
// each of g's dtype and device; no empty slice). A list, or None for any other case (nothing allocated).
PyObject* fast_cat_grad(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError, "fast_cat_grad(g, dim, metas)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    static PyObject* s_code = PyUnicode_InternFromString("_code");
    if (!fast_state().tensor_type || !PyList_CheckExact(args[2])) return none();
    TensorImpl* g = fast_impl_of(args[0]);
    int64_t d = 0;
    if (!g || !fast_plain_int(args[1], d) || d < 0 || d >= g->dim()) return none();
    const Py_ssize_t n = PyList_GET_SIZE(args[2]);
    std::vector<int64_t> lengths(static_cast<size_t>(n));
    int64_t total = 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* m = PyList_GET_ITEM(args[2], i);
      if (!PyTuple_CheckExact(m) || PyTuple_GET_SIZE(m) != 3) return none();
      int64_t len = 0;
      long code = 0;
      Device device;
      PyObject* c = PyObject_GetAttr(PyTuple_GET_ITEM(m, 1), s_code);
      if (!c) {
        PyErr_Clear();
        return none();
      }
      const bool ok = dtype_code_of(c, code);
      Py_DECREF(c);
      if (!ok || !fast_plain_int(PyTuple_GET_ITEM(m, 0), len) || len <= 0 || DType(code) != g->dtype() ||
          !device_arg(PyTuple_GET_ITEM(m, 2), device) || !(device == g->device()))
        return none();
      lengths[size_t(i)] = len;
      total += len;
    }
    if (total != g->sizes()[size_t(d)]) return none();
    const void* gp = float_grad(g, g->dtype(), g->device());
    if (!gp) return none();
    Runtime& r = rt();
    const size_t item = itemsize(g->dtype());
    py::list outs;
    int64_t start = 0;
    for (int64_t len : lengths) {
      Shape sizes = g->sizes();
      sizes[size_t(d)] = len;
      TensorPtr out = ds::empty(r, sizes, g->dtype(), g->device(), false, false, current_storage_role());
      if (!out->is_virtual()) {
        void* op = host_writable(r, out);
        if (!op) throw std::runtime_error("fast_cat_grad: a host-readable gradient's device memory is not writable");
        strided_copy(static_cast<char*>(op), contiguous_of(sizes),
                     static_cast<const char*>(gp) + size_t(start * g->strides()[size_t(d)]) * item, g->strides(), sizes,
                     item);
      }
      PyObject* t = fast_wrap(std::move(out));
      if (!t) throw py::error_already_set();
      outs.append(py::reinterpret_steal<py::object>(t));
      start += len;
    }
    return outs.release().ptr();
  });
}

// fast_unbind_grad(gs, sizes, dim, dtype_code, device): torch/_ops/shape.py UnbindBackward0's values outside
// create_graph (zeros of `sizes` with piece i's gradient written at index i of dim, None pieces left zero), the
// one allocation make() gives, for float32/float64 gradients of that dtype on that device (at least one). None for
// any other case (nothing allocated).
PyObject* fast_unbind_grad(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "fast_unbind_grad(gs, sizes, dim, dtype_code, device)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type || !PyList_CheckExact(args[0])) return none();
    long code = 0;
    Device device;
    Shape sizes;
    int64_t numel = 0, d = 0;
    if (!dtype_code_of(args[3], code) || !device_arg(args[4], device) || !sizes_of(args[1], sizes, numel) ||
        numel == 0 || !fast_plain_int(args[2], d) || d < 0 || d >= int64_t(sizes.size()))
      return none();
    const Py_ssize_t n = PyList_GET_SIZE(args[0]);
    if (n != sizes[size_t(d)]) return none();
    Shape piece = sizes;
    piece.erase(piece.begin() + d);
    const Shape strides = contiguous_of(sizes);
    Shape piece_strides = strides;
    piece_strides.erase(piece_strides.begin() + d);
    const DType dt = DType(code);
    std::vector<std::pair<TensorImpl*, const void*>> pieces(static_cast<size_t>(n), {nullptr, nullptr});
    bool any = false;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* g = PyList_GET_ITEM(args[0], i);
      if (g == Py_None) continue;
      TensorImpl* gi = fast_impl_of(g);
      if (!gi || gi->sizes() != piece) return none();
      const void* gp = float_grad(gi, dt, device);
      if (!gp) return none();
      pieces[size_t(i)] = {gi, gp};
      any = true;
    }
    if (!any) return none();
    Runtime& r = rt();
    TensorPtr out = ds::empty(r, sizes, dt, device, false, false, current_storage_role());
    if (out->is_virtual()) return fast_wrap(std::move(out));
    void* op = host_writable(r, out);
    if (!op) return none();
    const size_t item = itemsize(dt);
    std::memset(op, 0, out->nbytes());
    for (Py_ssize_t i = 0; i < n; ++i) {
      const auto& [gi, gp] = pieces[size_t(i)];
      if (!gi) continue;
      strided_copy(static_cast<char*>(op) + size_t(i * strides[size_t(d)]) * item, piece_strides,
                   static_cast<const char*>(gp), gi->strides(), piece, item);
    }
    return fast_wrap(std::move(out));
  });
}

// np.sum(x, axis=dims, keepdims=True)'s order for a C-contiguous x whose last dim is not reduced and has two or
// more elements (numpy then runs its add loop over that last dim, out[j] = out[j] + x[..., j], the reduced indices
// visited in C order after the identity +0.0; a last dim of size 1 would make a reduced dim the inner loop, where
// numpy sums pairwise): out[o] accumulates x in memory order, in T.
template <typename T>
void sum_leading(const T* x, const Shape& sizes, const std::vector<char>& reduced, T* out, int64_t out_numel) {
  for (int64_t i = 0; i < out_numel; ++i) out[i] = T(0);
  const size_t nd = sizes.size();
  const int64_t inner = sizes[nd - 1];
  Shape out_strides(nd, 0);
  int64_t st = 1;
  for (size_t d = nd; d-- > 0;) {
    if (reduced[d]) continue;
    out_strides[d] = st;
    st *= sizes[d];
  }
  std::vector<int64_t> idx(nd, 0);
  const T* p = x;
  for (;;) {
    int64_t o = 0;
    for (size_t d = 0; d + 1 < nd; ++d) o += idx[d] * out_strides[d];
    T* q = out + o;
    for (int64_t k = 0; k < inner; ++k) q[k] = q[k] + p[k];
    p += inner;
    size_t d = nd - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

// fast_sum_keepdim(x, dims): _core.sum_to_shape's reduction.sum(x, dims, keepdim=True) outside autograd, for a
// C-contiguous float32/float64 x readable on the host, dims sorted and distinct, none of them the last dim (of 2 or
// more elements): the same values (sum_leading) and the one allocation the reduction's make() gives (x's dtype and
// device, the reduced dims kept as 1). None for any other case (nothing allocated).
PyObject* fast_sum_keepdim(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "fast_sum_keepdim(x, dims)");
    return nullptr;
  }
  return guarded([&]() -> PyObject* {
    if (!fast_state().tensor_type || !PyList_CheckExact(args[1])) return none();
    TensorImpl* x = fast_impl_of(args[0]);
    if (!x || !x->is_contiguous() || x->dim() < 2 || x->sizes().back() < 2) return none();
    const size_t nd = size_t(x->dim());
    std::vector<char> reduced(nd, 0);
    int64_t prev = -1;
    const Py_ssize_t n = PyList_GET_SIZE(args[1]);
    if (n == 0) return none();
    for (Py_ssize_t i = 0; i < n; ++i) {
      int64_t d = 0;
      if (!fast_plain_int(PyList_GET_ITEM(args[1], i), d) || d <= prev || d >= int64_t(nd) - 1) return none();
      reduced[size_t(d)] = 1;
      prev = d;
    }
    const void* xp = float_grad(x, x->dtype(), x->device());
    if (!xp) return none();
    Shape out_sizes = x->sizes();
    for (size_t d = 0; d < nd; ++d)
      if (reduced[d]) out_sizes[d] = 1;
    Runtime& r = rt();
    TensorPtr out = ds::empty(r, out_sizes, x->dtype(), x->device(), false, false, current_storage_role());
    if (out->is_virtual()) return fast_wrap(std::move(out));
    void* op = host_writable(r, out);
    if (!op) return none();
    if (x->dtype() == DType::Float32)
      sum_leading(static_cast<const float*>(xp), x->sizes(), reduced, static_cast<float*>(op), out->numel());
    else
      sum_leading(static_cast<const double*>(xp), x->sizes(), reduced, static_cast<double*>(op), out->numel());
    return fast_wrap(std::move(out));
  });
}

PyMethodDef g_defs[] = {
    {"fast_sum_keepdim", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_sum_keepdim)),
     METH_FASTCALL, "sum_to_shape's reduction in one call (torch/_ops/_core.py); None: take the Python path"},
    {"fast_unbind_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_unbind_grad)),
     METH_FASTCALL, "UnbindBackward0's float case in one call (torch/_ops/shape.py); None: take the Python path"},
    {"fast_expand_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_expand_grad)),
     METH_FASTCALL, "_reduction_grad's float case in one call (torch/_ops/reduction.py); None: take the Python path"},
    {"fast_cat_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_cat_grad)), METH_FASTCALL,
     "CatBackward0's float case in one call (torch/_ops/join.py); None: take the Python path"},
    {"fast_embed_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_embed_grad)),
     METH_FASTCALL, "_embed_grad's float case in one call (torch/_ops/shape.py); None: take the Python path"},
    {"fast_make", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_make)), METH_FASTCALL,
     "make()'s plain case in one call (torch/_ops/_core.py); None: take the Python path"},
    {"fast_empty", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_empty)), METH_FASTCALL,
     "new_empty()'s plain case in one call (torch/_ops/_core.py); None: take the Python path"},
};

}  // namespace

void bind_fast_make(py::module_& m) {
  for (PyMethodDef& def : g_defs) {
    PyObject* fn = PyCFunction_NewEx(&def, nullptr, nullptr);
    if (!fn) throw py::error_already_set();
    m.attr(def.ml_name) = py::reinterpret_steal<py::object>(fn);
  }
}

}  // namespace ds::python
