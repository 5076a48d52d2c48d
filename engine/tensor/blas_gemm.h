// Matrix products through the system BLAS (Debian's libblas.so.3 alternative: reference BLAS, OpenBLAS,
// BLIS... whichever numpy, and Debian's PyTorch, use), found at run time so that building needs no BLAS
// development package. Row-major operands, each either as stored or transposed.
#pragma once

#include <cstdint>

#include "core/dtype.h"

namespace ds {

// One 2-D operand: element (i, j) is data[i * ld + j], or data[j * ld + i] when transposed.
struct GemmOperand {
  const void* data = nullptr;
  int64_t ld = 0;
  bool transposed = false;
};

// True when a BLAS with cblas_sgemm/cblas_dgemm is loaded (the answer is cached).
bool blas_available();
// Which library provides them (its path), "" when none.
const char* blas_library_path();

// c (m x n, row-major, leading dimension ldc, n when 0) = a (m x k) @ b (k x n) + beta * c; float32 or
// float64 only (beta 1 accumulates: the convolution kernels sum weight gradients over the batch).
// Returns false (nothing written) when no BLAS is available or the dtype is not supported.
bool gemm(DType dtype, int64_t m, int64_t n, int64_t k, const GemmOperand& a, const GemmOperand& b, void* c,
          double beta = 0.0, int64_t ldc = 0);

}  // namespace ds
