// Human-readable figures in the units PyTorch's messages use (B, KiB, MiB, GiB with two decimals).
#pragma once

#include <cstdint>
#include <string>

namespace ds {

std::string format_bytes(uint64_t bytes);               // "20.00 MiB", as the CUDA OOM message prints
uint64_t parse_bytes(const std::string& text);          // "16GiB", "512MiB", "4KiB", "1000" ; raises ValueError
// "830 ns", "1.25 \u00b5s", "3.40 ms", "1.250 s"; `compact`: one digit less for \u00b5s and s (narrow columns).
std::string format_duration(double ns, bool compact = false);
std::string format_rate(double gb_per_s);               // "11.8 GB/s", "0.25 GB/s", "4.0 MB/s" (1 GB = 1e9 bytes)

}  // namespace ds
