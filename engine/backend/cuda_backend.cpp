// The real CUDA backend over the CUDA runtime API. Every CUDA error becomes
// ds::Error(RuntimeError, "CUDA error: <cudaGetErrorString>"); nothing here aborts.
#include "backend/cuda_backend.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>

#include "backend/cuda_pcie_link.h"
#include "backend/virtual_address.h"
#include "core/errors.h"

namespace ds {

namespace {

void check_cuda(cudaError_t e) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls do not report it again
  raise(ErrorKind::RuntimeError, std::string("CUDA error: ") + cudaGetErrorString(e));
}

// Out of memory is an answer (nullptr), not an error: the caching allocators free and retry.
bool is_oom(cudaError_t e) {
  if (e != cudaErrorMemoryAllocation) return false;
  cudaGetLastError();
  return true;
}

double ms_to_ns(float ms) { return double(ms) * 1e6; }

}  // namespace

int cuda_probe_device_count(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    return 0;
  }
  if (n == 0 && why) *why = "cudaGetDeviceCount found 0 devices";
  return n;
}

struct CudaBackend::Impl {
  // Maps event times onto the host clock (Note [Real CUDA timings]).
  struct Anchor {
    cudaEvent_t event = nullptr;
    uint64_t host_ns = 0;
    ~Anchor() {
      if (event) cudaEventDestroy(event);
    }
  };
  struct Device {
    DeviceProps props;
    std::vector<cudaStream_t> streams;        // [0]: the legacy default stream (nullptr)
    cudaStream_t anchor_stream = nullptr;     // idle non-blocking stream for anchors
    std::shared_ptr<Anchor> anchor;
    std::vector<cudaEvent_t> timing_events;   // free pool (timing enabled)
    std::vector<cudaEvent_t> sync_events;     // free pool (cudaEventDisableTiming)
    uint64_t virtual_used = 0;
  };
  struct Pending {
    int device = 0;
    cudaEvent_t start = nullptr, end = nullptr;
    std::shared_ptr<Anchor> anchor;
    CopyTiming timing;
  };
  struct EventSlot {
    int device = 0;
    cudaEvent_t event = nullptr;  // nullptr once seen done (back in the pool)
  };

  std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now();
  std::vector<Device> devices;
  std::vector<std::vector<bool>> peer;  // peer[from][to]
  const LinkProfile* link = nullptr;
  VirtualAddressSpace virtual_space;
  std::vector<Pending> pending;
  std::vector<CopyTiming> completed;
  std::vector<EventSlot> events;  // EventId::id - 1
  uint64_t next_ticket = 0;
  mutable std::mutex mu;

