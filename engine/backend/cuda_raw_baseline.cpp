// Raw cudaMemcpyAsync baseline, event-timed in batches on a private stream (nvbandwidth's method).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "backend/raw_baseline.h"

namespace ds {
namespace {

struct Buffers {
  void* src = nullptr;
  void* dst = nullptr;
  bool src_host = false, dst_host = false, src_pinned = false, dst_pinned = false;
  ~Buffers() {
    auto release = [](void* p, bool host, bool pinned) {
      if (!p) return;
      if (!host) cudaFree(p);
      else if (pinned) cudaFreeHost(p);
      else std::free(p);
    };
    release(src, src_host, src_pinned);
    release(dst, dst_host, dst_pinned);
  }
};

void* host_buffer(size_t bytes, bool pinned) {
  void* p = nullptr;
  if (pinned) {
    if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) != cudaSuccess) return nullptr;
  } else {
    p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  }
  if (p) std::fill_n(static_cast<char*>(p), bytes, char(1));  // fault the pages in before timing
  return p;
}

void* device_buffer(int device, size_t bytes) {
  void* p = nullptr;
  cudaSetDevice(device);
  if (cudaMalloc(&p, bytes) != cudaSuccess) return nullptr;
  cudaMemset(p, 1, bytes);
  return p;
}

}  // namespace

RawBaseline raw_cuda_copy(RawRoute route, bool pinned_host, size_t bytes, int batches, int copies_per_batch,
                          int device, int peer) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return {false, 0, "no CUDA device answered"};
  }
  if (route == RawRoute::P2P && count < 2) return {false, 0, "peer copies need two devices"};
  Buffers b;
  switch (route) {
    case RawRoute::H2D:
      b.src_host = true;
      b.src_pinned = pinned_host;
      b.src = host_buffer(bytes, pinned_host);
      b.dst = device_buffer(device, bytes);
      break;
    case RawRoute::D2H:
      b.dst_host = true;
      b.dst_pinned = pinned_host;
      b.src = device_buffer(device, bytes);
      b.dst = host_buffer(bytes, pinned_host);
      break;
    case RawRoute::D2D:
      b.src = device_buffer(device, bytes);
      b.dst = device_buffer(device, bytes);
      break;
    case RawRoute::P2P:
      b.src = device_buffer(device, bytes);
      b.dst = device_buffer(peer, bytes);
      break;
  }
  if (!b.src || !b.dst) return {false, 0, "could not allocate the baseline buffers"};
  cudaSetDevice(device);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> per_copy;
  for (int batch = -1; batch < batches; ++batch) {  // batch -1 warms up
    cudaEventRecord(start, stream);
    for (int i = 0; i < copies_per_batch; ++i) {
      if (route == RawRoute::P2P) cudaMemcpyPeerAsync(b.dst, peer, b.src, device, bytes, stream);
      else cudaMemcpyAsync(b.dst, b.src, bytes, cudaMemcpyDefault, stream);
    }
    cudaEventRecord(stop, stream);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (batch >= 0) per_copy.push_back(double(ms) * 1e6 / copies_per_batch);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  if (cudaGetLastError() != cudaSuccess || per_copy.empty()) return {false, 0, "CUDA error during the baseline"};
  std::sort(per_copy.begin(), per_copy.end());
  return {true, per_copy[per_copy.size() / 2], ""};
}

double raw_cuda_pin_ns(size_t bytes) {
  void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!p) return -1;
  std::fill_n(static_cast<char*>(p), bytes, char(1));
  const auto t0 = std::chrono::steady_clock::now();
  // Pinning an existing buffer (what pin_memory's allocation + page-locking costs).
  const bool ok = cudaHostRegister(p, bytes, cudaHostRegisterDefault) == cudaSuccess;
  const auto t1 = std::chrono::steady_clock::now();
  if (ok) cudaHostUnregister(p);
  std::free(p);
  cudaGetLastError();
  return ok ? double(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()) : -1;
}

}  // namespace ds
