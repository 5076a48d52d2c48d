// The C++ fast path of the view ops (issue 23): `x.view(4, -1)`, `x.reshape(n, m)` (when it is a view), `x.t()`,
// `x.transpose(0, 1)`, `x.unsqueeze(0)`, `x.permute(2, 0, 1)` and their torch.* functions make the alias, wrap it
// in a torch.Tensor and set its `_base` in one C call, as torch/_ops/shape.py's _view does in five Python ones.
// While autograd records, the node comes from shape.py's own code (the hook `_fast_view_node`: the same name,
// backward and saved arguments as the Python path attaches). Anything unusual (keyword arguments, an argument
// that is not a plain int, a dim out of range, a shape that does not fit, reshape's copying case) goes to the
// op's Python implementation (the `fallback` each entry wraps), which stays the reference for semantics and
// PyTorch's error messages. DEVICESCOPE_NO_FAST_OPS=1 installs none of these (torch/_fast_ops.py).
//
// Entry points are raw CPython vectorcall functions bound as methods, like bindings_ops.cpp's: a pybind11
// dispatch costs more than the whole view.
#include <Python.h>

#include <algorithm>
#include <vector>

#include "fast_entry.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

PyObject* g_node_hook = nullptr;  // torch._ops.shape._fast_view_node(code, out, x, info)

// The op an entry runs; its value is the code _fast_view_node reads.
// Select, Narrow and GetItem (x[int], x[slice]) take the fast path only when autograd records nothing (their
// nodes stay shape.py's and subscript.py's).
enum class ViewKind { View = 0, T = 1, Transpose = 2, Unsqueeze = 3, Permute = 4, Reshape = 5, Squeeze = 6,
                      Select = 7, Narrow = 8, GetItem = 9 };

struct ViewSpec : FastSpecHead {
  ViewKind kind = ViewKind::View;
};

// The int arguments after self: `f(2, 3)` or `f((2, 3))` / `f([2, 3])` / `f(torch.Size(...))`, as shape.py's
// _sizes_arg and permute read them; false for anything else.
bool int_list(PyObject* const* args, Py_ssize_t n, Shape& out) {
  PyObject* seq = nullptr;
  if (n == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]))) {
    seq = args[0];
    n = PySequence_Fast_GET_SIZE(seq);
    args = PySequence_Fast_ITEMS(seq);
  }
  out.resize(size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!fast_plain_int(args[i], out[size_t(i)])) return false;
  return true;
}

// shape.py infer_size without its errors: -1 resolved against numel; false when the shape does not fit.
bool infer_size(Shape& shape, int64_t numel) {
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) return false;
      infer = int(i);
    } else if (shape[i] < 0 || (shape[i] > 0 && known > INT64_MAX / shape[i])) {
      return false;  // (an overflowing product cannot match numel: Python reports it with its bigints)
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0) return false;
    shape[size_t(infer)] = numel / known;
  } else if (known != numel) {
    return false;
  }
  return true;
}

