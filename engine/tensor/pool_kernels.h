// Pooling on host memory, ATen's loops: max (with flat per-plane indices, NaN propagating), average
// (padding, ceil_mode, count_include_pad, divisor_override) and adaptive average / max, forward and
// backward. Tensors are contiguous (planes, h, w) with planes = N * C; 1-D pooling is 2-D with h = 1.
// float32 or float64 (`T`); indices are int64 as in PyTorch.
#pragma once

#include <cstdint>

namespace ds {

struct PoolGeometry {
  int64_t planes = 0, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

// ATen's pooling_output_shape: floor or ceil division, and a last window starting in the right padding
// is dropped. May return 0 or less (the caller reports "Output size is too small").
int64_t pooling_output_size(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                            bool ceil_mode);

template <typename T>
void max_pool2d_forward(const PoolGeometry& g, const T* x, T* out, int64_t* indices);
// grad_input (planes, h, w) = zeros with grad_out scattered to `indices` (also adaptive max pooling's).
template <typename T>
void max_pool2d_backward(int64_t planes, int64_t in_plane, int64_t out_plane, const T* grad_out,
                         const int64_t* indices, T* grad_input);

template <typename T>
void avg_pool2d_forward(const PoolGeometry& g, bool count_include_pad, int64_t divisor_override, const T* x, T* out);
template <typename T>
void avg_pool2d_backward(const PoolGeometry& g, bool count_include_pad, int64_t divisor_override, const T* grad_out,
                         T* grad_input);

// Adaptive pooling: window i of n over `in` is [floor(i * in / n), ceil((i + 1) * in / n)).
template <typename T>
void adaptive_avg_pool2d_forward(const PoolGeometry& g, const T* x, T* out);
template <typename T>
void adaptive_avg_pool2d_backward(const PoolGeometry& g, const T* grad_out, T* grad_input);
template <typename T>
void adaptive_max_pool2d_forward(const PoolGeometry& g, const T* x, T* out, int64_t* indices);

}  // namespace ds
