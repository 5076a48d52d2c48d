// The one parser of `to(...)` arguments, shared by Tensor.to and (through torch._C._nn._parse_to)
// Module.to, as PyTorch shares one PythonArgParser between them (torch/csrc/utils/python_arg_parsing.h).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>

#include "bindings_common.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

struct __attribute__((visibility("hidden"))) ToArguments {  // holds a py::object, hidden like pybind11
  ToOptions options;        // device, dtype, non_blocking, copy
  bool copy_given = false;  // `copy` was passed (even False): _parse_to refuses it, as PyTorch does
  py::object memory_format = py::none();  // a torch.memory_format, or None
};

// Matches PyTorch's three `to` signatures in order; raises PyTorch's TypeError texts (the invalid-combination
// listing, or one signature's own error where only it fits the argument count) and the device errors.
ToArguments parse_to_arguments(const py::tuple& args, const py::dict& kwargs);

// torch.memory_format, registered by the torch package when it defines the class.
void register_memory_format_type(py::handle cls);

}  // namespace ds::python
