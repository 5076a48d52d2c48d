// numpy's own float64 exp and tanh inner loops, called from C++ (numpy_loops.cpp). The float64 recurrent cells'
// numpy path (torch/nn/_rnn_cells.py _sigmoid / _tanh) computes with np.exp / np.tanh, whose SIMD loops the libm
// functions do not match to the last bit; calling the very loops numpy runs gives its values, element by element
// (they do not depend on an element's position or the call's length), without numpy's per-call overhead.
#pragma once

#include <cstdint>

namespace ds::python::numpy_loops {

// True when numpy's exp and tanh float64 loops were found (numpy imported, its ufunc objects laid out as numpy
// 1.x / 2.x lay them out); false leaves the float64 cells on the numpy path. Needs the GIL (the first call looks
// them up).
bool available();
// out[k] = np.exp(in[k]) / np.tanh(in[k]) for k < n; in and out contiguous, the same array or not overlapping.
void exp_f64(const double* in, double* out, int64_t n);
void tanh_f64(const double* in, double* out, int64_t n);

}  // namespace ds::python::numpy_loops