  uint64_t host_ns() const {
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin).count());
  }

  Device& dev(int d) {
    if (d < 0 || d >= int(devices.size())) raise(ErrorKind::RuntimeError, "CUDA error: invalid device ordinal");
    return devices[size_t(d)];
  }
  const Device& dev(int d) const { return const_cast<Impl*>(this)->dev(d); }

  static void use(int d) { check_cuda(cudaSetDevice(d)); }

  cudaStream_t stream(int d, StreamId s) {
    Device& D = dev(d);
    if (s < 0 || size_t(s) >= D.streams.size()) raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
    return D.streams[size_t(s)];
  }

  cudaEvent_t take_event(int d, bool timing) {
    std::vector<cudaEvent_t>& pool = timing ? dev(d).timing_events : dev(d).sync_events;
    if (!pool.empty()) {
      cudaEvent_t e = pool.back();
      pool.pop_back();
      return e;
    }
    cudaEvent_t e = nullptr;
    check_cuda(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return e;
  }
  void give_event(int d, cudaEvent_t e, bool timing) {
    (timing ? devices[size_t(d)].timing_events : devices[size_t(d)].sync_events).push_back(e);
  }

  // A fresh anchor when the current one is older than a second (float ms loses precision with age).
  std::shared_ptr<Anchor> anchor(int d) {
    Device& D = dev(d);
    const uint64_t now = host_ns();
    if (D.anchor && now - D.anchor->host_ns < 1'000'000'000ull) return D.anchor;
    auto a = std::make_shared<Anchor>();
    check_cuda(cudaEventCreateWithFlags(&a->event, cudaEventDefault));
    const uint64_t before = host_ns();
    check_cuda(cudaEventRecord(a->event, D.anchor_stream));
    check_cuda(cudaEventSynchronize(a->event));
    const uint64_t after = host_ns();
    a->host_ns = before + (after - before) / 2;
    D.anchor = a;
    return a;
  }

  // Final times of a copy whose end event has completed.
  void finish(Pending& p) {
    float ms_start = 0, ms_end = 0, ms_copy = 0;
    check_cuda(cudaEventElapsedTime(&ms_start, p.anchor->event, p.start));
    check_cuda(cudaEventElapsedTime(&ms_end, p.anchor->event, p.end));
    check_cuda(cudaEventElapsedTime(&ms_copy, p.start, p.end));
    CopyTiming& t = p.timing;
    t.start_ns = std::max(t.enqueue_ns, p.anchor->host_ns + uint64_t(std::llround(std::max(0.0, ms_to_ns(ms_start)))));
    t.measured_ns = std::max(0.0, ms_to_ns(ms_copy));
    const uint64_t by_anchor = p.anchor->host_ns + uint64_t(std::llround(std::max(0.0, ms_to_ns(ms_end))));
    t.end_ns = std::max(by_anchor, t.start_ns + uint64_t(std::llround(t.measured_ns)));
    t.complete = true;
    give_event(p.device, p.start, true);
    give_event(p.device, p.end, true);
    p.start = p.end = nullptr;
  }

  EventSlot& slot(const EventId& e) {
    if (e.id == 0 || e.id > events.size() || events[e.id - 1].device != e.device)
      raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
    return events[e.id - 1];
  }
};

CudaBackend::CudaBackend() : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  int n = 0;
  check_cuda(cudaGetDeviceCount(&n));
  m.devices.resize(size_t(n));
  for (int d = 0; d < n; ++d) {
    Impl::Device& D = m.devices[size_t(d)];
    cudaDeviceProp p{};
    check_cuda(cudaGetDeviceProperties(&p, d));
    Impl::use(d);
    D.props.name = p.name;
    D.props.total_bytes = p.totalGlobalMem;
    D.props.simulated = false;
    D.props.major = p.major;
    D.props.minor = p.minor;
    const NominalLink nominal = nominal_link(d, p.name);
    D.props.link = nominal.bus;
    if (d == 0) m.link = &find_link_profile(nominal.profile);
    D.streams.push_back(nullptr);
    check_cuda(cudaStreamCreateWithFlags(&D.anchor_stream, cudaStreamNonBlocking));
  }
  if (!m.link) m.link = &find_link_profile("pcie4-x16");
  // Direct peer copies where the hardware allows them (otherwise the driver stages through host).
  m.peer.assign(size_t(n), std::vector<bool>(size_t(n), false));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int can = 0;
      check_cuda(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) continue;
      Impl::use(a);
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaSuccess || e == cudaErrorPeerAccessAlreadyEnabled) {
        m.peer[size_t(a)][size_t(b)] = true;
      }
      cudaGetLastError();
    }
  }
  if (n > 0) Impl::use(0);
}

CudaBackend::~CudaBackend() {
  // Best effort, never throws: wait for queued work, then hand back every CUDA object.
  Impl& m = *impl_;
  for (int d = 0; d < int(m.devices.size()); ++d) {
    if (cudaSetDevice(d) != cudaSuccess) continue;
    cudaDeviceSynchronize();
  }
  for (Impl::Pending& p : m.pending) {
    if (p.start) cudaEventDestroy(p.start);
    if (p.end) cudaEventDestroy(p.end);
  }
  m.pending.clear();
  for (Impl::EventSlot& s : m.events)
    if (s.event) cudaEventDestroy(s.event);
  for (Impl::Device& D : m.devices) {
    for (cudaEvent_t e : D.timing_events) cudaEventDestroy(e);
    for (cudaEvent_t e : D.sync_events) cudaEventDestroy(e);
    for (size_t s = 1; s < D.streams.size(); ++s) cudaStreamDestroy(D.streams[s]);
    D.anchor.reset();
    if (D.anchor_stream) cudaStreamDestroy(D.anchor_stream);
  }
  cudaGetLastError();
}

BackendCaps CudaBackend::caps() const {
  BackendCaps c;
  c.async_copy = true;
  c.pinned_host = true;
  for (const auto& row : impl_->peer)
    for (bool b : row) c.peer_copy = c.peer_copy || b;
  c.simulated = false;
  return c;
}

int CudaBackend::device_count() const { return int(impl_->devices.size()); }

DeviceProps CudaBackend::props(int device) const { return impl_->dev(device).props; }

