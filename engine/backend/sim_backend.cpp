// Simulated CUDA devices: lazily-backed memory, real byte movement, modelled deterministic timing.
// See Note [Simulated clock], Note [Simulated async bytes] and Note [Host copies and the modelled clock].
#include "backend/sim_backend.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/format.h"

namespace ds {

namespace {

// Untouched pages of these mappings cost nothing: no RSS, no swap/commit reservation.
void* map_lazy(size_t bytes) {
  void* p = mmap(nullptr, bytes == 0 ? 1 : bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void unmap(void* p, size_t bytes) { munmap(p, bytes == 0 ? 1 : bytes); }

// The one real byte move of every copy; returns its wall time in ns.
double timed_memcpy(void* dst, const void* src, size_t bytes) {
  const auto t0 = std::chrono::steady_clock::now();
  std::memcpy(dst, src, bytes);
  const auto t1 = std::chrono::steady_clock::now();
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
}

[[noreturn]] void invalid_argument() { raise(ErrorKind::RuntimeError, "CUDA error: invalid argument"); }

bool overlaps(const void* a, size_t an, const void* b, size_t bn) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + bn && pb < pa + an;
}

}  // namespace

SimBackend::SimBackend(int devices, uint64_t capacity_bytes, const std::string& link)
    : link_(find_link_profile(link)) {
  check(devices >= 0 && devices <= VirtualAddressSpace::kMaxDevices,
        "number of simulated devices must be between 0 and " +
            std::to_string(VirtualAddressSpace::kMaxDevices) + ", got " + std::to_string(devices),
        ErrorKind::ValueError);
  devices_.resize(size_t(devices));
  for (DeviceState& d : devices_) {
    d.capacity = capacity_bytes;
    d.stream_busy.assign(1, 0);  // the default stream
  }
}

SimBackend::~SimBackend() {
  for (auto& [ptr, m] : mappings_) {
    unmap(ptr, m.bytes);
    host_budget_->give_back(m.bytes);
  }
}

void SimBackend::share_host_budget(std::shared_ptr<HostMemoryBudget> budget) {
  std::lock_guard lock(mu_);
  // What is mapped already moves over with it, so that both counts stay exact.
  uint64_t mapped = 0;
  for (const auto& [ptr, m] : mappings_) mapped += m.bytes;
  host_budget_->give_back(mapped);
  budget->take(mapped);
  host_budget_ = std::move(budget);
}

std::string SimBackend::out_of_memory_note(int device) const {
  std::lock_guard lock(mu_);
  const bool refused = device < 0 ? pinned_host_refused_
                                  : device < int(devices_.size()) && devices_[size_t(device)].host_refused;
  if (!refused) return "";
  return " DeviceScope: simulated device memory is host memory, and this machine's RAM (" +
         format_bytes(host_budget_->limit()) + ") cannot hold it: this process's tensors already hold " +
         format_bytes(host_budget_->in_use()) +
         " of it (pageable, pinned and simulated device memory together). The simulated capacity is larger than "
         "the host's memory; use virtual tensors (devicescope.virtual_mode() or virtual=True) to place and "
         "account what does not fit without its bytes.";
}

BackendCaps SimBackend::caps() const {
  BackendCaps c;
  c.async_copy = true;
  c.pinned_host = true;
  c.peer_copy = true;
  c.simulated = true;
  return c;
}

void SimBackend::check_device(int device) const {
  if (device < 0 || device >= int(devices_.size()))
    raise(ErrorKind::RuntimeError, "CUDA error: invalid device ordinal");
}

DeviceProps SimBackend::props(int device) const {
  check_device(device);
  DeviceProps p;
  p.name = "Simulated CUDA device " + std::to_string(device) + " (" + link_.name + ")";
  p.total_bytes = devices_[size_t(device)].capacity;
  p.link = link_.name;
  p.simulated = true;
  p.major = link_.sm_major;
  p.minor = link_.sm_minor;
  return p;
}

// --- memory -------------------------------------------------------------------------------

void* SimBackend::device_alloc(int device, size_t bytes, bool virtual_bytes) {
  std::lock_guard lock(mu_);
  check_device(device);
  DeviceState& d = devices_[size_t(device)];
  d.host_refused = false;
  if (bytes > d.capacity - d.used) return nullptr;  // used <= capacity always holds
  if (virtual_bytes) {
    void* p = virtual_space_.take(device, bytes);
    if (p) d.used += bytes;
    return p;
  }
  if (!host_budget_->try_take(bytes)) {
    d.host_refused = true;
    return nullptr;
  }
  void* p = map_lazy(bytes);
  if (!p) {
    host_budget_->give_back(bytes);
    return nullptr;
  }
  mappings_[p] = Mapping{bytes, device};
  d.used += bytes;
  return p;
}

void SimBackend::device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) {
  std::lock_guard lock(mu_);
  check_device(device);
  DeviceState& d = devices_[size_t(device)];
  if (virtual_bytes) {
    if (!VirtualAddressSpace::contains(ptr) || bytes > d.used) invalid_argument();
    d.used -= bytes;
    return;
  }
  auto it = mappings_.find(ptr);
  if (it == mappings_.end() || it->second.device != device) invalid_argument();
  // cudaFree synchronizes the device; a peer copy queued elsewhere may still touch the range.
  uint64_t until = 0;
  for (uint64_t b : d.stream_busy) until = std::max(until, b);
  advance_to(until);
  wait_for_range(ptr, it->second.bytes);
  d.used -= it->second.bytes;
  unmap(ptr, it->second.bytes);
  host_budget_->give_back(it->second.bytes);
  mappings_.erase(it);
}

uint64_t SimBackend::device_free_bytes(int device) const {
  std::lock_guard lock(mu_);
  check_device(device);
  const DeviceState& d = devices_[size_t(device)];
  return d.capacity - d.used;
}

void* SimBackend::pinned_alloc(size_t bytes) {
  std::lock_guard lock(mu_);
  // Without CUDA nothing can be page-locked: this is ordinary lazily-backed host memory that the
  // simulation treats as pinned (its copies use the pinned rates and may be asynchronous).
  pinned_host_refused_ = !host_budget_->try_take(bytes);
  if (pinned_host_refused_) return nullptr;
  void* p = map_lazy(bytes);
  if (!p) {
    host_budget_->give_back(bytes);
    return nullptr;
  }
  mappings_[p] = Mapping{bytes, -1};
  pinned_used_ += bytes;
  return p;
}

void SimBackend::pinned_free(void* ptr, size_t bytes) {
  std::lock_guard lock(mu_);
  auto it = mappings_.find(ptr);
  if (it == mappings_.end() || it->second.device != -1) invalid_argument();
  wait_for_range(ptr, it->second.bytes);  // never let a queued copy land in unmapped memory
  pinned_used_ -= it->second.bytes;
  unmap(ptr, it->second.bytes);
  host_budget_->give_back(it->second.bytes);
  mappings_.erase(it);
}

// --- clock and queued work -----------------------------------------------------------------

void SimBackend::advance_to(uint64_t t) {
  if (t > now_) {
    now_ = t;
    published_now_.store(t, std::memory_order_release);
  }
  land_due();
}

void SimBackend::recompute_quiet() {
  bool quiet = pending_.empty() && completed_.empty();
  for (const DeviceState& d : devices_)
    for (uint64_t b : d.stream_busy) quiet = quiet && b <= now_;
  quiet_.store(quiet, std::memory_order_release);
}

void SimBackend::land_due() {
  size_t n = 0;
  while (n < pending_.size() && pending_[n].end_ns <= now_) apply(pending_[n++]);
  if (n) pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(n));
}

