// Runtime: owns the backend, the allocators, the live-storage registry, the event log and the single
// copy path. No process-wide singletons: tests, the CLI and the app each build their own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "alloc/caching_device_allocator.h"
#include "alloc/caching_host_allocator.h"
#include "backend/backend.h"
#include "core/device.h"
#include "runtime/copy_origin.h"
#include "runtime/storage.h"
#include "trace/event_log.h"
#include "trace/snapshot.h"

namespace ds {

struct RuntimeOptions {
  BackendOptions backend;
  bool event_log = true;
  EventLogLimits log_limits;  // how many recent events/transfers stay in memory (Note [Bounded event log])
  uint64_t host_memory_limit = 0;  // host RAM tensors may hold (Note [Host memory budget]); 0: physical RAM
};

class Runtime : public std::enable_shared_from_this<Runtime> {
 public:
  static std::shared_ptr<Runtime> create(const RuntimeOptions& options = {});
  static std::shared_ptr<Runtime> create_with_backend(std::unique_ptr<Backend> backend, std::string note = "");
  ~Runtime();

  Backend& backend() { return *backend_; }
  const Backend& backend() const { return *backend_; }
  const std::string& backend_note() const { return backend_note_; }
  int device_count() const { return backend_->device_count(); }
  CachingDeviceAllocator& device_allocator(int device);
  CachingHostAllocator& host_allocator() { return *host_allocator_; }
  EventLog& log() { return log_; }
  const EventLog& log() const { return log_; }

  // torch.cuda.current_device() / set_device(i). Raise when CUDA is off or the index is out of range.
  int current_device() const;
  void set_current_device(int device);
  // Validates a device and resolves an index-less `cuda` to the current device.
  Device resolve(const Device& device) const;
  // Raises PyTorch's errors when CUDA is off ("No CUDA GPUs are available") or the ordinal is bad.
  void check_cuda_device(int index) const;

  // Storages. Pageable and pinned places are host memory; Device places come from the caching allocator.
  StoragePtr allocate(Place place, size_t nbytes, bool virtual_bytes = false, Role role = Role::Tensor);
  // Note [Scratch allocations]: values may be computed on the host, but what is recorded must be what ATen's
  // CUDA kernels allocate. A composite op (GELU, a loss, attention) computed from smaller ops makes
  // intermediates its CUDA kernel never allocates: while a thread is inside a scratch scope, its device
  // allocations bypass the caching allocator, the event log and the live registry (raw backend memory, freed
  // when the last view dies), so they appear in no figure. Nested scopes count; per thread.
  static void enter_scratch();
  static void exit_scratch();
  static bool in_scratch();
  static int scratch_depth();
  // Note [Growing a storage] (runtime/storage.h): `s` gets new bytes of `nbytes` in its place, the old ones
  // copied over (a recorded copy where copies are), then freed; every view of `s` sees the new bytes.
  void grow_storage(const StoragePtr& s, size_t nbytes);
  // UntypedStorage.resize_(nbytes) to any size, 0 included: as grow_storage, keeping the first min(old, new)
  // bytes. FSDP frees an unsharded parameter's storage this way under every view autograd saved of it, and
  // gives it bytes again before backward reads them.
  void resize_storage(const StoragePtr& s, size_t nbytes);
  // Pageable host memory owned by someone else (torch.from_numpy shares the array's buffer): accounted and
  // logged like an allocation; `release` runs instead of free() when the last view dies.
  StoragePtr adopt_host_memory(void* data, size_t nbytes, std::function<void()> release);

  // The single copy path: moves raw bytes between two storages, records the transfer (route, stream,
  // timing, owner: origin.owner, else the source's) and returns its id (0 when nothing is recorded: a copy
  // inside one place).
  uint64_t copy_bytes(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes,
                      bool non_blocking, int stream_device = -1, const CopyOrigin& origin = {});

  // The stream copies are issued on (torch.cuda.stream(s) context); default stream 0.
  StreamId current_stream(int device) const;
  void set_current_stream(int device, StreamId stream);

