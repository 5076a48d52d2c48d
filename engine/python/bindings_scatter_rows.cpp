// torch/_ops/_scatter_rows.py add_rows's loop in C++ (issue 23): out[index[i]] += rows[i] for i in order, every add
// rounded in out's dtype - the accumulation of ATen's CPU index_add_ and embedding_dense_backward, which the numpy
// version reproduces with sorting and rounds of fancy-indexed adds (~250 us a call in an embedding's backward,
// where this loop takes a few). Only the plain case is taken: out and rows of one dtype (float32 or float64), both
// C-contiguous, out [V, ...] writable, rows [n, ...] with out's trailing shape, index a 1-D int64 array (any
// stride) whose values are in [-V, V) (negative ones count from the end, as numpy's fancy index does). Anything else returns
// False and the Python function runs (the reference: DEVICESCOPE_NO_FAST_OPS=1 keeps it; tests/fastpath compares).
#include <pybind11/numpy.h>

#include <cstdint>
#include <vector>

#include "bindings_common.h"

namespace ds::python {
namespace {

template <typename T>
void add_rows_typed(T* out, int64_t nrows, const int64_t* index, int64_t n, const T* rows, int64_t width) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = index[i] < 0 ? index[i] + nrows : index[i];
    T* dst = out + r * width;
    const T* src = rows + i * width;
    for (int64_t j = 0; j < width; ++j) dst[j] += src[j];  // (no reassociation: each element's adds in order)
  }
}

bool add_rows(py::handle out_obj, py::handle index_obj, py::handle rows_obj) {
  // numpy arrays only, taken as they are (a converted copy of `out` would lose the sums)
  if (!py::isinstance<py::array>(out_obj) || !py::isinstance<py::array>(index_obj) ||
      !py::isinstance<py::array>(rows_obj))
    return false;
  auto out = py::reinterpret_borrow<py::array>(out_obj), index = py::reinterpret_borrow<py::array>(index_obj),
       rows = py::reinterpret_borrow<py::array>(rows_obj);
  const bool f32 = out.dtype().is(py::dtype::of<float>()), f64 = out.dtype().is(py::dtype::of<double>());
  if (!(f32 || f64) || !rows.dtype().is(out.dtype()) || !index.dtype().is(py::dtype::of<int64_t>())) return false;
  const int cflags = py::array::c_style;
  if (!(out.flags() & cflags) || !(rows.flags() & cflags) || !out.writeable()) return false;
  if (out.ndim() < 1 || rows.ndim() != out.ndim() || index.ndim() != 1 || rows.shape(0) != index.shape(0))
    return false;
  int64_t width = 1;
  for (py::ssize_t d = 1; d < out.ndim(); ++d) {
    if (rows.shape(d) != out.shape(d)) return false;
    width *= out.shape(d);
  }
  const int64_t nrows = out.shape(0), n = index.shape(0);
  // the index may be strided (a column of a batch-first index tensor, reshaped): read into one contiguous list
  if (index.strides(0) % py::ssize_t(sizeof(int64_t)) != 0) return false;
  const int64_t step = index.strides(0) / py::ssize_t(sizeof(int64_t));
  const auto* raw = static_cast<const int64_t*>(index.data());
  std::vector<int64_t> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    idx[size_t(i)] = raw[i * step];
    if (idx[size_t(i)] < -nrows || idx[size_t(i)] >= nrows) return false;  // numpy's IndexError: the Python path's
  }
  if (n == 0 || width == 0) return true;
  // rows overlapping out's memory (only through a caller's mistake): numpy's buffered semantics, the Python path's
  const auto* ob = static_cast<const char*>(out.data());
  const auto* rb = static_cast<const char*>(rows.data());
  if (rb < ob + out.nbytes() && ob < rb + rows.nbytes()) return false;
  if (f32)
    add_rows_typed(static_cast<float*>(out.mutable_data()), nrows, idx.data(), n, static_cast<const float*>(rows.data()),
                   width);
  else
    add_rows_typed(static_cast<double*>(out.mutable_data()), nrows, idx.data(), n, static_cast<const double*>(rows.data()),
                   width);
  return true;
}

}  // namespace

void bind_scatter_rows(py::module_& m) {
  m.def("add_rows", &add_rows, py::arg("out"), py::arg("index"), py::arg("rows"));
}

}  // namespace ds::python
