// The gradient layout rules the backward engine (bindings_autograd.cpp) applies, as torch/autograd/graph.py and
// torch/_ops/layout.py state them for the Python engine.
#pragma once

#include "tensor/tensor.h"

namespace ds::python {

// c10's compute_non_overlapping_and_dense (torch/_ops/layout.py's is_non_overlapping_and_dense).
bool non_overlapping_and_dense(const TensorImpl& t);

// grad_layout_contract.h (graph._obeys_layout_contract): a dense leaf's .grad has the leaf's strides (dims of
// size 1 aside); any other leaf's .grad is contiguous.
bool obeys_layout_contract(const TensorImpl& grad, const TensorImpl& var);

}  // namespace ds::python
