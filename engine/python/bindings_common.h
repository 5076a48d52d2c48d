// Shared pieces of the `_devicescope_C` bindings: the runtime the module talks to, the Python classes
// the torch package registers (dtype, device, Tensor), and conversions between them and the engine.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "core/errors.h"
#include "runtime/runtime.h"
#include "tensor/tensor.h"

namespace ds::python {

namespace py = pybind11;

// Note [One runtime per interpreter]: CPython allows one embedded interpreter per process here, and the
// binding module is part of it, so the module keeps a pointer to the runtime its PythonSession owns.
// The engine itself has no singleton; the session swaps this pointer on reset (a new ds::Runtime).
void set_bound_runtime(std::shared_ptr<Runtime> runtime);
std::shared_ptr<Runtime> bound_runtime_ptr();
Runtime& rt();  // raises RuntimeError when no session has bound a runtime

// Python classes the torch package registers at import (`_C._register_types`), so C++ can recognise
// and build torch.dtype / torch.device / torch.Tensor objects without importing torch.
struct __attribute__((visibility("hidden"))) PyTypes {  // hidden like pybind11 itself
  py::object dtype_cls;
  py::object device_cls;
  py::object tensor_cls;
  std::vector<py::object> dtypes;  // indexed by int(ds::DType)
  bool ready = false;
};
PyTypes& py_types();

// torch.dtype object <-> ds::DType. `dtype_from_py` returns false when obj is not a torch.dtype.
bool dtype_from_py(py::handle obj, DType& out);
py::object dtype_to_py(DType t);

// Device arguments as PyTorch's arg parser accepts them: torch.device, str ("cuda:1"), int (cuda ordinal).
// Returns false when obj is none of those.
bool device_from_py(py::handle obj, Device& out);

// The TensorImpl inside a torch.Tensor (its `_impl`), or null when obj is not a Tensor.
TensorPtr impl_of(py::handle obj);
bool is_tensor(py::handle obj);

// Python type name as PyTorch's argument errors print it ("str", "int", "torch.device", "Tensor").
std::string arg_type_name(py::handle obj);

// devicescope.names' graph (Note [Object graph contract]) as the engine's ObjectGraph.
ObjectGraph object_graph_from_py(py::handle graph);

void bind_runtime(py::module_& m);
void bind_tensor(py::module_& m);
void bind_tensor_values(py::module_& m);
void bind_cuda(py::module_& m);
void bind_ops(py::module_& m);  // the elementwise fast path (bindings_ops.cpp)
void bind_nn(py::module_& m);   // convolution, pooling and normalization kernels (bindings_nn.cpp)
void bind_estimate(py::module_& m);  // what `devicescope estimate` reads of the event log (bindings_estimate.cpp)
void bind_autograd(py::module_& m);  // the backward engine's loop (bindings_autograd.cpp)

// Blocking copy between host memory and real device memory that is not a user transfer (values an op
// reads or writes on the host), so it is not recorded (bindings_values.cpp).
void raw_device_copy(void* dst, Place dst_place, const void* src, Place src_place, size_t bytes, int device);

// Sets the Python exception a ds::Error maps to (what the module's exception translator does), for raw
// CPython entry points that pybind11 does not wrap.
void set_python_error(const Error& e);

}  // namespace ds::python