// ATen's computeStride (shape.py compute_stride, line for line): strides viewing old as new, or false.
bool compute_stride(const Shape& oldshape, const Shape& oldstride, const Shape& newshape, Shape& newstride) {
  const int64_t numel = shape_numel(oldshape);
  newstride.assign(newshape.size(), 0);
  if (numel == 0) {
    if (oldshape == newshape) {
      newstride = oldstride;
      return true;
    }
    newstride.assign(newshape.size(), 1);
    for (int64_t i = int64_t(newshape.size()) - 2; i >= 0; --i)
      newstride[size_t(i)] = newstride[size_t(i) + 1] * std::max<int64_t>(newshape[size_t(i) + 1], 1);
    return true;
  }
  if (oldshape.empty()) {  // a 0-dim tensor (one element) views as any all-ones shape
    newstride.assign(newshape.size(), 1);
    return true;
  }
  int64_t view_d = int64_t(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = int64_t(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[size_t(tensor_d)];
    if (tensor_d == 0 || (oldshape[size_t(tensor_d) - 1] != 1 &&
                          oldstride[size_t(tensor_d) - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[size_t(view_d)] == 1)) {
        newstride[size_t(view_d)] = view_numel * chunk_base_stride;
        view_numel *= newshape[size_t(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[size_t(tensor_d) - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

// shape.py _view: the alias wrapped in a new torch.Tensor (the exact class, as C.wrap makes), its _base the
// base of x (or x), and under autograd the node from the hook. `make_info()` (a new reference) is what the
// hook needs; it is made only when autograd records.
template <class MakeInfo>
PyObject* make_view(PyObject* x, const TensorImpl& impl, Shape sizes, Shape strides, ViewKind kind,
                    MakeInfo make_info, int64_t offset = -1) {
  const FastEntryState& g = fast_state();
  PyObject* out = fast_wrap(impl.alias(std::move(sizes), std::move(strides), offset < 0 ? impl.offset() : offset));
  if (!out) return nullptr;
  py::object out_ref = py::reinterpret_steal<py::object>(out);
  PyObject* base = PyObject_GetAttr(x, g.s_base);
  if (!base) return nullptr;
  const int set = PyObject_SetAttr(out, g.s_base, base == Py_None ? x : base);
  Py_DECREF(base);
  if (set < 0) return nullptr;
  const int grad = fast_needs_grad(x);
  if (grad < 0) return nullptr;
  if (grad) {
    py::object info = py::reinterpret_steal<py::object>(make_info());
    if (!info) return nullptr;
    PyObject* code = PyLong_FromLong(long(kind == ViewKind::Reshape ? ViewKind::View : kind));
    if (!code) return nullptr;
    PyObject* r = PyObject_CallFunctionObjArgs(g_node_hook, code, out, x, info.ptr(), nullptr);
    Py_DECREF(code);
    if (!r) return nullptr;
    Py_DECREF(r);
  }
  return out_ref.release().ptr();
}

// The view, or nullptr with no Python error set when the Python implementation must take the call.
PyObject* try_view(const FastSpecHead& head, PyObject* const* args, Py_ssize_t n, PyObject* kwnames) {
  const ViewSpec& spec = static_cast<const ViewSpec&>(head);
  if (n < 1 || kwnames) return nullptr;
  PyObject* x = args[0];
  TensorImpl* impl = fast_impl_of(x);
  if (!impl) return nullptr;
  const Shape& sizes = impl->sizes();
  const Shape& strides = impl->strides();
  const int64_t nd = impl->dim();
  switch (spec.kind) {
    case ViewKind::View:
    case ViewKind::Reshape: {
      Shape shape, new_strides;
      if (n < 2 || !int_list(args + 1, n - 1, shape) || !infer_size(shape, impl->numel())) return nullptr;
      if (!compute_stride(sizes, strides, shape, new_strides)) return nullptr;  // view's error, reshape's copy
      return make_view(x, *impl, std::move(shape), std::move(new_strides), spec.kind,
                       [impl] { return fast_tuple_of(impl->sizes()); });
    }
    case ViewKind::T: {
      if (n != 1 || nd > 2) return nullptr;
      Shape sz = sizes, st = strides;
      std::reverse(sz.begin(), sz.end());
      std::reverse(st.begin(), st.end());
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind,
                       [nd] { return PyLong_FromLongLong(nd); });
    }
    case ViewKind::Transpose: {
      int64_t d0 = 0, d1 = 0, a = 0, b = 0;
      if (n != 3 || !fast_plain_int(args[1], d0) || !fast_plain_int(args[2], d1)) return nullptr;
      if (!fast_wrap_dim(d0, nd, a) || !fast_wrap_dim(d1, nd, b)) return nullptr;
      Shape sz = sizes, st = strides;
      if (nd > 0) {
        std::swap(sz[size_t(a)], sz[size_t(b)]);
        std::swap(st[size_t(a)], st[size_t(b)]);
      }
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind, [=] {
        return Py_BuildValue("(OOLLL)", args[1], args[2], (long long)a, (long long)b, (long long)nd);
      });
    }
    case ViewKind::Unsqueeze: {
      int64_t dim = 0, d = 0;
      if (n != 2 || !fast_plain_int(args[1], dim) || !fast_wrap_dim(dim, nd + 1, d)) return nullptr;
      Shape sz = sizes, st = strides;
      const int64_t new_stride = d < nd ? sz[size_t(d)] * st[size_t(d)] : 1;
      sz.insert(sz.begin() + d, 1);
      st.insert(st.begin() + d, new_stride);
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind,
                       [=] { return Py_BuildValue("(OL)", args[1], (long long)d); });
    }
    case ViewKind::Squeeze: {
      // squeeze() / squeeze(None) drop every size-1 dim, squeeze(dim) that one if its size is 1
      const bool all = n == 1 || (n == 2 && args[1] == Py_None);
      int64_t dim = 0, d = -1;
      if (!all && (n != 2 || !fast_plain_int(args[1], dim) || !fast_wrap_dim(dim, nd, d))) return nullptr;
      Shape sz, st;
      for (int64_t i = 0; i < nd; ++i) {
        if (sizes[size_t(i)] == 1 && (all || i == d)) continue;
        sz.push_back(sizes[size_t(i)]);
        st.push_back(strides[size_t(i)]);
      }
      PyObject* dim_arg = all ? Py_None : args[1];
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind, [impl, dim_arg] {
        PyObject* old = fast_tuple_of(impl->sizes());
        return old ? Py_BuildValue("(NO)", old, dim_arg) : nullptr;
      });
    }
    case ViewKind::Permute: {
      Shape dims;
      if (n < 2 || !int_list(args + 1, n - 1, dims) || int64_t(dims.size()) != nd) return nullptr;
      std::vector<bool> seen(static_cast<size_t>(nd), false);
      Shape sz(static_cast<size_t>(nd)), st(static_cast<size_t>(nd));
      for (size_t i = 0; i < dims.size(); ++i) {
        int64_t d = 0;
        if (!fast_wrap_dim(dims[i], nd, d) || seen[size_t(d)]) return nullptr;
        seen[size_t(d)] = true;
        dims[i] = d;
        sz[i] = sizes[size_t(d)];
        st[i] = strides[size_t(d)];
      }
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind,
                       [&dims] { return fast_tuple_of(dims); });
    }
    case ViewKind::Select:
    case ViewKind::Narrow: {
      // shape.py select(x, dim, index) / narrow(x, dim, start, length) -> slice_dim, for plain ints in range
      // (every error, a tensor start and autograd go to Python)
      int64_t dim = 0, d = 0, a = 0, len = 0;
      const bool select = spec.kind == ViewKind::Select;
      if (n != (select ? 3 : 4) || nd == 0 || !fast_plain_int(args[1], dim) || !fast_wrap_dim(dim, nd, d) ||
          !fast_plain_int(args[2], a) || (!select && !fast_plain_int(args[3], len)))
        return nullptr;
      const int grad = fast_needs_grad(x);
      if (grad != 0) {
        if (grad < 0) PyErr_Clear();
        return nullptr;
      }
      const int64_t size = sizes[size_t(d)];
      Shape sz = sizes, st = strides;
      if (select) {
        if (a < -size || a >= size) return nullptr;
        if (a < 0) a += size;
        sz.erase(sz.begin() + d);
        st.erase(st.begin() + d);
      } else {
        if (a != size && !fast_wrap_dim(a, size, a)) return nullptr;  // (start == size: an empty narrow)
        if (len < 0 || a > size - len) return nullptr;
        sz[size_t(d)] = len;
      }
      const int64_t offset = impl->offset() + a * strides[size_t(d)];
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind, [] { return Py_NewRef(Py_None); },
                       offset);
    }
    case ViewKind::GetItem: {
      // subscript.py getitem for one plain int (_select of dim 0) or one slice with a positive step (_slice of
      // dim 0, optimize=False) of a tensor with dims; errors, every other index and autograd go to Python
      if (n != 2 || nd == 0) return nullptr;
      PyObject* index = args[1];
      const bool is_slice = PySlice_Check(index);
      int64_t i = 0;
      if (!is_slice && !fast_plain_int(index, i)) return nullptr;
      const int grad = fast_needs_grad(x);
      if (grad != 0) {
        if (grad < 0) PyErr_Clear();
        return nullptr;
      }
      const int64_t size = sizes[0];
      Shape sz = sizes, st = strides;
      int64_t offset = impl->offset();
      if (is_slice) {
        Py_ssize_t start = 0, stop = 0, step = 0;
        if (PySlice_Unpack(index, &start, &stop, &step) < 0) {  // (a non-index bound: Python's TypeError)
          PyErr_Clear();
          return nullptr;
        }
        if (step <= 0) return nullptr;
        const Py_ssize_t len = PySlice_AdjustIndices(Py_ssize_t(size), &start, &stop, step);
        sz[0] = len;
        st[0] = strides[0] * step;
        offset += start * strides[0];  // (even for an empty slice, as ATen's slice does)
      } else {
        if (!(size >= -i && size > i)) return nullptr;
        offset += (i < 0 ? i + size : i) * strides[0];
        sz.erase(sz.begin());
        st.erase(st.begin());
      }
      return make_view(x, *impl, std::move(sz), std::move(st), spec.kind, [] { return Py_NewRef(Py_None); },
                       offset);
    }
  }
  return nullptr;
}

}  // namespace

void bind_views(py::module_& m) {
  m.def("_fast_views_setup", [](py::object node_hook) { g_node_hook = node_hook.release().ptr(); });
  // torch/_ops/shape.py unbind's pieces along dim d (already wrapped: 0 <= d < dim): the engine views, one call
  // instead of an as_strided call per piece (an RNN layer unbinds its input gates on every forward)
  m.def("unbind_views", [](const TensorPtr& t, int64_t d) {
    if (!t || d < 0 || d >= t->dim()) raise(ErrorKind::IndexError, "unbind_views: dim out of range");
    Shape sz, st;
    for (int64_t k = 0; k < t->dim(); ++k) {
      if (k == d) continue;
      sz.push_back(t->sizes()[size_t(k)]);
      st.push_back(t->strides()[size_t(k)]);
    }
    const int64_t n = t->sizes()[size_t(d)], step = t->strides()[size_t(d)];
    py::tuple out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out[size_t(i)] = py::cast(ds::as_strided(t, sz, st, t->offset() + i * step));
    return out;
  });
  // kind: "view" | "reshape" | "t" | "transpose" | "unsqueeze" | "permute" | "squeeze" | "select" | "narrow" |
  // "getitem" (Tensor.__getitem__ only); fallback:
  // the Python implementation
  // with the same signature. as_method=True returns a descriptor for Tensor (binds self), False a callable.
  m.def("fast_view", [](const std::string& kind, py::object fallback, bool as_method) {
    ViewKind k = ViewKind::View;
    if (kind == "view") k = ViewKind::View;
    else if (kind == "reshape") k = ViewKind::Reshape;
    else if (kind == "t") k = ViewKind::T;
    else if (kind == "transpose") k = ViewKind::Transpose;
    else if (kind == "unsqueeze") k = ViewKind::Unsqueeze;
    else if (kind == "permute") k = ViewKind::Permute;
    else if (kind == "squeeze") k = ViewKind::Squeeze;
    else if (kind == "select") k = ViewKind::Select;
    else if (kind == "narrow") k = ViewKind::Narrow;
    else if (kind == "getitem") k = ViewKind::GetItem;
    else raise(ErrorKind::ValueError, "fast_view: unknown op " + kind);
    auto* s = new ViewSpec;  // lives as long as the interpreter
    s->attempt = try_view;
    s->kind = k;
    s->fallback = fallback.release().ptr();
    return fast_make_entry(s, as_method);
  }, py::arg("kind"), py::arg("fallback"), py::arg("as_method") = true);
}

}  // namespace ds::python