  // Sync points: torch.cuda.synchronize(device=None) / stream and event syncs are backend calls followed by poll().
  void synchronize();
  void synchronize_device(int device);
  void poll();  // fold finished async copies into the event log
  // Before the host touches a simulated device's bytes (host_writable): the device's queued work done and
  // folded in, as synchronize_device(device) then poll() on the backend would. A quiet simulator (Note [Quiet
  // simulator]) has nothing to do, which a small op's three operands would otherwise each ask through two
  // virtual calls. `device` is a valid index (a storage lives on it).
  void settle_for_host_access(int device) {
    if (quiet_flag_ && quiet_flag_->load(std::memory_order_acquire)) return;
    backend_->synchronize_device(device);
    poll();
  }
  bool simulated() const { return simulated_; }  // backend().caps().simulated, fixed at construction
  // Note [Host reads of in-flight copies]: the host is reading the values of host storage `s` (item(),
  // printing, host compute) without a sync point. A copy into it still in flight means the read sees the
  // bytes from before the copy; the copy's record keeps when (TransferRecord::host_read_ns), so the
  // Transfers view can mark the read on the copy. Cheap when nothing is in flight.
  void note_host_read(const Storage& s);

  void note_module_move(bool begin, const std::string& module_name, const std::string& target);
  void note(const std::string& text);

  // Views: a read-only picture of places, storages, segments and transfers. Names and the module tree
  // are the session's (python::PythonSession builds them from the script's globals) and are merged in here:
  // they name the storages' holders.
  Snapshot snapshot(const ObjectGraph& objects = {}) const;
  // Live storages (for the Python layer's owner/role annotations and for tests).
  std::vector<StoragePtr> live_storages() const;
  size_t live_storage_count() const;

 private:
  Runtime(std::unique_ptr<Backend> backend, std::string note, bool event_log, uint64_t host_memory_limit = 0);
  // The StorageDeleter every storage of this runtime holds: gives its block back to the allocator it
  // came from and logs the free (defined in runtime.cpp; a member so that it reaches the allocators).
  class BlockReturn;
  // Gives a new block an id and an Alloc event, and wraps it in the Storage that will return it.
  StoragePtr register_storage(Place place, size_t nbytes, bool virtual_bytes, StorageBytes bytes,
                              std::unique_ptr<BlockReturn> block, Role role);
  StoragePtr allocate_scratch(Place place, size_t nbytes, bool virtual_bytes, std::unique_ptr<BlockReturn> block);
  // `after`: the place's allocated/reserved figures right after the event (a device allocator hands them
  // back from the allocate or free itself; figures_after() reads them for the other places).
  void record_alloc_event(EventKind kind, Place place, uint64_t storage_id, uint64_t nbytes, const std::string& label,
                          Role role, AllocatorFigures after);
  AllocatorFigures figures_after(Place place) const;
  // Note [Host memory budget]: a host-memory shortfall may be another allocator's cache; empties every
  // cache that holds host memory (simulated devices', pinned). True when that gave any back.
  bool release_host_backed_caches();
  uint64_t host_copy(Storage& dst, size_t dst_offset, const Storage& src, size_t src_offset, size_t bytes,
                     const CopyOrigin& origin);

  std::unique_ptr<Backend> backend_;
  std::string backend_note_;
  bool simulated_ = false;
  const std::atomic<bool>* quiet_flag_ = nullptr;  // the backend's (Note [Quiet simulator]); null: none
  std::vector<std::unique_ptr<CachingDeviceAllocator>> device_allocators_;
  std::unique_ptr<CachingHostAllocator> host_allocator_;
  EventLog log_;
  int current_device_ = 0;
  std::vector<StreamId> current_streams_;
  std::atomic<uint64_t> next_storage_id_{1};  // taken without registry_mutex_ (one lock per allocation)
  uint64_t pageable_bytes_ = 0;
  // Pageable storages and, with the simulated backend, its device and pinned memory (Note [Host memory budget]).
  std::shared_ptr<HostMemoryBudget> host_budget_;
  // Note [Live registry]: the live storages, a list through their own links (Storage::registry_prev/next):
  // a storage joins when it is registered and leaves from its deleter, before its memory goes. Readers
  // (snapshots, the GUI's picture, estimates) lock the entries they find, skipping one being destroyed.
  mutable std::mutex registry_mutex_;
  Storage* live_head_ = nullptr;  // newest first
  size_t live_count_ = 0;
  void link_live(Storage& s);          // under registry_mutex_
  void unlink_live(const Storage& s);  // under registry_mutex_
};

}  // namespace ds
