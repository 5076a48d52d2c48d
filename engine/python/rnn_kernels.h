// The recurrent cells' step kernels of bindings_rnn.cpp, for the C++ steps that also build the cells' autograd
// nodes (bindings_rnn_graph.cpp) and the nodes' backward functions (bindings_rnn_backward.cpp). Each is the `rnn_*` Python entry of the same name: None / false when the
// operands are not the kernel's case (checked before anything is written).
#pragma once

#include "bindings_common.h"

namespace ds::python::rnn_kernels {
py::object lstm_gates(const TensorPtr& gates, const TensorPtr& igates, const TensorPtr& cx);
py::object lstm_state(const TensorPtr& gates, const TensorPtr& cx);
py::object gru(const TensorPtr& igates, const TensorPtr& hgates, const TensorPtr& hx, bool clones);
bool add_inplace(const TensorPtr& gates, const TensorPtr& igates);
py::object activation(int kind, const TensorPtr& x);
py::tuple chunks(const TensorPtr& t, int64_t n);
py::object act_grad(int kind, const TensorPtr& grad, const TensorPtr& result);
py::object mul_grad(const TensorPtr& grad, const TensorPtr& other);
py::object neg_grad(const TensorPtr& grad);
py::object split_grad(py::list grads, int64_t rows, int64_t cols);
}  // namespace ds::python::rnn_kernels
