// The one interface for a place that holds bytes and copies them: the CUDA-like side of the runtime.
// Implemented by the simulated devices (always built) and the real CUDA runtime (when the toolkit is found).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/link_profile.h"
#include "core/host_memory.h"
#include "core/place.h"

namespace ds {

// What a backend can do; callers ask for capabilities, never "is this CUDA".
struct BackendCaps {
  bool async_copy = false;   // non_blocking copies really overlap with the host
  bool pinned_host = false;  // page-locked host allocations exist
  bool peer_copy = false;    // direct device-to-device copies between different devices
  bool simulated = false;    // figures are modelled, not measured on hardware
};

struct DeviceProps {
  std::string name;          // "Simulated CUDA device 0 (pcie4-x16)" / "NVIDIA H100 80GB HBM3"
  uint64_t total_bytes = 0;  // capacity
  std::string link;          // link profile name ("pcie4-x16") or the real bus ("PCIe Gen5 x16")
  bool simulated = false;
  int major = 0, minor = 0;  // compute capability (sim: the link profile's architecture)
};

// How bytes travelled.
enum class Route : int8_t {
  Direct,        // one DMA copy (pinned<->device, device<->device on one device, host memcpy)
  StagedPinned,  // pageable host memory staged through a pinned bounce buffer by the driver
  Peer,          // device-to-device across two devices
};
const char* route_name(Route r);  // "direct", "staged-pinned", "peer"

using StreamId = int;  // per device; 0 is the default (legacy) stream
inline constexpr StreamId kDefaultStream = 0;

struct CopyRequest {
  void* dst = nullptr;
  Place dst_place;
  const void* src = nullptr;
  Place src_place;
  size_t bytes = 0;
  int stream_device = 0;  // device whose stream orders the copy
  StreamId stream = kDefaultStream;
  bool non_blocking = false;
  bool virtual_bytes = false;  // accounted and timed, but no bytes move (virtual storages)
};

// Timing of one copy. Times are on the backend's clock (`now_ns`): for simulated devices a
// deterministic modelled clock, for real CUDA the host's steady clock.
struct CopyTiming {
  uint64_t ticket = 0;           // backend-local id, matches completions
  Route route = Route::Direct;
  bool async = false;            // the host did not wait for it
  bool complete = false;         // end time known and bytes landed
  uint64_t enqueue_ns = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  double measured_ns = 0;        // simulated: wall time of the real memcpy; real: same as end-start
  bool simulated = false;
};

struct EventId {
  int device = 0;
  uint64_t id = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;  // "sim" or "cuda"
  virtual BackendCaps caps() const = 0;
  virtual int device_count() const = 0;
  virtual DeviceProps props(int device) const = 0;

  // "Driver" allocations, used only by the caching allocators. nullptr when the device has no room.
  // `virtual_bytes` reserves capacity without backing memory (virtual storages: never read or written).
  virtual void* device_alloc(int device, size_t bytes, bool virtual_bytes) = 0;
  virtual void device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) = 0;
  virtual uint64_t device_free_bytes(int device) const = 0;  // what the driver could still give
  virtual void* pinned_alloc(size_t bytes) = 0;              // nullptr on failure
  virtual void pinned_free(void* ptr, size_t bytes) = 0;
  // Note [Host memory budget]: a backend whose memory is host memory (the simulated one) takes its real
  // allocations from the runtime's budget, shared with pageable tensors; a real GPU's memory does not.
  virtual void share_host_budget(std::shared_ptr<HostMemoryBudget> budget) { (void)budget; }
  // What the out-of-memory error of `device` (-1: pinned host memory) adds after PyTorch's own message;
  // empty when the failure needs no explanation beyond it.
  virtual std::string out_of_memory_note(int device) const { (void)device; return ""; }

  // Streams and ordering.
  virtual StreamId create_stream(int device) = 0;
  // Enqueue a copy on (stream_device, stream). Blocking copies return complete timings; a
  // non-blocking one may return complete == false and finish later (see poll/synchronize).
  virtual CopyTiming copy(const CopyRequest& request) = 0;
  // Fill device memory (cudaMemset); ordered on the default stream of `device`.
  virtual void memset(int device, void* ptr, int value, size_t bytes) = 0;
  virtual EventId record_event(int device, StreamId stream) = 0;
  // cudaStreamWaitEvent: work queued on (device, stream) after this call starts only once `event` has
  // happened; work already queued there is not affected, and the host does NOT wait (it returns at once).
  // The event may come from another stream or another device (PyTorch's Stream.wait_event/wait_stream).
  virtual void stream_wait_event(int device, StreamId stream, const EventId& event) = 0;
  virtual bool event_done(const EventId& event) = 0;
  // cudaEventDestroy: the caller never uses `event` again, so a backend may forget it (a training loop
  // records events forever; keeping each one would grow without bound). Default: kept.
  virtual void destroy_event(const EventId& event) { (void)event; }
  virtual void synchronize_event(const EventId& event) = 0;
  virtual void synchronize_stream(int device, StreamId stream) = 0;
  virtual void synchronize_device(int device) = 0;
  // Copies that finished since the last call, with their final timings.
  virtual std::vector<CopyTiming> take_completed() = 0;
  // Note [Quiet simulator]: a flag that reads true while synchronize_device(any device) and take_completed()
  // would change nothing, so a caller about to do both may skip them; null when the backend keeps none.
  virtual const std::atomic<bool>* quiet_flag() const { return nullptr; }

  virtual uint64_t now_ns() const = 0;
  // Link profile used to model or describe transfers (real CUDA: the nominal rates of the bus).
  virtual const LinkProfile& link() const = 0;
};

// Backend selection, as the command line and the Python API ask for it.
struct BackendOptions {
  std::string backend = "auto";   // "auto" | "sim" | "cuda"
  int sim_devices = 2;
  uint64_t sim_memory = 16ull << 30;
  std::string link = "pcie4-x16";
};

struct BackendChoice {
  std::unique_ptr<Backend> backend;
  std::string note;  // why this backend was chosen ("no CUDA device answered: cudaErrorInsufficientDriver ...")
};

// "auto": real CUDA when a GPU answers, else simulated. "cuda" without a GPU raises RuntimeError.
BackendChoice make_backend(const BackendOptions& options);

// Real CUDA probe: number of usable GPUs (0 when the toolkit is absent or no driver answers) and why.
int cuda_device_count(std::string* why_not = nullptr);

}  // namespace ds
