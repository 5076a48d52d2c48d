// The elementwise fast path's kernels and the BLAS gemm it calls: broadcasting strides (the odometer loop),
// scalars on either side, in-place aliasing, wrap-around integer arithmetic, bool or/and, comparisons,
// relu's -0.0/NaN, and gemm with row- and column-major operands against a naive product.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensor/blas_gemm.h"
#include "tensor/elementwise_kernels.h"

namespace ds {
namespace {

KernelInput tensor_in(const void* data, Shape strides) {
  KernelInput in;
  in.data = data;
  in.strides = std::move(strides);
  return in;
}

KernelInput scalar_in(double f, int64_t i) {
  KernelInput in;
  in.fscalar = f;
  in.iscalar = i;
  return in;
}

TEST(ElementwiseKernels, BroadcastsColumnAgainstRowThroughStrides) {
  const std::vector<float> col = {1, 2};         // shape (2, 1) -> strides (1, 0) over (2, 3)
  const std::vector<float> row = {10, 20, 30};  // shape (3,)   -> strides (0, 1) over (2, 3)
  std::vector<float> out(6, -1);
  binary_kernel(BinaryKind::Sub, DType::Float32, {2, 3}, out.data(), tensor_in(col.data(), {1, 0}),
                tensor_in(row.data(), {0, 1}), 1, 1);
  EXPECT_EQ(out, (std::vector<float>{-9, -19, -29, -8, -18, -28}));
}

TEST(ElementwiseKernels, ThreeDimensionalBroadcastVisitsEveryElementOnce) {
  // (2, 1, 3) + (4, 1) -> (2, 4, 3)
  std::vector<double> a(6), b(4), out(24, -1);
  for (int i = 0; i < 6; ++i) a[size_t(i)] = i;
  for (int i = 0; i < 4; ++i) b[size_t(i)] = 100 * i;
  binary_kernel(BinaryKind::Add, DType::Float64, {2, 4, 3}, out.data(), tensor_in(a.data(), {3, 0, 1}),
                tensor_in(b.data(), {0, 1, 0}), 1, 1);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(out[size_t(i * 12 + j * 3 + k)], (i * 3 + k) + 100 * j);
}

TEST(ElementwiseKernels, ScalarOnEitherSideAndAlpha) {
  const std::vector<float> x = {1, 2, 4};
  std::vector<float> out(3);
  binary_kernel(BinaryKind::Sub, DType::Float32, {3}, out.data(), scalar_in(10, 10), tensor_in(x.data(), {1}), 1, 1);
  EXPECT_EQ(out, (std::vector<float>{9, 8, 6}));
  binary_kernel(BinaryKind::Add, DType::Float32, {3}, out.data(), tensor_in(x.data(), {1}), tensor_in(x.data(), {1}),
                -0.5, 1);
  EXPECT_EQ(out, (std::vector<float>{0.5f, 1, 2}));
  binary_kernel(BinaryKind::Div, DType::Float32, {3}, out.data(), tensor_in(x.data(), {1}), scalar_in(0, 0), 1, 1);
  EXPECT_TRUE(std::isinf(out[0]) && out[0] > 0);
}

TEST(ElementwiseKernels, InPlaceWithItselfAsOtherOperand) {
  std::vector<int32_t> x = {1, -2, 3};
  binary_kernel(BinaryKind::Mul, DType::Int32, {3}, x.data(), tensor_in(x.data(), {1}), tensor_in(x.data(), {1}), 1, 1);
  EXPECT_EQ(x, (std::vector<int32_t>{1, 4, 9}));
}

TEST(ElementwiseKernels, IntegerArithmeticWrapsAround) {
  const std::vector<int64_t> big = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  std::vector<int64_t> out(2);
  binary_kernel(BinaryKind::Add, DType::Int64, {2}, out.data(), tensor_in(big.data(), {1}), scalar_in(1, 1), 1, 1);
  EXPECT_EQ(out[0], std::numeric_limits<int64_t>::min());
  unary_kernel(UnaryKind::Neg, DType::Int64, 2, out.data(), big.data());
  EXPECT_EQ(out[1], std::numeric_limits<int64_t>::min());
  const std::vector<int32_t> i32 = {1 << 30};
  std::vector<int32_t> o32(1);
  binary_kernel(BinaryKind::Mul, DType::Int32, {1}, o32.data(), tensor_in(i32.data(), {1}), scalar_in(4, 4), 1, 1);
  EXPECT_EQ(o32[0], 0);
}

TEST(ElementwiseKernels, BoolAddIsOrAndMulIsAnd) {
  const bool a[] = {true, true, false, false}, b[] = {true, false, true, false};
  bool out[4];
  binary_kernel(BinaryKind::Add, DType::Bool, {4}, out, tensor_in(a, {1}), tensor_in(b, {1}), 1, 1);
  EXPECT_TRUE(out[0] && out[1] && out[2] && !out[3]);
  binary_kernel(BinaryKind::Mul, DType::Bool, {4}, out, tensor_in(a, {1}), tensor_in(b, {1}), 1, 1);
  EXPECT_TRUE(out[0] && !out[1] && !out[2] && !out[3]);
}

TEST(ElementwiseKernels, ComparisonsWriteBoolAndNanComparesUnequal) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {nan, 1, -0.0f};
  bool out[3];
  binary_kernel(BinaryKind::Eq, DType::Float32, {3}, out, tensor_in(x.data(), {1}), tensor_in(x.data(), {1}), 1, 1);
  EXPECT_TRUE(!out[0] && out[1] && out[2]);
  binary_kernel(BinaryKind::Ne, DType::Float32, {3}, out, tensor_in(x.data(), {1}), scalar_in(0, 0), 1, 1);
  EXPECT_TRUE(out[0] && out[1] && !out[2]);  // -0.0 == 0
  binary_kernel(BinaryKind::Lt, DType::Float32, {3}, out, tensor_in(x.data(), {1}), scalar_in(1, 1), 1, 1);
  EXPECT_TRUE(!out[0] && !out[1] && out[2]);
}

TEST(ElementwiseKernels, ReluKeepsNegativeZeroAndNan) {
  const std::vector<double> x = {-0.0, std::nan(""), -3, 2};
  std::vector<double> out(4);
  unary_kernel(UnaryKind::Relu, DType::Float64, 4, out.data(), x.data());
  EXPECT_TRUE(std::signbit(out[0]) && out[0] == 0);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 2);
}

