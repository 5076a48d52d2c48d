// Strided element-wise conversion between dtypes on host-addressable memory.
#include <cstring>
#include <vector>

#include "core/errors.h"
#include "tensor/tensor_ops.h"

namespace ds {
namespace {

// Every dtype goes through double except 64-bit integers, which keep exact values through int64_t.
double load_f(const char* p, DType t) {
  switch (t) {
    case DType::Float32: { float v; std::memcpy(&v, p, 4); return v; }
    case DType::Float64: { double v; std::memcpy(&v, p, 8); return v; }
    case DType::Float16: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case DType::BFloat16: { uint16_t v; std::memcpy(&v, p, 2); return bfloat16_to_float(v); }
    case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); return double(v); }
    case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case DType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::Int8: return double(*reinterpret_cast<const int8_t*>(p));
    case DType::UInt8: return double(*reinterpret_cast<const uint8_t*>(p));
    case DType::Bool: return *p ? 1.0 : 0.0;
  }
  return 0;
}

template <typename T>
void put(char* p, T v) { std::memcpy(p, &v, sizeof(T)); }

// Float -> integer casts truncate toward zero, as C++ (and PyTorch's CPU kernels) do.
void store_f(char* p, DType t, double v) {
  switch (t) {
    case DType::Float32: put<float>(p, float(v)); break;
    case DType::Float64: put<double>(p, v); break;
    case DType::Float16: put<uint16_t>(p, float_to_half(float(v))); break;
    case DType::BFloat16: put<uint16_t>(p, float_to_bfloat16(float(v))); break;
    case DType::Int64: put<int64_t>(p, int64_t(v)); break;
    case DType::Int32: put<int32_t>(p, int32_t(int64_t(v))); break;
    case DType::Int16: put<int16_t>(p, int16_t(int64_t(v))); break;
    case DType::Int8: put<int8_t>(p, int8_t(int64_t(v))); break;
    case DType::UInt8: put<uint8_t>(p, uint8_t(int64_t(v))); break;
    case DType::Bool: put<uint8_t>(p, v != 0.0 ? 1 : 0); break;
  }
}

int64_t load_i(const char* p, DType t) {
  switch (t) {
    case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case DType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::Int8: return *reinterpret_cast<const int8_t*>(p);
    case DType::UInt8: return *reinterpret_cast<const uint8_t*>(p);
    case DType::Bool: return *p ? 1 : 0;
    default: return int64_t(load_f(p, t));
  }
}

void store_i(char* p, DType t, int64_t v) {
  switch (t) {
    case DType::Int64: put<int64_t>(p, v); break;
    case DType::Int32: put<int32_t>(p, int32_t(v)); break;  // narrowing wraps, as C++ casts do
    case DType::Int16: put<int16_t>(p, int16_t(v)); break;
    case DType::Int8: put<int8_t>(p, int8_t(v)); break;
    case DType::UInt8: put<uint8_t>(p, uint8_t(v)); break;
    case DType::Bool: put<uint8_t>(p, v != 0); break;
    default: store_f(p, t, double(v)); break;
  }
}

// Integer <-> integer conversions go through int64 (exact); anything involving a float through double.
void convert_one(char* d, DType dt, const char* s, DType st) {
  if (dt == st) std::memcpy(d, s, itemsize(dt));
  else if (!is_floating_point(dt) && !is_floating_point(st)) store_i(d, dt, load_i(s, st));
  else store_f(d, dt, load_f(s, st));
}