const LinkProfile& CudaBackend::link() const { return *impl_->link; }

bool CudaBackend::can_access_peer(int from, int to) const {
  impl_->dev(from);
  impl_->dev(to);
  return impl_->peer[size_t(from)][size_t(to)];
}

uint64_t CudaBackend::now_ns() const { return impl_->host_ns(); }

// --- memory -------------------------------------------------------------------------------

void* CudaBackend::device_alloc(int device, size_t bytes, bool virtual_bytes) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  Impl::Device& D = m.dev(device);
  Impl::use(device);
  if (virtual_bytes) {
    // Nothing is allocated: the bytes only count against what the device could still give.
    size_t free = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free, &total));
    if (uint64_t(free) < D.virtual_used || bytes > uint64_t(free) - D.virtual_used) return nullptr;
    void* p = m.virtual_space.take(device, bytes);
    if (p) D.virtual_used += bytes;
    return p;
  }
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (is_oom(e)) return nullptr;
  check_cuda(e);
  return p;
}

void CudaBackend::device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  Impl::Device& D = m.dev(device);
  if (virtual_bytes) {
    if (!VirtualAddressSpace::contains(ptr) || bytes > D.virtual_used)
      raise(ErrorKind::RuntimeError, "CUDA error: invalid argument");
    D.virtual_used -= bytes;
    return;
  }
  Impl::use(device);
  check_cuda(cudaFree(ptr));
}

uint64_t CudaBackend::device_free_bytes(int device) const {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  const Impl::Device& D = m.dev(device);
  Impl::use(device);
  size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total));
  return uint64_t(free) > D.virtual_used ? uint64_t(free) - D.virtual_used : 0;
}

void* CudaBackend::pinned_alloc(size_t bytes) {
  std::lock_guard lock(impl_->mu);
  void* p = nullptr;
  const cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
  if (is_oom(e)) return nullptr;
  check_cuda(e);
  return p;
}

void CudaBackend::pinned_free(void* ptr, size_t bytes) {
  std::lock_guard lock(impl_->mu);
  check_cuda(cudaFreeHost(ptr));
}

// --- copies ----------------------------------------------------------------------------------

CopyTiming CudaBackend::copy(const CopyRequest& r) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  if (!r.src_place.is_host()) m.dev(r.src_place.device);
  if (!r.dst_place.is_host()) m.dev(r.dst_place.device);
  const int d = r.stream_device;
  cudaStream_t stream = m.stream(d, r.stream);

  const bool src_host = r.src_place.is_host(), dst_host = r.dst_place.is_host();
  const bool peer = !src_host && !dst_host && r.src_place.device != r.dst_place.device;
  const bool pageable = (src_host && r.src_place.kind == MemoryKind::Pageable) ||
                        (dst_host && r.dst_place.kind == MemoryKind::Pageable);
  CopyTiming t;
  t.ticket = ++m.next_ticket;
  t.enqueue_ns = m.host_ns();
  if (peer) {
    t.route = m.peer[size_t(r.src_place.device)][size_t(r.dst_place.device)] ? Route::Peer : Route::StagedPinned;
  } else if (pageable && !(src_host && dst_host)) {
    t.route = Route::StagedPinned;
  }

  if (src_host && dst_host) {  // a host memcpy: nothing for the GPU to do
    const auto t0 = std::chrono::steady_clock::now();
    if (!r.virtual_bytes && r.bytes) std::memcpy(r.dst, r.src, r.bytes);
    t.measured_ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    t.start_ns = t.enqueue_ns;
    t.end_ns = t.start_ns + uint64_t(std::llround(t.measured_ns));
    t.complete = true;
    return t;
  }
  if (r.virtual_bytes) {  // no bytes to move: the link profile times it
    const LinkProfile& l = *m.link;
    const RouteRate& rate = peer ? l.p2p
                            : src_host ? (pageable ? l.h2d_pageable : l.h2d_pinned)
                            : dst_host ? (pageable ? l.d2h_pageable : l.d2h_pinned)
                                       : l.d2d;
    t.start_ns = t.enqueue_ns;
    t.end_ns = t.start_ns + LinkProfile::duration_ns(rate, r.bytes);
    t.simulated = true;
    t.complete = true;
    return t;
  }

  Impl::use(d);
  Impl::Pending p;
  p.device = d;
  p.anchor = m.anchor(d);
  p.start = m.take_event(d, true);
  p.end = m.take_event(d, true);
  try {
    check_cuda(cudaEventRecord(p.start, stream));
    if (peer) {
      check_cuda(cudaMemcpyPeerAsync(r.dst, r.dst_place.device, r.src, r.src_place.device, r.bytes, stream));
    } else {
      check_cuda(cudaMemcpyAsync(r.dst, r.src, r.bytes, cudaMemcpyDefault, stream));
    }
    check_cuda(cudaEventRecord(p.end, stream));
    if (!r.non_blocking) check_cuda(cudaStreamSynchronize(stream));
  } catch (...) {
    m.give_event(d, p.start, true);
    m.give_event(d, p.end, true);
    throw;
  }
  // The driver returns from a pageable copy only once the source was read (SEMANTICS §2).
  t.async = r.non_blocking && !pageable;
  p.timing = t;
  if (!r.non_blocking) {
    m.finish(p);
    return p.timing;
  }
  m.pending.push_back(p);
  return t;
}

