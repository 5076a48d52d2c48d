// See autograd_layout.h.
#include "autograd_layout.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ds::python {

bool non_overlapping_and_dense(const TensorImpl& t) {
  const Shape& sizes = t.sizes();
  const Shape& strides = t.strides();
  int64_t expected = 1;
  bool contiguous = true;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) contiguous = false;
    expected *= sizes[i];
  }
  if (contiguous) return true;
  if (sizes.size() == 1) return sizes[0] < 2 || strides[0] == 1;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims of size >= 2, sorted as Python's tuples
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] >= 2) dims.emplace_back(strides[i], sizes[i]);
  std::sort(dims.begin(), dims.end());
  expected = 1;
  for (const auto& [st, sz] : dims) {
    if (st != expected) return false;
    expected *= sz;
  }
  return true;
}

bool obeys_layout_contract(const TensorImpl& g, const TensorImpl& v) {
  if (!non_overlapping_and_dense(v)) return g.is_contiguous();
  const size_t n = std::min({g.sizes().size(), g.strides().size(), v.strides().size()});  // Python's zip
  for (size_t i = 0; i < n; ++i) {
    const int64_t size = g.sizes()[i], gs = g.strides()[i], vs = v.strides()[i];
    if ((size != 1 && gs != vs) || (size == 1 && gs == 0)) return false;
  }
  return true;
}

}  // namespace ds::python