TEST(BlasGemm, RowAndColumnMajorOperandsMatchANaiveProduct) {
  if (!blas_available()) GTEST_SKIP() << "no libblas.so.3 with cblas_sgemm";
  const int64_t m = 3, k = 4, n = 2;
  std::vector<float> a(m * k), at(k * m), b(k * n), bt(n * k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) a[size_t(i * k + j)] = at[size_t(j * m + i)] = float(i * 7 + j * 3 % 5) - 4;
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) b[size_t(i * n + j)] = bt[size_t(j * k + i)] = float(i - 2 * j) * 0.5f;
  std::vector<float> want(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t l = 0; l < k; ++l) want[size_t(i * n + j)] += a[size_t(i * k + l)] * b[size_t(l * n + j)];
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      std::vector<float> c(m * n, -1);
      const GemmOperand ga{ta ? at.data() : a.data(), ta ? m : k, ta};
      const GemmOperand gb{tb ? bt.data() : b.data(), tb ? k : n, tb};
      ASSERT_TRUE(gemm(DType::Float32, m, n, k, ga, gb, c.data()));
      EXPECT_EQ(c, want) << "transposed a=" << ta << " b=" << tb;
    }
  }
  EXPECT_FALSE(gemm(DType::Int64, m, n, k, GemmOperand{a.data(), k, false}, GemmOperand{b.data(), n, false}, nullptr));
}

}  // namespace
}  // namespace ds
