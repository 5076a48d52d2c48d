#include "copy_origin.h"

namespace ds::python {
namespace {

// Held for the process's life (one interpreter per process, Note [One runtime per interpreter]): never
// released, so a re-import that registers new variables cannot free ones a running call still reads.
PyObject* g_owner_var = nullptr;
PyObject* g_role_var = nullptr;

// The variable's value in the current context (a new reference), or null when it is unset or unregistered.
py::object value_of(PyObject* var) {
  if (!var) return py::object();
  PyObject* value = nullptr;
  if (PyContextVar_Get(var, nullptr, &value) < 0) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(value);
}

}  // namespace

void register_copy_origin(py::handle owner_var, py::handle role_var) {
  g_owner_var = py::reinterpret_borrow<py::object>(owner_var).release().ptr();
  g_role_var = py::reinterpret_borrow<py::object>(role_var).release().ptr();
}

Role current_storage_role() {
  py::object role = value_of(g_role_var);
  return role ? Role(role.cast<int>()) : Role::Tensor;
}

void set_current_copy_owner(const std::string& owner) {
  if (!g_owner_var) return;
  py::str value(owner);
  PyObject* token = PyContextVar_Set(g_owner_var, value.ptr());
  if (!token) throw py::error_already_set();
  Py_DECREF(token);
}

CopyOrigin current_copy_origin() {
  CopyOrigin origin;
  if (py::object owner = value_of(g_owner_var)) origin.owner = owner.cast<std::string>();
  origin.role = current_storage_role();
  return origin;
}

}  // namespace ds::python
