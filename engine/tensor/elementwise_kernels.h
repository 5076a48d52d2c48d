// Dense elementwise kernels on host-addressable memory: the C++ fast path of Python's a + b, a.add_(b),
// relu, ... (engine/python/bindings_ops.cpp decides when it applies and does PyTorch's checks first).
// Operands are already promoted: every tensor operand has the compute dtype, the output too.
#pragma once

#include <cstdint>

#include "core/dtype.h"
#include "tensor/tensor.h"

namespace ds {

enum class BinaryKind : uint8_t { Add, Sub, Mul, Div, Eq, Ne, Lt, Le, Gt, Ge };

// Comparisons write bool; the arithmetic kinds write the compute dtype.
inline bool is_comparison(BinaryKind k) { return k >= BinaryKind::Eq; }
// Tanh, Sigmoid and Exp are float32 only (the caller checks): computed in double and rounded once, as the
// Python path's numpy formulas compute them (torch/_ops/unary.py, precise=True). Abs and Sqrt are float32 and
// float64 only: fabs, and sqrt in double rounded once (correctly rounded, so numpy's bits).
enum class UnaryKind : uint8_t { Relu, Neg, Tanh, Sigmoid, Exp, Abs, Sqrt };

// True for the dtypes these kernels have loops for (float32, float64, int64, int32, bool).
bool elementwise_kernel_dtype(DType t);

// One input of a binary kernel: a tensor (`data`, its sizes and strides in elements, broadcast to the
// output shape by the caller: stride 0 on expanded dims) or a scalar already converted to the compute
// dtype's value range (`fscalar` for floating dtypes, `iscalar` for integral and bool ones).
struct KernelInput {
  const void* data = nullptr;
  Shape strides;  // output rank; ignored for scalars
  double fscalar = 0;
  int64_t iscalar = 0;
};

// out[i] = a[i] op (alpha * b[i]) over `sizes`, out contiguous (bool for comparisons, else `dtype`).
// alpha applies to Add/Sub only (1: none).
// Integer arithmetic wraps like PyTorch's (two's complement); bool Add is `or`, bool Mul is `and`.
void binary_kernel(BinaryKind op, DType dtype, const Shape& sizes, void* out, const KernelInput& a,
                   const KernelInput& b, double falpha, int64_t ialpha);

// out[i] = op(x[i]) over `sizes`, both contiguous (out may be x itself).
void unary_kernel(UnaryKind op, DType dtype, int64_t numel, void* out, const void* x);

}  // namespace ds
