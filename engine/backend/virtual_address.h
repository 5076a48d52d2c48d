// Fake device addresses for virtual storages: unique, never reused, and never dereferenceable.
// Shared by the simulated and the real CUDA backend (virtual bytes only count against capacity).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ds {

// Note [Virtual addresses]
// Virtual allocations get addresses from [kBase, kBase + 2^52): above every user mapping the
// kernel hands out by default (x86-64: non-canonical with 4-level paging, unmapped with 5-level;
// aarch64: bit 55 set, which with top-byte-ignore is a kernel-half address), so a stray read
// faults instead of touching real memory. Each device owns a 16 TiB window; a bump pointer
// makes every range unique for the life of the backend, so a caching allocator can still do
// address arithmetic (split blocks, neighbours) on them.
class VirtualAddressSpace {
 public:
  static constexpr uint64_t kBase = 0x00F0'0000'0000'0000ull;
  static constexpr uint64_t kDeviceSpan = 1ull << 44;  // 16 TiB per device
  static constexpr int kMaxDevices = 256;
  static constexpr uint64_t kAlign = 4096;

  // A fresh range of `bytes` for `device`; nullptr when the device's window is used up.
  void* take(int device, size_t bytes) {
    if (device < 0 || device >= kMaxDevices) return nullptr;
    if (size_t(device) >= next_.size()) next_.resize(size_t(device) + 1, 0);
    const uint64_t size = (uint64_t(bytes == 0 ? 1 : bytes) + kAlign - 1) / kAlign * kAlign;
    uint64_t& offset = next_[size_t(device)];
    if (size > kDeviceSpan - offset) return nullptr;
    const uint64_t address = kBase + uint64_t(device) * kDeviceSpan + offset;
    offset += size;
    return reinterpret_cast<void*>(address);
  }

  static bool contains(const void* ptr) {
    const auto p = reinterpret_cast<uint64_t>(ptr);
    return p >= kBase && p < kBase + uint64_t(kMaxDevices) * kDeviceSpan;
  }

 private:
  std::vector<uint64_t> next_;  // bump offset per device
};

}  // namespace ds
