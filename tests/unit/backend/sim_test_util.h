// Helpers for the simulated-backend tests: resident memory, filled buffers, copy requests.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "backend/backend.h"

namespace ds::test {

inline constexpr uint64_t kMiB = 1ull << 20;
inline constexpr uint64_t kGiB = 1ull << 30;

// Resident set size of this process in bytes (/proc/self/statm, second field, in pages).
inline uint64_t resident_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long size = 0, resident = 0;
  if (f) {
    if (std::fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE));
}

inline bool all_bytes(const void* p, size_t n, unsigned char v) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != v) return false;
  return true;
}

inline CopyRequest request(void* dst, Place dst_place, const void* src, Place src_place, size_t bytes,
                           bool non_blocking = false, int stream_device = 0, StreamId stream = kDefaultStream) {
  CopyRequest r;
  r.dst = dst;
  r.dst_place = dst_place;
  r.src = src;
  r.src_place = src_place;
  r.bytes = bytes;
  r.non_blocking = non_blocking;
  r.stream_device = stream_device;
  r.stream = stream;
  return r;
}

}  // namespace ds::test
