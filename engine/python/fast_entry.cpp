// fast_entry.h: the pieces the raw CPython fast entries share.
#include "fast_entry.h"

#include <algorithm>

namespace ds::python {

FastEntryState& fast_state() {
  static FastEntryState s;
  return s;
}

TensorImpl* fast_impl_of(PyObject* obj) {
  const FastEntryState& g = fast_state();
  if (!PyObject_TypeCheck(obj, g.tensor_type)) return nullptr;
  PyObject* impl = PyObject_GetAttr(obj, g.s_impl);
  if (!impl) {
    PyErr_Clear();
    return nullptr;
  }
  TensorImpl* out = tensor_impl_from_holder(impl);  // the Tensor object keeps the impl alive
  if (out) {
    Py_DECREF(impl);
    return out;
  }
  try {
    out = py::handle(impl).cast<TensorImpl*>();  // the Tensor object keeps the impl alive
  } catch (const py::cast_error&) {
    out = nullptr;
  }
  Py_DECREF(impl);
  return out;
}

bool fast_plain_int(PyObject* obj, int64_t& out) {
  if (!PyLong_CheckExact(obj)) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow || (out == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  return true;
}

bool fast_wrap_dim(int64_t dim, int64_t ndim, int64_t& out) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n) return false;
  out = dim < 0 ? dim + n : dim;
  return true;
}

int fast_needs_grad(PyObject* x) {
  const FastEntryState& g = fast_state();
  const int enabled = PyObject_IsTrue(PyList_GET_ITEM(g.grad_enabled, 0));
  if (enabled <= 0) return enabled;
  PyObject* fn = PyObject_GetAttr(x, g.s_grad_fn);
  if (!fn) return -1;
  const bool has_fn = fn != Py_None;
  Py_DECREF(fn);
  if (has_fn) return 1;
  PyObject* rg = PyObject_GetAttr(x, g.s_requires_grad);
  if (!rg) return -1;
  const int r = PyObject_IsTrue(rg);
  Py_DECREF(rg);
  return r;
}

PyObject* fast_wrap(TensorPtr impl) {
  const FastEntryState& g = fast_state();
  py::object holder = py::cast(std::move(impl));
  PyObject* out = PyBaseObject_Type.tp_new(g.tensor_type, g.empty_tuple, nullptr);
  if (!out) return nullptr;
  if (PyObject_SetAttr(out, g.s_impl, holder.ptr()) < 0) {
    Py_DECREF(out);
    return nullptr;
  }
  return out;
}

PyObject* fast_tuple_of(const Shape& s) {
  PyObject* t = PyTuple_New(Py_ssize_t(s.size()));
  if (!t) return nullptr;
  for (size_t i = 0; i < s.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(s[i]);
    if (!v) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, Py_ssize_t(i), v);
  }
  return t;
}

namespace {

PyObject* entry_call(PyObject* capsule, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const auto* spec = static_cast<const FastSpecHead*>(PyCapsule_GetPointer(capsule, nullptr));
  const Py_ssize_t n = PyVectorcall_NARGS(nargs);
  if (fast_state().tensor_type) {
    try {
      PyObject* out = spec->attempt(*spec, args, n, kwnames);
      if (out) return out;
      if (PyErr_Occurred()) return nullptr;
    } catch (const Error& e) {
      set_python_error(e);  // e.g. torch.cuda.OutOfMemoryError from the allocator
      return nullptr;
    } catch (py::error_already_set& e) {
      e.restore();
      return nullptr;
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
      return nullptr;
    }
  }
  return PyObject_Vectorcall(spec->fallback, args, n, kwnames);
}

PyMethodDef g_entry_def = {"fast_entry",
                           reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(entry_call)),
                           METH_FASTCALL | METH_KEYWORDS, "DeviceScope fast path (falls back to Python)"};

PyObject* intern(const char* s) { return PyUnicode_InternFromString(s); }

}  // namespace

py::object fast_make_entry(FastSpecHead* spec, bool as_method) {
  PyObject* capsule = PyCapsule_New(spec, nullptr, nullptr);
  if (!capsule) throw py::error_already_set();
  PyObject* fn = PyCFunction_NewEx(&g_entry_def, capsule, nullptr);
  Py_DECREF(capsule);
  if (!fn) throw py::error_already_set();
  if (!as_method) return py::reinterpret_steal<py::object>(fn);
  PyObject* method = PyInstanceMethod_New(fn);
  Py_DECREF(fn);
  if (!method) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(method);
}

void bind_fast_entries(py::module_& m) {
  bind_fast_make(m);
  m.def("_fast_entries_setup", [](py::object tensor_cls, py::list grad_enabled) {
    FastEntryState& g = fast_state();
    g.tensor_type = reinterpret_cast<PyTypeObject*>(tensor_cls.release().ptr());
    g.grad_enabled = grad_enabled.release().ptr();
    g.empty_tuple = PyTuple_New(0);
    g.s_impl = intern("_impl");
    g.s_base = intern("_base");
    g.s_grad_fn = intern("_grad_fn");
    g.s_requires_grad = intern("_requires_grad");
  });
}

}  // namespace ds::python
