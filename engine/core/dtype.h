// Scalar types with PyTorch's names, sizes and legacy tensor type names (torch.typename).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ds {

enum class DType : int8_t { Float32, Float64, Float16, BFloat16, Int64, Int32, Int16, Int8, UInt8, Bool };

inline constexpr DType kAllDTypes[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16,
                                       DType::Int64,   DType::Int32,   DType::Int16,   DType::Int8,
                                       DType::UInt8,   DType::Bool};

size_t itemsize(DType t);
bool is_floating_point(DType t);
bool is_complex(DType t);            // always false today: no complex dtypes are modelled
std::string dtype_name(DType t);     // "float32" (Python prints torch.float32)
std::string legacy_type_name(DType t);  // "FloatTensor" (torch.FloatTensor / torch.cuda.FloatTensor)
DType dtype_from_name(std::string_view name);  // accepts "float32", "float", "half", "long", ... ; raises TypeError

// Conversions for the 16-bit float formats (round to nearest even), used by dtype-converting copies.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
uint16_t float_to_bfloat16(float f);
float bfloat16_to_float(uint16_t b);

}  // namespace ds
