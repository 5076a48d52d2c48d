// Raw CUDA copy baseline (as nvbandwidth measures): event-timed batches of cudaMemcpyAsync between
// buffers the baseline allocates itself, so DeviceScope's own path can be divided by it.
#pragma once

#include <cstddef>
#include <string>

namespace ds {

enum class RawRoute { H2D, D2H, D2D, P2P };

struct RawBaseline {
  bool available = false;  // false without the toolkit or a GPU
  double ns_per_copy = 0;  // median over batches
  std::string why_not;
};

// `pinned_host`: host side from cudaHostAlloc, else malloc'd pageable memory.
RawBaseline raw_cuda_copy(RawRoute route, bool pinned_host, size_t bytes, int batches, int copies_per_batch,
                          int device = 0, int peer = 1);
// Wall time of cudaHostAlloc + cudaFreeHost for `bytes` (the cost of pinning), or a negative value.
double raw_cuda_pin_ns(size_t bytes);

}  // namespace ds
