// Normalization kernels on host memory, forward and backward with ATen's formulas (layer_norm_kernel,
// batch_norm, group_norm_kernel): layer_norm over the last N elements of M rows, batch_norm over the
// channel dim of (N, C, S) and group_norm over (N, G, C/G * S). Contiguous float32 or float64 (`T`);
// statistics are accumulated in double. Optional weight/bias/gradients are null when absent.
#pragma once

#include <cstdint>

namespace ds {

// y = (x - mean) * rstd * weight + bias per row; mean and rstd (M) are the kernel's saved statistics.
template <typename T>
void layer_norm_forward(int64_t m, int64_t n, const T* x, const T* weight, const T* bias, double eps, T* y, T* mean,
                        T* rstd);
// dx (M x N), dweight, dbias (N): any may be null.
template <typename T>
void layer_norm_backward(int64_t m, int64_t n, const T* dy, const T* x, const T* mean, const T* rstd, const T* weight,
                         T* dx, T* dweight, T* dbias);

// Training: batch statistics into save_mean / save_invstd (C) and, when given, running_mean / running_var
// updated in place (momentum, unbiased variance). Evaluation: the running statistics normalise and
// save_mean / save_invstd are not written (null).
template <typename T>
void batch_norm_forward(int64_t n, int64_t c, int64_t s, const T* x, const T* weight, const T* bias, T* running_mean,
                        T* running_var, bool training, double momentum, double eps, T* y, T* save_mean,
                        T* save_invstd);
// training: uses save_mean / save_invstd; evaluation: running_mean / running_var with eps.
template <typename T>
void batch_norm_backward(int64_t n, int64_t c, int64_t s, const T* dy, const T* x, const T* weight,
                         const T* running_mean, const T* running_var, const T* save_mean, const T* save_invstd,
                         bool training, double eps, T* dx, T* dweight, T* dbias);

// mean, rstd: (N, G).
template <typename T>
void group_norm_forward(int64_t n, int64_t c, int64_t s, int64_t groups, const T* x, const T* weight, const T* bias,
                        double eps, T* y, T* mean, T* rstd);
// ds_buf, db_buf: (N, C) scratch the caller provides (ATen's CUDA kernel allocates them as tensors).
template <typename T>
void group_norm_backward(int64_t n, int64_t c, int64_t s, int64_t groups, const T* dy, const T* x, const T* mean,
                         const T* rstd, const T* weight, T* ds_buf, T* db_buf, T* dx, T* dweight, T* dbias);

}  // namespace ds