void SimBackend::apply(PendingOp& op) {
  double measured = 0;
  if (!op.virtual_bytes) {
    if (op.src) {
      measured = timed_memcpy(op.dst, op.src, op.bytes);
    } else {
      std::memset(op.dst, op.fill_value, op.bytes);
    }
  }
  if (op.report) {
    op.timing.complete = true;
    op.timing.measured_ns = measured;
    completed_.push_back(op.timing);
    quiet_.store(false, std::memory_order_relaxed);  // Note [Quiet simulator]: a completion to report
  }
}

void SimBackend::wait_for_range(const void* ptr, size_t bytes) {
  uint64_t until = 0;
  for (const PendingOp& op : pending_) {
    if (overlaps(op.dst, op.bytes, ptr, bytes) || (op.src && overlaps(op.src, op.bytes, ptr, bytes)))
      until = std::max(until, op.end_ns);
  }
  advance_to(until);
}

void SimBackend::insert_pending(const PendingOp& op) {
  auto at = std::upper_bound(pending_.begin(), pending_.end(), op, [](const PendingOp& a, const PendingOp& b) {
    return a.end_ns != b.end_ns ? a.end_ns < b.end_ns : a.seq < b.seq;
  });
  pending_.insert(at, op);
  quiet_.store(false, std::memory_order_relaxed);  // Note [Quiet simulator]
}

