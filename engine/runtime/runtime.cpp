// Runtime: backend + allocators + live storages + event log, and the single copy path.
#include "runtime/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include "core/errors.h"
#include "core/format.h"

namespace ds {
namespace {

const char* kCudaErrorSuffix =
    "\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
    "be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to "
    "enable device-side assertions.\n";

thread_local int t_scratch_depth = 0;  // Note [Scratch allocations]

double wall_ns() {
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count());
}

// Note [Host blocks]: pageable (and simulated scratch) bytes are 64-byte aligned, as c10's alloc_cpu gives
// them. glibc's aligned_alloc takes its memalign path for that (several times a malloc's cost, and past
// malloc's per-thread cache), which a small op on the CPU paid once per result: instead malloc 64 bytes
// more and keep the malloc'd address in the word just below the aligned one (malloc's 16-byte alignment
// leaves at least 16 bytes there).
//
// A large block (malloc maps each one afresh and unmaps it on free) is first touched by the copy or kernel that
// fills it: one page fault per 4 KiB page, 25k for a 100 MB tensor - more than the copy itself (a simulated
// device's 100 MB .cpu() spent ~60% of its time faulting). Its 2 MiB-aligned interior is marked MADV_HUGEPAGE,
// so the kernel backs it with transparent huge pages where it allows them ("madvise" or "always"): 512x fewer
// faults. A hint only: the block, its size and what is recorded are the same; pages still come in as touched.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugePageHintBytes = size_t(8) << 20;

void* alloc_host_block(size_t nbytes) {
  if (nbytes > SIZE_MAX - 64) return nullptr;  // reported as not enough memory, like a failed malloc
  void* raw = std::malloc(nbytes + 64);
  if (!raw) return nullptr;
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(raw) + 64) & ~uintptr_t(63);
  reinterpret_cast<void**>(aligned)[-1] = raw;
  if (nbytes >= kHugePageHintBytes) {
    const uintptr_t begin = (aligned + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
    const uintptr_t end = (aligned + nbytes) & ~uintptr_t(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // (a refusal is fine)
  }
  return reinterpret_cast<void*>(aligned);
}

void free_host_block(void* p) {
  if (p) std::free(static_cast<void**>(p)[-1]);
}

}  // namespace

std::shared_ptr<Runtime> Runtime::create(const RuntimeOptions& options) {
  BackendChoice choice = make_backend(options.backend);
  std::shared_ptr<Runtime> rt(
      new Runtime(std::move(choice.backend), choice.note, options.event_log, options.host_memory_limit));
  rt->log_.set_limits(options.log_limits);
  return rt;
}

std::shared_ptr<Runtime> Runtime::create_with_backend(std::unique_ptr<Backend> backend, std::string note) {
  return std::shared_ptr<Runtime>(new Runtime(std::move(backend), std::move(note), true));
}

Runtime::Runtime(std::unique_ptr<Backend> backend, std::string note, bool event_log, uint64_t host_memory_limit)
    : backend_(std::move(backend)),
      backend_note_(std::move(note)),
      host_budget_(std::make_shared<HostMemoryBudget>(host_memory_limit)) {
  log_.set_enabled(event_log);
  simulated_ = backend_->caps().simulated;
  quiet_flag_ = backend_->quiet_flag();
  backend_->share_host_budget(host_budget_);
  for (int i = 0; i < backend_->device_count(); ++i)
    device_allocators_.push_back(std::make_unique<CachingDeviceAllocator>(*backend_, i));
  current_streams_.assign(size_t(backend_->device_count()), kDefaultStream);
  host_allocator_ = std::make_unique<CachingHostAllocator>(*backend_);
}

Runtime::~Runtime() {
  // Storages hold a shared_ptr to the runtime, so none is alive here; finish queued copies first.
  try {
    for (int i = 0; i < backend_->device_count(); ++i) backend_->synchronize_device(i);
  } catch (...) {
  }
  device_allocators_.clear();
  host_allocator_.reset();
}

CachingDeviceAllocator& Runtime::device_allocator(int device) {
  check_cuda_device(device);
  return *device_allocators_[size_t(device)];
}

void Runtime::check_cuda_device(int index) const {
  // One allocator per device, made at construction: their count is the backend's device_count(), without
  // a virtual call on every allocation.
  const int count = int(device_allocators_.size());
  if (count == 0) raise(ErrorKind::RuntimeError, "No CUDA GPUs are available");
  if (index < 0 || index >= count)
    raise(ErrorKind::RuntimeError, std::string("CUDA error: invalid device ordinal") + kCudaErrorSuffix);
}

int Runtime::current_device() const {
  check_cuda_device(0);
  return current_device_;
}

void Runtime::set_current_device(int device) {
  if (device < 0) return;  // torch.cuda.set_device(-1) is a no-op, like PyTorch
  check_cuda_device(device);
  current_device_ = device;
}

StreamId Runtime::current_stream(int device) const {
  check_cuda_device(device);
  return current_streams_[size_t(device)];
}

void Runtime::set_current_stream(int device, StreamId stream) {
  check_cuda_device(device);
  current_streams_[size_t(device)] = stream;
}

Device Runtime::resolve(const Device& device) const {
  if (!device.is_cuda()) return device;
  if (!device.has_index()) return Device(DeviceType::CUDA, current_device());
  check_cuda_device(device.index());
  return device;
}

// Holds the runtime alive (its allocators) for as long as any of its storages lives.
class Runtime::BlockReturn : public StorageDeleter {
 public:
  explicit BlockReturn(std::shared_ptr<Runtime> runtime) : runtime_(std::move(runtime)) {}
  void release(const Storage& s) noexcept override;

