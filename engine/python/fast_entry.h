// Shared pieces of the raw CPython fast entries that stand in front of an op's Python implementation
// (bindings_views.cpp: the view ops; bindings_join.cpp: cat and stack): reading a torch.Tensor's engine
// tensor and plain int arguments, PyTorch's dim wrapping, the autograd test of torch/_ops/_core.py needs_grad,
// making the result Tensor, and the callable that runs the fast path or falls back to Python.
#pragma once

#include <Python.h>

#include "bindings_common.h"

namespace ds::python {

// Set once by _fast_entries_setup (torch/_fast_ops.py); the interpreter keeps these objects alive.
struct FastEntryState {
  PyTypeObject* tensor_type = nullptr;
  PyObject* grad_enabled = nullptr;  // torch.autograd.grad_mode._enabled: a one-element list
  PyObject* empty_tuple = nullptr;
  PyObject* s_impl = nullptr;
  PyObject* s_base = nullptr;
  PyObject* s_grad_fn = nullptr;
  PyObject* s_requires_grad = nullptr;
};
FastEntryState& fast_state();

// The TensorImpl of a torch.Tensor (or subclass), or null (not an engine tensor: Python reports it).
TensorImpl* fast_impl_of(PyObject* obj);
// The TensorImpl a `_devicescope_C.TensorImpl` object holds, read from pybind11's instance without its type
// lookups; null for any other object (callers then try pybind11's cast). tensor_getters.cpp.
TensorImpl* tensor_impl_from_holder(PyObject* obj);
// Replaces TensorImpl's metadata properties (sizes, dtype_code, device_key, ...) by CPython getset
// descriptors (tensor_getters.cpp); called once by bind_tensor.
void install_tensor_getters(py::handle impl_type);
// _devicescope_C.fast_make / fast_empty, the one-call forms of _core.make and new_empty (fast_make.cpp);
// registered by bind_fast_entries.
void bind_fast_make(py::module_& m);
// An exact Python int (bool, numpy ints and tensors take the Python path, which converts them).
bool fast_plain_int(PyObject* obj, int64_t& out);
// torch/_ops/_core.py wrap_dim without its errors: false when dim is out of range.
bool fast_wrap_dim(int64_t dim, int64_t ndim, int64_t& out);
// _core.needs_grad(x): grad mode on and x has history or requires grad; -1 on an error reading them.
int fast_needs_grad(PyObject* x);
// A new torch.Tensor (the exact class, as _core.wrap makes) around impl; null with a Python error.
PyObject* fast_wrap(TensorPtr impl);
PyObject* fast_tuple_of(const Shape& s);

// What an entry runs: `attempt` (the fast path; its spec derives from this head) and else `fallback` (the
// Python implementation, owned) with the same arguments. attempt returns a new reference, or null: with a
// Python error set the call raises it, without one the fallback takes the call.
struct FastSpecHead;
using FastAttempt = PyObject* (*)(const FastSpecHead& spec, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames);
struct FastSpecHead {
  PyObject* fallback = nullptr;
  FastAttempt attempt = nullptr;
};
// The callable for spec (a method descriptor when as_method: it binds `self` like a Python function). spec
// must live as long as the interpreter.
py::object fast_make_entry(FastSpecHead* spec, bool as_method);

}  // namespace ds::python
