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

// Settings OpenBLAS reads once, when it is loaded (by numpy or by gemm() below): unless the user set them,
// OPENBLAS_CORETYPE names the kernel family this CPU runs (OpenBLAS's own detection falls back to its slowest
// kernels, Prescott, on CPUs it does not know by model number, as virtual machines report them: 4-5x slower
// sgemm), and OPENBLAS_NUM_THREADS is one per physical core (hardware threads / 2, at least 1), as PyTorch
// sizes its intra-op pool. No effect on other BLASes. Sets them in the environment and leaves them there (a
// benchmark's real-PyTorch child is meant to run with them); DeviceScope itself uses blas_available().
void prepare_blas_environment();

// True when a BLAS with cblas_sgemm/cblas_dgemm is loaded (the answer is cached). The first call loads it with
// the settings above and then takes back those it set, so that they reach the library and not the processes a
// script starts: called before numpy loads the same library (PythonSession does), it is what DeviceScope runs on.
bool blas_available();
// Which library provides them (its path), "" when none.
const char* blas_library_path();

// c (m x n, row-major, leading dimension ldc, n when 0) = a (m x k) @ b (k x n) + beta * c; float32 or
// float64 only (beta 1 accumulates: the convolution kernels sum weight gradients over the batch).
// Returns false (nothing written) when no BLAS is available or the dtype is not supported.
bool gemm(DType dtype, int64_t m, int64_t n, int64_t k, const GemmOperand& a, const GemmOperand& b, void* c,
          double beta = 0.0, int64_t ldc = 0);

}  // namespace ds