  DeviceAllocation device_block;        // when the place is a device
  HostAllocation pinned_block;          // when the place is pinned host memory
  std::function<void()> external_release;  // adopted host memory (torch.from_numpy): given back, not freed
  bool is_scratch = false;                 // Note [Scratch allocations]: raw memory, no allocator, no events
  void* scratch = nullptr;
  size_t scratch_bytes = 0;

 private:
  std::shared_ptr<Runtime> runtime_;
};

void Runtime::enter_scratch() { ++t_scratch_depth; }
void Runtime::exit_scratch() {
  if (t_scratch_depth > 0) --t_scratch_depth;
}
bool Runtime::in_scratch() { return t_scratch_depth > 0; }
int Runtime::scratch_depth() { return t_scratch_depth; }

StoragePtr Runtime::allocate_scratch(Place place, size_t nbytes, bool virtual_bytes, std::unique_ptr<BlockReturn> block) {
  StorageBytes bytes;
  if (nbytes > 0 && !virtual_bytes) {
    // Simulated device memory is host memory: plain heap blocks (no mapping per intermediate); a real GPU's
    // scratch is real device memory, since its values are read back like any device tensor's.
    bytes.data = backend_->caps().simulated ? alloc_host_block(nbytes)
                                            : backend_->device_alloc(place.device, nbytes, false);
    check_lazy(bytes.data != nullptr, [&] {
      return "CUDA out of memory. Tried to allocate " + format_bytes(nbytes) + " (DeviceScope scratch for a composite op)";
    });
  }
  bytes.block_bytes = nbytes;
  bytes.block_address = reinterpret_cast<uint64_t>(bytes.data);
  block->is_scratch = true;
  block->scratch = bytes.data;
  block->scratch_bytes = nbytes;
  const uint64_t id = next_storage_id_.fetch_add(1, std::memory_order_relaxed);
  auto s = std::make_shared<Storage>(id, place, nbytes, virtual_bytes, bytes, log_.last_seq(), std::move(block), Role::Tensor);
  s->mark_scratch();
  return s;
}

StoragePtr Runtime::allocate(Place place, size_t nbytes, bool virtual_bytes, Role role) {
  auto block = std::make_unique<BlockReturn>(shared_from_this());
  StorageBytes bytes;
  switch (place.kind) {
    case MemoryKind::Device: {
      if (t_scratch_depth > 0) {
        check_cuda_device(place.device);
        return allocate_scratch(place, nbytes, virtual_bytes, std::move(block));
      }
      CachingDeviceAllocator& a = device_allocator(place.device);
      const StreamId stream = current_streams_[size_t(place.device)];
      try {
        block->device_block = a.allocate(nbytes, stream, virtual_bytes);
      } catch (const Error& e) {
        // The allocator retried after emptying its own cache only; host RAM may be held by the other
        // simulated devices' caches (a real GPU's memory is its own, so this never applies there).
        const bool host_short = e.kind() == ErrorKind::OutOfMemoryError &&
                                !backend_->out_of_memory_note(place.device).empty();
        if (!host_short || !release_host_backed_caches()) throw;
        block->device_block = a.allocate(nbytes, stream, virtual_bytes);
      }
      if (!virtual_bytes) bytes.data = block->device_block.ptr;
      bytes.block_bytes = block->device_block.size;
      bytes.block_address = reinterpret_cast<uint64_t>(block->device_block.ptr);
      break;
    }
    case MemoryKind::Pinned:
      if (!virtual_bytes && nbytes > 0) {
        block->pinned_block = host_allocator_->allocate(nbytes);
        bytes.data = block->pinned_block.ptr;
      }
      bytes.block_bytes = block->pinned_block.size;
      bytes.block_address = reinterpret_cast<uint64_t>(block->pinned_block.ptr);
      break;
    case MemoryKind::Pageable:
      if (!virtual_bytes && nbytes > 0) {
        // Same wording as c10's DefaultCPUAllocator, so a huge request is an error, not a killed process.
        const auto too_much = [nbytes] {
          return "[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: not enough memory: you tried to allocate " +
                 std::to_string(nbytes) + " bytes.";
        };
        // Counted in total, with the simulated devices' memory (Note [Host memory budget]): many allocations
        // that each fit can still exceed RAM together, and touching them would bring in the kernel's OOM
        // killer and lose the recording.
        check_lazy(host_budget_->try_take(nbytes) || (release_host_backed_caches() && host_budget_->try_take(nbytes)),
                   too_much);
        bytes.data = alloc_host_block(nbytes);  // Note [Host blocks]
        if (!bytes.data) host_budget_->give_back(nbytes);
        check_lazy(bytes.data != nullptr, too_much);
        pageable_bytes_ += nbytes;
      }
      bytes.block_bytes = nbytes;
      bytes.block_address = reinterpret_cast<uint64_t>(bytes.data);
      break;
  }
  return register_storage(place, nbytes, virtual_bytes, bytes, std::move(block), role);
}

StoragePtr Runtime::adopt_host_memory(void* data, size_t nbytes, std::function<void()> release) {
  auto block = std::make_unique<BlockReturn>(shared_from_this());
  block->external_release = std::move(release);
  pageable_bytes_ += nbytes;
  host_budget_->take(nbytes);  // numpy's buffer exists already: counted, never refused
  const StorageBytes bytes{data, nbytes, reinterpret_cast<uint64_t>(data)};
  return register_storage(Place::pageable(), nbytes, false, bytes, std::move(block), Role::Tensor);
}

void Runtime::grow_storage(const StoragePtr& s, size_t nbytes) {
  if (nbytes <= s->nbytes()) return;
  StoragePtr fresh = allocate(s->place(), nbytes, s->is_virtual(), s->role());
  if (!s->is_virtual() && s->nbytes() > 0) copy_bytes(*fresh, 0, *s, 0, s->nbytes(), false);
  s->swap_bytes(*fresh);  // both stay in the registry as they are (Note [Live registry]: it holds objects, not ids)
}  // `fresh` now holds the old bytes under the old id: dropping it frees them, logged as that id's free

void Runtime::resize_storage(const StoragePtr& s, size_t nbytes) {
  if (nbytes == s->nbytes()) return;
  StoragePtr fresh = allocate(s->place(), nbytes, s->is_virtual(), s->role());
  const size_t keep = std::min(nbytes, s->nbytes());
  if (!s->is_virtual() && keep > 0) copy_bytes(*fresh, 0, *s, 0, keep, false);
  s->swap_bytes(*fresh);  // as grow_storage
}

StoragePtr Runtime::register_storage(Place place, size_t nbytes, bool virtual_bytes, StorageBytes bytes,
                                     std::unique_ptr<BlockReturn> block, Role role) {
  const uint64_t id = next_storage_id_.fetch_add(1, std::memory_order_relaxed);
  static const std::string kNoLabel;
  const AllocatorFigures after = place.kind == MemoryKind::Device ? block->device_block.after : figures_after(place);
  record_alloc_event(EventKind::Alloc, place, id, nbytes, kNoLabel, Role::Tensor, after);
  auto s = std::make_shared<Storage>(id, place, nbytes, virtual_bytes, bytes, log_.last_seq(), std::move(block), role);
  {
    std::lock_guard<std::mutex> lock(registry_mutex_);
    link_live(*s);
  }
  return s;
}

void Runtime::link_live(Storage& s) {
  s.registry_prev = nullptr;
  s.registry_next = live_head_;
  if (live_head_) live_head_->registry_prev = &s;
  live_head_ = &s;
  ++live_count_;
}

void Runtime::unlink_live(const Storage& s) {
  if (s.registry_prev) s.registry_prev->registry_next = s.registry_next;
  else if (live_head_ == &s) live_head_ = s.registry_next;
  else return;  // never linked
  if (s.registry_next) s.registry_next->registry_prev = s.registry_prev;
  s.registry_prev = s.registry_next = nullptr;
  --live_count_;
}

void Runtime::BlockReturn::release(const Storage& s) noexcept {
  Runtime& rt = *runtime_;
  if (is_scratch) {  // Note [Scratch allocations]: never registered, never logged
    if (!scratch) return;
    if (rt.backend_->caps().simulated) free_host_block(scratch);
    else {
      try {
        rt.backend_->device_free(s.place().device, scratch, scratch_bytes, false);
      } catch (...) {
      }
    }
    return;
  }
  {
    std::lock_guard<std::mutex> lock(rt.registry_mutex_);
    rt.unlink_live(s);
  }
  bool have_figures = false;  // a device free hands back its allocator's figures
  AllocatorFigures after;
  try {
    switch (s.place().kind) {
      case MemoryKind::Device:
        after = rt.device_allocators_[size_t(s.place().device)]->free(device_block);
        have_figures = true;
        break;
      case MemoryKind::Pinned:
        if (pinned_block.ptr) rt.host_allocator_->free(pinned_block.ptr);
        break;
      case MemoryKind::Pageable:
        if (external_release) {
          rt.pageable_bytes_ -= s.nbytes();
          rt.host_budget_->give_back(s.nbytes());
          auto release = std::move(external_release);
          release();
        } else if (s.data()) {
          free_host_block(s.data());
          rt.pageable_bytes_ -= s.nbytes();
          rt.host_budget_->give_back(s.nbytes());
        }
        break;
    }
  } catch (...) {
    // A destructor must not throw; a failed free leaves the block accounted, which the views show.
  }
  if (!rt.log_.enabled()) return;
  if (!have_figures) {
    try {
      after = rt.figures_after(s.place());
    } catch (...) {
    }
  }
  rt.record_alloc_event(EventKind::Free, s.place(), s.id(), s.nbytes(), s.owner(), s.role(), after);
}

bool Runtime::release_host_backed_caches() {
  if (!backend_->caps().simulated) return false;  // a real GPU's caches hold no host memory
  const uint64_t before = host_budget_->in_use();
  for (auto& a : device_allocators_) a->empty_cache();
  host_allocator_->empty_cache();
  return host_budget_->in_use() < before;
}

AllocatorFigures Runtime::figures_after(Place place) const {
  switch (place.kind) {
    case MemoryKind::Device: {
      const DeviceAllocatorStats st = device_allocators_[size_t(place.device)]->stats();
      return {st.allocated, st.reserved};
    }
    case MemoryKind::Pinned: {
      const HostAllocatorStats st = host_allocator_->stats();
      return {st.allocated, st.reserved};
    }
    case MemoryKind::Pageable: break;
  }
  return {pageable_bytes_, pageable_bytes_};
}

void Runtime::record_alloc_event(EventKind kind, Place place, uint64_t storage_id, uint64_t nbytes,
                                 const std::string& label, Role role, AllocatorFigures after) {
  if (!log_.enabled()) return;
  Event e;
  e.kind = kind;
  e.time_ns = backend_->now_ns();
  e.place = place;
  e.storage_id = storage_id;
  e.bytes = nbytes;
  e.label = label;
  e.role = role;
  e.allocated_after = after.allocated;
  e.reserved_after = after.reserved;
  log_.append(std::move(e));
}

uint64_t Runtime::host_copy(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes,
                           const CopyOrigin& origin) {
  const bool virtual_bytes = dst.is_virtual() || src.is_virtual();
  const double t0 = wall_ns();
  if (!virtual_bytes && bytes > 0)
    std::memcpy(static_cast<char*>(dst.data()) + dst_offset, static_cast<const char*>(src.data()) + src_offset, bytes);
  const double measured = wall_ns() - t0;
  if (dst.place().kind == src.place().kind || !log_.enabled()) return 0;  // a copy inside one place is not a transfer
  TransferRecord r;
  r.src = src.place();
  r.dst = dst.place();
  r.bytes = bytes;
  r.route = Route::Direct;
  r.enqueue_ns = r.start_ns = backend_->now_ns();
  r.end_ns = r.start_ns + uint64_t(measured);
  r.measured_ns = measured;
  r.simulated = false;  // a real host memcpy, measured
  r.complete = true;
  r.src_storage = src.id();
  r.dst_storage = dst.id();
  r.owner = origin.owner.empty() ? src.owner() : origin.owner;
  return log_.add_transfer(std::move(r));
}

uint64_t Runtime::copy_bytes(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes,
                             bool non_blocking, int stream_device, const CopyOrigin& origin) {
  if (dst.place().is_host() && src.place().is_host()) return host_copy(dst, dst_offset, src, src_offset, bytes, origin);

  // The stream that orders the copy: the device side's current stream (the destination's for D2D).
  if (stream_device < 0) stream_device = dst.place().kind == MemoryKind::Device ? dst.place().device : src.place().device;
  CopyRequest req;
  req.dst = dst.data() ? static_cast<char*>(dst.data()) + dst_offset : nullptr;
  req.dst_place = dst.place();
  req.src = src.data() ? static_cast<const char*>(src.data()) + src_offset : nullptr;
  req.src_place = src.place();
  req.bytes = bytes;
  req.stream_device = stream_device;
  req.stream = current_streams_[size_t(stream_device)];
  req.non_blocking = non_blocking;
  req.virtual_bytes = dst.is_virtual() || src.is_virtual();
  if (src.is_scratch() || dst.is_scratch()) {
    // Note [Scratch allocations]: a composite op's values written into its real result are the kernel's own
    // output, not a transfer: copied (on the host for simulated devices), never recorded or timed.
    if (req.virtual_bytes || bytes == 0) return 0;
    if (backend_->caps().simulated) std::memcpy(req.dst, req.src, bytes);
    else {
      req.non_blocking = false;
      backend_->copy(req);
    }
    return 0;
  }
  const CopyTiming t = backend_->copy(req);

  // Note [Pinned staging]: a pinned block read or written by an in-flight async copy must not be
  // reused before the copy finishes, so the host allocator holds it until this event completes.
  if (t.async && !t.complete) {
    // The host allocator owns the event from here (it destroys it once done); a copy with no pinned side
    // (device to device) has no block to hold.
    const bool src_pinned = src.place().kind == MemoryKind::Pinned && src.data();
    const bool dst_pinned = dst.place().kind == MemoryKind::Pinned && dst.data();
    if (src_pinned || dst_pinned) {
      const EventId ev = backend_->record_event(stream_device, req.stream);
      host_allocator_->record_event(src_pinned ? src.data() : dst.data(), ev);
    }
  }
  if (!log_.enabled()) return 0;
  TransferRecord r;
  r.src = src.place();
  r.dst = dst.place();
  r.bytes = bytes;
  r.route = t.route;
  r.non_blocking = non_blocking;
  r.async = t.async;
  r.stream_device = stream_device;
  r.stream = req.stream;
  r.enqueue_ns = t.enqueue_ns;
  r.start_ns = t.start_ns;
  r.end_ns = t.end_ns;
  r.measured_ns = t.measured_ns;
  r.simulated = t.simulated;
  r.complete = t.complete;
  r.src_storage = src.id();
  r.dst_storage = dst.id();
  r.owner = origin.owner.empty() ? src.owner() : origin.owner;
  r.backend_ticket = t.ticket;
  const uint64_t id = log_.add_transfer(std::move(r));
  poll();
  return id;
}

void Runtime::poll() {
  for (const CopyTiming& t : backend_->take_completed())
    log_.complete_transfer(t.ticket, t.start_ns, t.end_ns, t.measured_ns);
}

void Runtime::note_host_read(const Storage& s) {
  if (!log_.has_pending()) return;
  poll();  // a copy whose modelled end has passed has landed: reading it is not stale
  if (log_.has_pending()) log_.note_host_read(s.id(), backend_->now_ns());
}

void Runtime::synchronize() {
  for (int i = 0; i < backend_->device_count(); ++i) backend_->synchronize_device(i);
  poll();
  if (log_.enabled()) {
    Event e;
    e.kind = EventKind::Sync;
    e.time_ns = backend_->now_ns();
    e.label = "torch.cuda.synchronize()";
    log_.append(std::move(e));
  }
}

void Runtime::synchronize_device(int device) {
  check_cuda_device(device);
  backend_->synchronize_device(device);
  poll();
  if (log_.enabled()) {
    Event e;
    e.kind = EventKind::Sync;
    e.time_ns = backend_->now_ns();
    e.place = Place::cuda(device);
    e.label = "synchronize cuda:" + std::to_string(device);
    log_.append(std::move(e));
  }
}

void Runtime::note_module_move(bool begin, const std::string& module_name, const std::string& target) {
  if (!log_.enabled()) return;
  Event e;
  e.kind = begin ? EventKind::ModuleMoveBegin : EventKind::ModuleMoveEnd;
  e.time_ns = backend_->now_ns();
  e.label = module_name + " -> " + target;
  log_.append(std::move(e));
}

void Runtime::note(const std::string& text) {
  if (!log_.enabled()) return;
  Event e;
  e.kind = EventKind::Note;
  e.time_ns = backend_->now_ns();
  e.label = text;
  log_.append(std::move(e));
}


std::vector<StoragePtr> Runtime::live_storages() const {
  std::vector<StoragePtr> out;
  std::lock_guard<std::mutex> lock(registry_mutex_);
  out.reserve(live_count_);
  // Oldest first, as they were made. One whose last owner is dropping it right now is still linked until its
  // deleter takes this lock; its weak reference no longer locks, so it is skipped.
  for (Storage* s = live_head_; s; s = s->registry_next)
    if (StoragePtr p = s->weak_from_this().lock()) out.push_back(std::move(p));
  std::reverse(out.begin(), out.end());
  return out;
}

size_t Runtime::live_storage_count() const {
  std::lock_guard<std::mutex> lock(registry_mutex_);
  return live_count_;
}

}  // namespace ds
