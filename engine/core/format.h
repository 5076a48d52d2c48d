// Human-readable figures in the units PyTorch's messages use (B, KiB, MiB, GiB with two decimals).
#pragma once

#include <cstdint>
#include <string>

namespace ds {

std::string format_bytes(uint64_t bytes);               // "20.00 MiB", as the CUDA OOM message prints
uint64_t parse_bytes(const std::string& text);          // "16GiB", "512MiB", "4KiB", "1000" ; raises ValueError

}  // namespace ds
