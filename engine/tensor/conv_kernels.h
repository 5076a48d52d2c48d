// 2-D convolution on host memory as im2col + GEMM (the system BLAS): forward and the three gradients of
// convolution_backward. A 1-D convolution is the 2-D one over a height-1 image (same windows, same
// weights), so callers pass H = 1, kernel height 1 for conv1d. Every tensor is contiguous NCHW (weight
// OIHW with I = C / groups) in one floating dtype, float32 or float64 (`T`).
//
// The kernels own no tensors: the caller allocates the outputs (what ATen's CUDA kernel allocates) and
// passes their memory. The column buffers are host scratch, not device memory: ATen's cuDNN path keeps
// its own workspace, which these kernels do not model (see engine/python/bindings_nn.cpp).
#pragma once

#include <cstdint>

namespace ds {

struct ConvGeometry {
  int64_t n = 0, c = 0, h = 0, w = 0;     // input
  int64_t o = 0, kh = 0, kw = 0;          // weight (O, C / groups, kh, kw)
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t groups = 1;
  int64_t oh() const { return (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1; }
  int64_t ow() const { return (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1; }
};

// out (N, O, oh, ow) = conv(x, weight) + bias (bias may be null). False when no BLAS is loaded.
template <typename T>
bool conv2d_forward(const ConvGeometry& g, const T* x, const T* weight, const T* bias, T* out);

// The gradients convolution_backward computes: any of grad_input (N, C, H, W), grad_weight (O, C/g, kh, kw)
// and grad_bias (O) may be null (output_mask). Each is overwritten, not accumulated into.
template <typename T>
bool conv2d_backward(const ConvGeometry& g, const T* grad_out, const T* x, const T* weight, T* grad_input,
                     T* grad_weight, T* grad_bias);

}  // namespace ds