uint64_t& SimBackend::busy_ref(int device, StreamId stream) {
  check_device(device);
  std::vector<uint64_t>& s = devices_[size_t(device)].stream_busy;
  if (stream < 0 || size_t(stream) >= s.size())
    raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
  return s[size_t(stream)];
}

void SimBackend::advance_host_ns(uint64_t ns) {
  std::lock_guard lock(mu_);
  advance_to(now_ + ns);
}

uint64_t SimBackend::now_ns() const {
  return published_now_.load(std::memory_order_acquire);  // Note [Quiet simulator]
}

// --- copies ----------------------------------------------------------------------------------

CopyTiming SimBackend::host_copy(const CopyRequest& r) {
  CopyTiming t;
  t.ticket = ++next_ticket_;
  t.route = Route::Direct;
  t.complete = true;
  t.enqueue_ns = t.start_ns = now_;
  if (!r.virtual_bytes) t.measured_ns = timed_memcpy(r.dst, r.src, r.bytes);
  t.end_ns = now_ + uint64_t(std::llround(t.measured_ns));
  t.simulated = false;  // a real host memcpy, measured (Note [Host copies and the modelled clock])
  return t;
}

CopyTiming SimBackend::copy(const CopyRequest& r) {
  std::lock_guard lock(mu_);
  if (!r.src_place.is_host()) check_device(r.src_place.device);
  if (!r.dst_place.is_host()) check_device(r.dst_place.device);
  uint64_t& busy = busy_ref(r.stream_device, r.stream);
  if (r.bytes > 0 && !r.virtual_bytes && (!r.dst || !r.src)) invalid_argument();
  if (r.src_place.is_host() && r.dst_place.is_host()) return host_copy(r);

  const RouteRate* rate = nullptr;
  Route route = Route::Direct;
  bool pageable = false;
  if (r.src_place.is_host()) {
    pageable = r.src_place.kind == MemoryKind::Pageable;
    rate = pageable ? &link_.h2d_pageable : &link_.h2d_pinned;
  } else if (r.dst_place.is_host()) {
    pageable = r.dst_place.kind == MemoryKind::Pageable;
    rate = pageable ? &link_.d2h_pageable : &link_.d2h_pinned;
  } else if (r.src_place.device == r.dst_place.device) {
    rate = &link_.d2d;
  } else {
    rate = &link_.p2p;
    route = Route::Peer;
  }
  if (pageable) route = Route::StagedPinned;

  CopyTiming t;
  t.ticket = ++next_ticket_;
  t.route = route;
  t.simulated = true;
  t.enqueue_ns = now_;
  t.start_ns = std::max(now_, busy);
  t.end_ns = t.start_ns + LinkProfile::duration_ns(*rate, r.bytes);
  busy = t.end_ns;
  quiet_.store(false, std::memory_order_relaxed);  // Note [Quiet simulator]: the stream is busy past the clock

  // Pageable memory: the host waits for the staged copy whatever non_blocking says (SEMANTICS §2).
  if (!r.non_blocking || pageable) {
    advance_to(t.start_ns);  // earlier work on this stream lands first (stream order)
    if (!r.virtual_bytes && r.bytes > 0) t.measured_ns = timed_memcpy(r.dst, r.src, r.bytes);
    t.complete = true;
    advance_to(t.end_ns);
    return t;
  }

  t.async = true;
  PendingOp op;
  op.end_ns = t.end_ns;
  op.seq = ++next_seq_;
  op.dst = r.dst;
  op.src = r.src;
  op.bytes = r.bytes;
  op.virtual_bytes = r.virtual_bytes || r.bytes == 0;
  op.report = true;
  op.timing = t;
  insert_pending(op);
  advance_to(now_ + kLaunchOverheadNs);  // may land it already: it is then reported by take_completed
  return t;
}