void CudaBackend::memset(int device, void* ptr, int value, size_t bytes) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  cudaStream_t s = m.stream(device, kDefaultStream);
  if (bytes == 0 || VirtualAddressSpace::contains(ptr)) return;  // virtual storages hold no bytes
  Impl::use(device);
  check_cuda(cudaMemsetAsync(ptr, value, bytes, s));
}

std::vector<CopyTiming> CudaBackend::take_completed() {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  std::vector<CopyTiming> out;
  size_t keep = 0;
  for (size_t i = 0; i < m.pending.size(); ++i) {
    Impl::Pending& p = m.pending[i];
    const cudaError_t e = cudaEventQuery(p.end);
    if (e == cudaErrorNotReady) {
      cudaGetLastError();
      if (keep != i) m.pending[keep] = std::move(p);
      ++keep;
      continue;
    }
    check_cuda(e);
    m.finish(p);
    out.push_back(p.timing);
  }
  m.pending.resize(keep);
  return out;
}

// --- streams, events, synchronization -------------------------------------------------------

StreamId CudaBackend::create_stream(int device) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  Impl::Device& D = m.dev(device);
  Impl::use(device);
  cudaStream_t s = nullptr;
  check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));  // like PyTorch's stream pool
  D.streams.push_back(s);
  return StreamId(D.streams.size() - 1);
}

EventId CudaBackend::record_event(int device, StreamId stream) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  cudaStream_t s = m.stream(device, stream);
  Impl::use(device);
  cudaEvent_t e = m.take_event(device, false);
  const cudaError_t err = cudaEventRecord(e, s);
  if (err != cudaSuccess) {
    m.give_event(device, e, false);
    check_cuda(err);
  }
  m.events.push_back(Impl::EventSlot{device, e});
  return EventId{device, uint64_t(m.events.size())};
}

void CudaBackend::stream_wait_event(int device, StreamId stream, const EventId& event) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  cudaStream_t s = m.stream(device, stream);
  Impl::EventSlot& e = m.slot(event);
  // Seen complete already (its CUDA event went back to the pool): there is nothing left to wait for.
  if (!e.event) return;
  // The waiting stream's device: stream 0 (nullptr) means that device's legacy default stream. The
  // event may belong to another device; cudaStreamWaitEvent allows that. Once this returns the wait is
  // fixed to the event's current record, so reusing the pooled event later cannot affect it.
  Impl::use(device);
  check_cuda(cudaStreamWaitEvent(s, e.event, 0));
}

bool CudaBackend::event_done(const EventId& event) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  Impl::EventSlot& s = m.slot(event);
  if (!s.event) return true;
  const cudaError_t e = cudaEventQuery(s.event);
  if (e == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  check_cuda(e);
  m.give_event(s.device, s.event, false);
  s.event = nullptr;
  return true;
}

void CudaBackend::synchronize_event(const EventId& event) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  Impl::EventSlot& s = m.slot(event);
  if (!s.event) return;
  check_cuda(cudaEventSynchronize(s.event));
  m.give_event(s.device, s.event, false);
  s.event = nullptr;
}

void CudaBackend::synchronize_stream(int device, StreamId stream) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  cudaStream_t s = m.stream(device, stream);
  Impl::use(device);
  check_cuda(cudaStreamSynchronize(s));
}

void CudaBackend::synchronize_device(int device) {
  Impl& m = *impl_;
  std::lock_guard lock(m.mu);
  m.dev(device);
  Impl::use(device);
  check_cuda(cudaDeviceSynchronize());
}

}  // namespace ds
