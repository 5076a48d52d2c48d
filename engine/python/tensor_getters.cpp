// TensorImpl's metadata attributes (sizes, strides, dtype_code, device_key, ...) as plain CPython getset
// descriptors instead of pybind11 properties. The torch package reads them for nearly every op (_core.make,
// read, write, Tensor.device/.dtype, the device and dtype checks); through pybind11's dispatcher each read
// cost 0.2-0.5 us (argument loader, type lookups, holder cast), as a getset it is one C call. The values and
// their Python types are those the pybind11 properties returned.
#include "fast_entry.h"

namespace ds::python {
namespace {

PyTypeObject* g_impl_type = nullptr;

// The TensorImpl inside `self` (the descriptor has checked that self is a TensorImpl instance).
const TensorImpl* impl(PyObject* self) {
  const TensorImpl* t = tensor_impl_from_holder(self);
  if (!t) PyErr_SetString(PyExc_RuntimeError, "TensorImpl: no engine tensor behind this object");
  return t;
}

// Matches torch/_device.py and bindings_tensor.cpp: cpu -> -1, cuda:i -> i, index-less cuda -> -2, meta -> -3.
long device_key_of(const Device& d) {
  if (d.is_cpu()) return -1;
  if (d.type() == DeviceType::Meta) return -3;
  return d.has_index() ? d.index() : -2;
}

PyObject* get_sizes(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? fast_tuple_of(t->sizes()) : nullptr;
}
PyObject* get_strides(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? fast_tuple_of(t->strides()) : nullptr;
}
PyObject* get_offset(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromLongLong(t->offset()) : nullptr;
}
PyObject* get_dtype_code(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromLong(long(t->dtype())) : nullptr;
}
PyObject* get_device_key(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromLong(device_key_of(t->device())) : nullptr;
}
PyObject* get_numel(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromLongLong(t->numel()) : nullptr;
}
PyObject* get_dim(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromLong(t->dim()) : nullptr;
}
PyObject* get_nbytes(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromSize_t(t->nbytes()) : nullptr;
}
PyObject* get_is_contiguous(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyBool_FromLong(t->is_contiguous()) : nullptr;
}
PyObject* get_is_virtual(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyBool_FromLong(t->is_virtual()) : nullptr;
}
PyObject* get_is_pinned(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyBool_FromLong(t->is_pinned()) : nullptr;
}
PyObject* get_version(PyObject* self, void*) {
  const TensorImpl* t = impl(self);
  return t ? PyLong_FromUnsignedLongLong(t->version()) : nullptr;
}

PyGetSetDef g_getters[] = {
    {"sizes", get_sizes, nullptr, nullptr, nullptr},
    {"strides", get_strides, nullptr, nullptr, nullptr},
    {"offset", get_offset, nullptr, nullptr, nullptr},
    {"dtype_code", get_dtype_code, nullptr, nullptr, nullptr},
    {"device_key", get_device_key, nullptr, nullptr, nullptr},
    {"numel", get_numel, nullptr, nullptr, nullptr},
    {"dim", get_dim, nullptr, nullptr, nullptr},
    {"nbytes", get_nbytes, nullptr, nullptr, nullptr},
    {"is_contiguous", get_is_contiguous, nullptr, nullptr, nullptr},
    {"is_virtual", get_is_virtual, nullptr, nullptr, nullptr},
    {"is_pinned", get_is_pinned, nullptr, nullptr, nullptr},
    {"version", get_version, nullptr, nullptr, nullptr},
};

}  // namespace

TensorImpl* tensor_impl_from_holder(PyObject* obj) {
  // Exact type: nothing derives from TensorImpl in Python. One C++ type per instance, so pybind11's simple
  // layout applies and the first value is the TensorImpl (get_value_and_holder's fast case).
  if (!g_impl_type || Py_TYPE(obj) != g_impl_type) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(obj);
  py::detail::value_and_holder vh = inst->get_value_and_holder(nullptr, false);
  if (!vh.inst || !vh.holder_constructed()) return nullptr;
  return static_cast<TensorImpl*>(vh.value_ptr());
}

void install_tensor_getters(py::handle impl_type) {
  g_impl_type = reinterpret_cast<PyTypeObject*>(impl_type.ptr());
  for (PyGetSetDef& def : g_getters) {
    PyObject* descr = PyDescr_NewGetSet(g_impl_type, &def);
    if (!descr) throw py::error_already_set();
    const int rc = PyObject_SetAttrString(impl_type.ptr(), def.name, descr);  // replaces the pybind11 property
    Py_DECREF(descr);
    if (rc < 0) throw py::error_already_set();
  }
}

}  // namespace ds::python
