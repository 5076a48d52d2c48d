// DType tables and the IEEE half / bfloat16 conversions.
#include "core/dtype.h"

#include <cstring>

#include "core/errors.h"

namespace ds {

size_t itemsize(DType t) {
  switch (t) {
    case DType::Float64: case DType::Int64: return 8;
    case DType::Float32: case DType::Int32: return 4;
    case DType::Float16: case DType::BFloat16: case DType::Int16: return 2;
    case DType::Int8: case DType::UInt8: case DType::Bool: return 1;
  }
  return 1;
}

bool is_floating_point(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Float16 || t == DType::BFloat16;
}

bool is_complex(DType) { return false; }

std::string dtype_name(DType t) {
  switch (t) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Int64: return "int64";
    case DType::Int32: return "int32";
    case DType::Int16: return "int16";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Bool: return "bool";
  }
  return "unknown";
}

std::string legacy_type_name(DType t) {
  switch (t) {
    case DType::Float32: return "FloatTensor";
    case DType::Float64: return "DoubleTensor";
    case DType::Float16: return "HalfTensor";
    case DType::BFloat16: return "BFloat16Tensor";
    case DType::Int64: return "LongTensor";
    case DType::Int32: return "IntTensor";
    case DType::Int16: return "ShortTensor";
    case DType::Int8: return "CharTensor";
    case DType::UInt8: return "ByteTensor";
    case DType::Bool: return "BoolTensor";
  }
  return "Tensor";
}

DType dtype_from_name(std::string_view n) {
  if (n == "float32" || n == "float") return DType::Float32;
  if (n == "float64" || n == "double") return DType::Float64;
  if (n == "float16" || n == "half") return DType::Float16;
  if (n == "bfloat16") return DType::BFloat16;
  if (n == "int64" || n == "long") return DType::Int64;
  if (n == "int32" || n == "int") return DType::Int32;
  if (n == "int16" || n == "short") return DType::Int16;
  if (n == "int8") return DType::Int8;
  if (n == "uint8") return DType::UInt8;
  if (n == "bool") return DType::Bool;
  raise(ErrorKind::TypeError, "unknown dtype '" + std::string(n) + "'");
}

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return uint16_t(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));  // NaN / Inf
  if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // overflows to Inf after rounding
  if (abs < 0x38800000u) {  // subnormal half (or zero)
    if (abs < 0x33000000u) return uint16_t(sign);
    const uint32_t e = abs >> 23;
    const uint32_t m = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e;  // 14 + (127 - 1 - e) ... aligns to half's subnormal step
    uint32_t half_m = m >> (shift);
    const uint32_t rem = m & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_m & 1u))) ++half_m;
    return uint16_t(sign | half_m);
  }
  uint32_t h = ((abs - 0x38000000u) >> 13);
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (man << 13);
  } else if (exp == 0) {
    if (man == 0) {
      x = sign;
    } else {  // normalise a subnormal
      exp = 113;
      while (!(man & 0x400u)) { man <<= 1; --exp; }
      x = sign | (exp << 23) | ((man & 0x3ffu) << 13);
    }
  } else {
    x = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t float_to_bfloat16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

float bfloat16_to_float(uint16_t b) {
  const uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace ds