void SimBackend::memset(int device, void* ptr, int value, size_t bytes) {
  std::lock_guard lock(mu_);
  const uint64_t busy = busy_ref(device, kDefaultStream);
  if (bytes == 0 || VirtualAddressSpace::contains(ptr)) return;  // virtual storages hold no bytes
  if (!ptr) invalid_argument();
  if (busy <= now_) {
    std::memset(ptr, value, bytes);
    return;
  }
  // Queued work on the default stream writes first: the fill lands after it, in stream order.
  PendingOp op;
  op.end_ns = busy;
  op.seq = ++next_seq_;
  op.dst = ptr;
  op.bytes = bytes;
  op.fill_value = value;
  insert_pending(op);
}

// --- streams, events, synchronization -------------------------------------------------------

StreamId SimBackend::create_stream(int device) {
  std::lock_guard lock(mu_);
  check_device(device);
  std::vector<uint64_t>& s = devices_[size_t(device)].stream_busy;
  s.push_back(0);
  return StreamId(s.size() - 1);
}

EventId SimBackend::record_event(int device, StreamId stream) {
  std::lock_guard lock(mu_);
  const uint64_t busy = busy_ref(device, stream);
  const uint64_t id = ++last_event_id_;  // never reused: a stale id stays invalid
  events_.emplace(id, EventRecord{device, std::max(busy, now_)});
  return EventId{device, id};
}

void SimBackend::destroy_event(const EventId& event) {
  std::lock_guard lock(mu_);
  auto it = events_.find(event.id);
  if (it != events_.end() && it->second.device == event.device) events_.erase(it);
}

const SimBackend::EventRecord& SimBackend::event_ref(const EventId& event) const {
  auto it = events_.find(event.id);
  if (it == events_.end() || it->second.device != event.device)
    raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
  return it->second;
}

void SimBackend::stream_wait_event(int device, StreamId stream, const EventId& event) {
  std::lock_guard lock(mu_);
  const uint64_t when = event_ref(event).time_ns;  // validate both before changing anything
  uint64_t& busy = busy_ref(device, stream);
  // Only the GPU side waits: later copies on `stream` start at max(host now, busy) >= the event's time.
  // The host clock does not move (Note [Simulated clock]).
  busy = std::max(busy, when);
  quiet_.store(false, std::memory_order_relaxed);  // Note [Quiet simulator]
}

bool SimBackend::event_done(const EventId& event) {
  std::lock_guard lock(mu_);
  land_due();
  return now_ >= event_ref(event).time_ns;
}

void SimBackend::synchronize_event(const EventId& event) {
  std::lock_guard lock(mu_);
  advance_to(event_ref(event).time_ns);
}

void SimBackend::synchronize_stream(int device, StreamId stream) {
  std::lock_guard lock(mu_);
  advance_to(busy_ref(device, stream));
}

void SimBackend::synchronize_device(int device) {
  check_device(device);  // devices_ never changes size after construction
  if (quiet_.load(std::memory_order_acquire)) return;  // Note [Quiet simulator]: nothing to wait for
  std::lock_guard lock(mu_);
  uint64_t until = 0;
  for (uint64_t b : devices_[size_t(device)].stream_busy) until = std::max(until, b);
  advance_to(until);
  recompute_quiet();
}

std::vector<CopyTiming> SimBackend::take_completed() {
  if (quiet_.load(std::memory_order_acquire)) return {};  // Note [Quiet simulator]: nothing queued or landed
  std::lock_guard lock(mu_);
  land_due();
  std::vector<CopyTiming> out;
  out.swap(completed_);
  recompute_quiet();
  return out;
}

// --- figures -------------------------------------------------------------------------------

uint64_t SimBackend::used_bytes(int device) const {
  std::lock_guard lock(mu_);
  check_device(device);
  return devices_[size_t(device)].used;
}

uint64_t SimBackend::pinned_bytes() const {
  std::lock_guard lock(mu_);
  return pinned_used_;
}

size_t SimBackend::pending_ops() const {
  std::lock_guard lock(mu_);
  return pending_.size();
}

uint64_t SimBackend::stream_busy_until(int device, StreamId stream) const {
  std::lock_guard lock(mu_);
  check_device(device);
  const std::vector<uint64_t>& s = devices_[size_t(device)].stream_busy;
  if (stream < 0 || size_t(stream) >= s.size())
    raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
  return s[size_t(stream)];
}

}  // namespace ds
