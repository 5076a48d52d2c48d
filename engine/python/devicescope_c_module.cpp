// The `_devicescope_C` embedded module's entry point (PYBIND11_EMBEDDED_MODULE): exception translation
// (ds::Error kinds -> Python exceptions), type registration for the torch package, and the runtime
// pointer the session binds. The bindings themselves are the bindings_*.cpp files.
#include <pybind11/embed.h>

#include "bindings_common.h"
#include "core/errors.h"

namespace ds::python {

void bind_rnn(py::module_& m);  // bindings_rnn.cpp
void bind_rnn_graph(py::module_& m);  // bindings_rnn_graph.cpp
void bind_rnn_backward(py::module_& m);  // bindings_rnn_backward.cpp
void bind_foreach(py::module_& m);  // the optimizers' torch._foreach_* ops (bindings_foreach.cpp)
void bind_transformer(py::module_& m);  // softmax and dropout kernels (bindings_transformer.cpp)
void bind_sampling(py::module_& m);  // torch.randn's float32 Box-Muller (bindings_sampling.cpp)
void bind_scatter_rows(py::module_& m);  // embedding/index_add backward's row accumulation (bindings_scatter_rows.cpp)

namespace {

std::shared_ptr<Runtime>& runtime_slot() {
  static std::shared_ptr<Runtime> runtime;
  return runtime;
}

// torch.cuda.OutOfMemoryError: a RuntimeError subclass, named as PyTorch 2.x prints it.
PyObject* g_oom_error = nullptr;

PyObject* exception_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::RuntimeError: return PyExc_RuntimeError;
    case ErrorKind::TypeError: return PyExc_TypeError;
    case ErrorKind::ValueError: return PyExc_ValueError;
    case ErrorKind::KeyError: return PyExc_KeyError;
    case ErrorKind::IndexError: return PyExc_IndexError;
    case ErrorKind::AttributeError: return PyExc_AttributeError;
    case ErrorKind::AssertionError: return PyExc_AssertionError;
    case ErrorKind::NotImplementedError: return PyExc_NotImplementedError;
    case ErrorKind::OutOfMemoryError: return g_oom_error ? g_oom_error : PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

}  // namespace

void set_bound_runtime(std::shared_ptr<Runtime> runtime) { runtime_slot() = std::move(runtime); }
std::shared_ptr<Runtime> bound_runtime_ptr() { return runtime_slot(); }

void set_python_error(const Error& e) { PyErr_SetString(exception_for(e.kind()), e.what()); }

Runtime& rt() {
  Runtime* r = runtime_slot().get();
  if (!r) throw Error(ErrorKind::RuntimeError, "DeviceScope: no runtime is bound to this interpreter");
  return *r;
}

PyTypes& py_types() {
  // Leaked on purpose: its Python references must not be released after the interpreter finalizes;
  // the session clears it (under the GIL) before finalizing.
  static PyTypes* types = new PyTypes();
  return *types;
}

}  // namespace ds::python

PYBIND11_EMBEDDED_MODULE(_devicescope_C, m) {
  using namespace ds::python;
  m.doc() = "DeviceScope engine bindings (used by the torch-compatible package)";

  ds::python::g_oom_error = PyErr_NewException("torch.cuda.OutOfMemoryError", PyExc_RuntimeError, nullptr);
  m.attr("OutOfMemoryError") = py::handle(ds::python::g_oom_error);

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ds::Error& e) {
      ds::python::set_python_error(e);
    }
  });

  m.def("_register_types", [](py::object dtype_cls, py::object device_cls, py::object tensor_cls,
                              py::list dtypes) {
    PyTypes& t = py_types();
    t.dtype_cls = dtype_cls;
    t.device_cls = device_cls;
    t.tensor_cls = tensor_cls;
    t.dtypes.clear();
    for (auto d : dtypes) t.dtypes.push_back(py::reinterpret_borrow<py::object>(d));
    t.ready = true;
  });

  bind_runtime(m);
  bind_tensor(m);
  bind_tensor_values(m);
  bind_cuda(m);
  bind_ops(m);
  bind_nn(m);
  bind_rnn(m);  // one step of the recurrent cells (bindings_rnn.cpp)
  bind_rnn_graph(m);  // ... with its autograd nodes (bindings_rnn_graph.cpp)
  bind_rnn_backward(m);  // ... and their backward functions (bindings_rnn_backward.cpp)
  bind_foreach(m);
  bind_transformer(m);
  bind_sampling(m);
  bind_scatter_rows(m);
  bind_estimate(m);
  bind_autograd(m);
}
