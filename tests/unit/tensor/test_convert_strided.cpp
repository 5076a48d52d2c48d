// convert_strided's same-dtype copy (the odometer with a tight last-dim loop that .contiguous(), strided copy_ and
// cat use) against a plain per-element reference: every element's bits land where its index says, for 1-, 2-, 4-
// and 8-byte elements, transposed and permuted sources, broadcast (stride 0) sources, strided destinations,
// size-1 and 0-dim shapes, and NaN payloads kept as they are. The dense float64 <-> float32 casts against
// static_cast, element by element (rounding, infinities, NaN, subnormals, overflow to inf).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tensor/tensor_ops.h"

using namespace ds;

namespace {

template <typename U>
void check(DType dtype, const Shape& sizes, const Shape& dst_strides, const Shape& src_strides, uint32_t seed) {
  int64_t span_src = 1, span_dst = 1, n = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    span_src += (sizes[i] - 1) * src_strides[i];
    span_dst += (sizes[i] - 1) * dst_strides[i];
    n *= sizes[i];
  }
  std::mt19937_64 gen(seed);
  std::vector<U> src(static_cast<size_t>(span_src)), dst(static_cast<size_t>(span_dst), U(0)),
      want(static_cast<size_t>(span_dst), U(0));
  for (U& v : src) v = U(gen());
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t d = 0, s = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      d += index[i] * dst_strides[i];
      s += index[i] * src_strides[i];
    }
    want[size_t(d)] = src[size_t(s)];
    for (size_t i = sizes.size(); i-- > 0;) {
      if (++index[i] < sizes[i]) break;
      index[i] = 0;
    }
  }
  convert_strided(dst.data(), dtype, sizes, dst_strides, src.data(), dtype, src_strides);
  EXPECT_EQ(dst, want) << "itemsize " << sizeof(U) << " dims " << sizes.size();
}

template <typename U>
void all_layouts(DType dtype) {
  check<U>(dtype, {3, 4}, {4, 1}, {1, 3}, 1);                      // transposed source
  check<U>(dtype, {2, 3, 5}, {15, 5, 1}, {1, 10, 2}, 2);           // permuted source
  check<U>(dtype, {4, 1, 6}, {6, 6, 1}, {0, 7, 1}, 3);             // broadcast dim, size-1 dim
  check<U>(dtype, {3, 7}, {1, 3}, {7, 1}, 4);                      // transposed destination
  check<U>(dtype, {2, 3, 4, 5}, {60, 20, 5, 1}, {3, 1, 30, 6}, 5);  // 4-D, last dim strided
  check<U>(dtype, {5}, {2}, {3}, 6);                                // 1-D, both strided
  check<U>(dtype, {}, {}, {}, 7);                                   // 0-dim
}

}  // namespace

TEST(ConvertStrided, SameDtypeCopiesEveryLayoutBitForBit) {
  all_layouts<uint8_t>(DType::Bool);
  all_layouts<uint16_t>(DType::Float16);
  all_layouts<uint32_t>(DType::Float32);
  all_layouts<uint64_t>(DType::Float64);
}

TEST(ConvertStrided, NanPayloadsMoveUnchanged) {
  const uint32_t bits[4] = {0x7fa00001u, 0xffc00000u, 0x7f800001u, 0x3f800000u};  // signalling/quiet NaNs, 1.0
  float src[4], dst[4] = {0, 0, 0, 0};
  std::memcpy(src, bits, sizeof(bits));
  convert_strided(dst, DType::Float32, {2, 2}, {2, 1}, src, DType::Float32, {1, 2});
  uint32_t out[4];
  std::memcpy(out, dst, sizeof(out));
  EXPECT_EQ(out[0], bits[0]);
  EXPECT_EQ(out[1], bits[2]);
  EXPECT_EQ(out[2], bits[1]);
  EXPECT_EQ(out[3], bits[3]);
}

TEST(ConvertStrided, DenseFloatCastsRoundAsStaticCast) {
  const double specials[] = {0.0, -0.0, 1.0 / 3.0, -2.5, 1e-40, 1e-310, 3.5e38, -1e39,
                             std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                             16777217.0, 0.1};
  std::mt19937_64 gen(11);
  std::vector<double> src(std::begin(specials), std::end(specials));
  for (int i = 0; i < 1000; ++i) src.push_back(std::ldexp(double(gen() % 1000000) - 500000.0, int(gen() % 60) - 30));
  const int64_t n = int64_t(src.size());
  std::vector<float> narrow(src.size());
  convert_strided(narrow.data(), DType::Float32, {n / 4, 4}, {4, 1}, src.data(), DType::Float64, {4, 1});
  for (size_t i = 0; i < src.size(); ++i) {
    const float want = static_cast<float>(src[i]);
    uint32_t a, b;
    std::memcpy(&a, &narrow[i], 4);
    std::memcpy(&b, &want, 4);
    EXPECT_EQ(a, b) << "element " << i;
  }
  std::vector<double> wide(src.size());
  convert_strided(wide.data(), DType::Float64, {n}, {1}, narrow.data(), DType::Float32, {1});
  for (size_t i = 0; i < src.size(); ++i) {
    const double want = static_cast<double>(narrow[i]);
    EXPECT_EQ(std::memcmp(&wide[i], &want, 8), 0) << "element " << i;
  }
}
