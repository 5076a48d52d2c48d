// Convolutions over 1-3 spatial dims on host memory, in both directions, as vol2col + GEMM: what
// ConvTranspose1d/2d/3d, Conv3d and F.unfold / F.fold compute (conv_kernels.h keeps the tuned 1-D/2-D
// forward convolution). One geometry serves both directions:
//
//   image   (N, C_img, img[0..nd))   the side whose windows are gathered into columns
//   columns (N, C_vec, col[0..nd))   one column per window position
//   weight  (C_vec, C_img / groups, k[0..nd))
//
// A convolution's image is its input and its columns side its output; a transposed convolution's image is
// its OUTPUT and its columns side its input (its forward is a convolution's input gradient). So
//   gather  (image -> columns): conv forward, transposed conv's input gradient
//   scatter (columns -> image): conv input gradient, transposed conv forward
//   weight_grad: dW += columns-side @ vol2col(image)^T (conv: dy and x; transposed: x and dy)
// Every tensor is contiguous in float32 or float64 (`T`); the caller allocates outputs (what ATen's kernel
// allocates) and passes their memory; the column matrices are host scratch. Functions return false when no
// BLAS is loaded.
#pragma once

#include <cstdint>

namespace ds {

struct ConvNdGeometry {
  int nd = 2;                              // spatial dims, 1-3
  int64_t n = 0, c_img = 0, c_vec = 0, groups = 1;
  int64_t img[3] = {1, 1, 1}, col[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
  int64_t img_numel() const { return img[0] * img[1] * img[2]; }  // per channel
  int64_t col_numel() const { return col[0] * col[1] * col[2]; }  // window positions
  int64_t k_numel() const { return k[0] * k[1] * k[2]; }
};

// cols (channels * K, L) = the windows of `channels` planes of `img`; positions outside the image read 0.
template <typename T>
void vol2col(const ConvNdGeometry& g, int64_t channels, const T* img, T* cols);

// img (channels planes) += the columns scattered back to their positions (outside positions dropped).
template <typename T>
void col2vol_add(const ConvNdGeometry& g, int64_t channels, const T* cols, T* img);

// vec (N, C_vec, L) = conv(img, weight) [+ bias per C_vec channel].
template <typename T>
bool conv_nd_gather(const ConvNdGeometry& g, const T* img, const T* weight, const T* bias, T* vec);

// img (N, C_img, ...) = the adjoint of gather applied to vec [+ bias per C_img channel]; overwritten.
template <typename T>
bool conv_nd_scatter(const ConvNdGeometry& g, const T* vec, const T* weight, const T* bias, T* img);

// grad_weight (C_vec, C_img / groups, K) = sum over samples of vec @ vol2col(img)^T; overwritten.
template <typename T>
bool conv_nd_weight_grad(const ConvNdGeometry& g, const T* vec, const T* img, T* grad_weight);

// out (C) = the sum of x (N, C, inner) over N and inner (a bias gradient), accumulated in double.
template <typename T>
void channel_sums(int64_t n, int64_t c, int64_t inner, const T* x, T* out);

}  // namespace ds