// Same-dtype strided copy of elements of type U (an unsigned integer of the element's size: bits move as they
// are, NaN payloads included). An odometer over the outer dims with running offsets and a tight loop over the
// last dim (memcpy when both sides are dense there): the per-element index arithmetic and dtype switch of the
// general loop below cost 10-20 ns an element, which made every small .contiguous() / strided copy_ slow.
template <typename U>
void copy_strided(void* dst, const Shape& sizes, const Shape& dst_strides, const void* src, const Shape& src_strides) {
  U* d = static_cast<U*>(dst);
  const U* s = static_cast<const U*>(src);
  const size_t nd = sizes.size();
  if (nd == 0) {
    *d = *s;
    return;
  }
  const int64_t inner = sizes[nd - 1], di = dst_strides[nd - 1], si = src_strides[nd - 1];
  const int64_t outer = shape_numel(sizes) / inner;
  std::vector<int64_t> index(nd, 0);
  int64_t doff = 0, soff = 0;
  for (int64_t o = 0; o < outer; ++o) {
    U* dp = d + doff;
    const U* sp = s + soff;
    if (di == 1 && si == 1) std::memcpy(dp, sp, size_t(inner) * sizeof(U));
    else for (int64_t k = 0; k < inner; ++k) dp[k * di] = sp[k * si];
    for (size_t i = nd - 1; i-- > 0;) {  // odometer over the outer dims, the innermost of them fastest
      doff += dst_strides[i];
      soff += src_strides[i];
      if (++index[i] < sizes[i]) break;
      doff -= dst_strides[i] * sizes[i];
      soff -= src_strides[i] * sizes[i];
      index[i] = 0;
    }
  }
}

// A dense cast between two floating types: the same conversion convert_one makes (double(float) is exact,
// float(double) rounds as store_f does), element by element in one tight loop.
template <typename D, typename S>
void cast_dense(void* dst, const void* src, int64_t n) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  for (int64_t k = 0; k < n; ++k) {
    S v;
    std::memcpy(&v, s + k * int64_t(sizeof(S)), sizeof(S));
    const D w = static_cast<D>(v);
    std::memcpy(d + k * int64_t(sizeof(D)), &w, sizeof(D));
  }
}

}  // namespace

void convert_strided(void* dst, DType dst_dtype, const Shape& sizes, const Shape& dst_strides, const void* src,
                     DType src_dtype, const Shape& src_strides) {
  const int64_t n = shape_numel(sizes);
  if (n == 0) return;
  const size_t dsz = itemsize(dst_dtype), ssz = itemsize(src_dtype);
  const Shape contiguous = contiguous_strides(sizes);
  auto is_contig = [&](const Shape& st) {
    for (size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] != 1 && st[i] != contiguous[i]) return false;
    return true;
  };
  if (dst_dtype == src_dtype && is_contig(dst_strides) && is_contig(src_strides)) {
    std::memcpy(dst, src, size_t(n) * dsz);
    return;
  }
  if (dst_dtype == src_dtype) {
    switch (dsz) {
      case 1: copy_strided<uint8_t>(dst, sizes, dst_strides, src, src_strides); return;
      case 2: copy_strided<uint16_t>(dst, sizes, dst_strides, src, src_strides); return;
      case 4: copy_strided<uint32_t>(dst, sizes, dst_strides, src, src_strides); return;
      case 8: copy_strided<uint64_t>(dst, sizes, dst_strides, src, src_strides); return;
      default: break;
    }
  }
  // float64 <-> float32 with both sides dense (.to(torch.float) of a 12.5M-element double tensor): the general
  // loop below costs ~25 ns an element in index products and dtype switches.
  if (is_contig(dst_strides) && is_contig(src_strides)) {
    if (dst_dtype == DType::Float32 && src_dtype == DType::Float64) return cast_dense<float, double>(dst, src, n);
    if (dst_dtype == DType::Float64 && src_dtype == DType::Float32) return cast_dense<double, float>(dst, src, n);
  }
  const size_t nd = sizes.size();
  std::vector<int64_t> index(nd, 0);
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  for (int64_t k = 0; k < n; ++k) {
    int64_t doff = 0, soff = 0;
    for (size_t i = 0; i < nd; ++i) {
      doff += index[i] * dst_strides[i];
      soff += index[i] * src_strides[i];
    }
    convert_one(d + doff * int64_t(dsz), dst_dtype, s + soff * int64_t(ssz), src_dtype);
    for (size_t i = nd; i-- > 0;) {  // odometer increment, last dimension fastest
      if (++index[i] < sizes[i]) break;
      index[i] = 0;
    }
  }
}

}  // namespace ds
