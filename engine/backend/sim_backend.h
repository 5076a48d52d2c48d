// Simulated CUDA devices: device memory is lazily-backed host memory, copies really move bytes,
// and a deterministic modelled clock (link profile costs) says when each copy starts and ends.
#pragma once

#include <cstdint>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.h"
#include "backend/virtual_address.h"

namespace ds {

// Note [Simulated clock]
// now_ns() starts at 0 and moves only by modelled costs, never by wall time, so a lesson runs
// the same way every time:
// - a blocking copy moves the host to the copy's end;
// - a non_blocking copy costs the host kLaunchOverheadNs and is queued on its stream;
// - synchronize_* / synchronize_event move the host to the awaited end;
// - stream_wait_event does not move the host: it raises the waiting stream's busy-until to the
//   event's time, so work queued there later starts after it (event times are on the one global
//   clock, so a stream of one device can wait for an event of another);
// - advance_host_ns() models host work.
// Each (device, stream) has a busy-until time; a copy starts at max(host now, busy-until) and
// ends at start + LinkProfile::duration_ns(rate, bytes). Streams behave like PyTorch's
// (cudaStreamNonBlocking): no implicit ordering between two streams.
//
// Note [Simulated async bytes]
// A queued (non_blocking) copy moves no bytes until it completes, and it completes only when
// the modelled host time reaches its end: on a synchronize, or when a later call moves the
// clock past it. Until then its destination deterministically shows the old bytes - the
// unsynchronised non_blocking D2H hazard - and writing its source before then changes what
// arrives, as with a real pinned buffer. Due copies land in (end time, issue order).
//
// Note [Host copies and the modelled clock]
// A host<->host copy (pageable/pinned to pageable/pinned) does not use the link: it is a real
// memcpy, reported with its measured duration (simulated = false, end = start + measured), and
// it does NOT move the modelled clock - wall time would make the clock, and so which async
// copies have landed, differ from run to run.
//
// Freeing: device_free of real memory synchronizes the device first, as cudaFree does (the clock
// moves to the device's busy-until); pinned_free only waits for queued copies touching the block.
//
// Pageable memory on either side: the driver stages through a pinned buffer (Route::StagedPinned)
// and the host waits (SEMANTICS.md §2), so non_blocking is ignored and the copy is blocking.
class SimBackend final : public Backend {
 public:
  // What a non_blocking cudaMemcpyAsync costs the host before it returns (typically 2-5 us).
  static constexpr uint64_t kLaunchOverheadNs = 3000;

  explicit SimBackend(int devices = 2, uint64_t capacity_bytes = 16ull << 30,
                      const std::string& link = "pcie4-x16");  // ValueError on a bad count/link
  ~SimBackend() override;
  SimBackend(const SimBackend&) = delete;
  SimBackend& operator=(const SimBackend&) = delete;

  std::string name() const override { return "sim"; }
  BackendCaps caps() const override;
  int device_count() const override { return int(devices_.size()); }
  DeviceProps props(int device) const override;

  void* device_alloc(int device, size_t bytes, bool virtual_bytes) override;
  void device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) override;
  uint64_t device_free_bytes(int device) const override;
  void* pinned_alloc(size_t bytes) override;
  void pinned_free(void* ptr, size_t bytes) override;
  void share_host_budget(std::shared_ptr<HostMemoryBudget> budget) override;
  std::string out_of_memory_note(int device) const override;

  StreamId create_stream(int device) override;
  CopyTiming copy(const CopyRequest& request) override;
  void memset(int device, void* ptr, int value, size_t bytes) override;
  EventId record_event(int device, StreamId stream) override;
  void stream_wait_event(int device, StreamId stream, const EventId& event) override;
  bool event_done(const EventId& event) override;
  void destroy_event(const EventId& event) override;
  void synchronize_event(const EventId& event) override;
  void synchronize_stream(int device, StreamId stream) override;
  void synchronize_device(int device) override;
  std::vector<CopyTiming> take_completed() override;
  const std::atomic<bool>* quiet_flag() const override { return &quiet_; }

  uint64_t now_ns() const override;
  const LinkProfile& link() const override { return link_; }

  // Simulation-only controls and figures (tests, lessons, status lines).
  void advance_host_ns(uint64_t ns);        // modelled host work: the clock moves, due copies land
  uint64_t used_bytes(int device) const;    // real + virtual bytes handed out on `device`
  uint64_t pinned_bytes() const;            // simulated pinned host bytes handed out
  size_t pending_ops() const;               // queued copies/fills not yet landed
  uint64_t stream_busy_until(int device, StreamId stream) const;

 private:
  struct DeviceState {
    uint64_t capacity = 0;
    uint64_t used = 0;
    bool host_refused = false;  // the last real allocation failed for want of host RAM, not of capacity
    std::vector<uint64_t> stream_busy;  // busy-until per StreamId (index 0: default stream)
  };
  struct Mapping {
    size_t bytes = 0;
    int device = -1;  // -1: pinned host memory
  };
  struct PendingOp {
    uint64_t end_ns = 0;
    uint64_t seq = 0;
    void* dst = nullptr;
    const void* src = nullptr;  // nullptr: a fill of `fill_value`
    size_t bytes = 0;
    int fill_value = 0;
    bool virtual_bytes = false;
    bool report = false;        // a copy returned incomplete: goes to take_completed()
    CopyTiming timing;
  };
  struct EventRecord {
    int device = 0;
    uint64_t time_ns = 0;
  };

  void check_device(int device) const;
  uint64_t& busy_ref(int device, StreamId stream);
  void advance_to(uint64_t t);       // move the clock forward (never back) and land due ops
  void land_due();
  void apply(PendingOp& op);
  void insert_pending(const PendingOp& op);  // keeps (end_ns, seq) order
  void wait_for_range(const void* ptr, size_t bytes);  // land queued ops touching the range
  CopyTiming host_copy(const CopyRequest& r);
  const EventRecord& event_ref(const EventId& event) const;

  // Note [Quiet simulator]: every small op on a simulated device reads its inputs (synchronize_device, then
  // take_completed through Runtime::poll) and logs its allocations with now_ns(). With no copy queued or
  // unreported and no stream busy past the host clock, those calls change nothing, so they answer from
  // these two atomics without taking mu_. `quiet_` is cleared under mu_ wherever work is made (a queued op,
  // a completion to report, a stream busy past the clock) and set only by a locked sync or take that found
  // none left; `published_now_` follows now_ (advance_to is its only writer). A caller on another thread
  // that reads a stale `true` sees the simulator as it was before that thread's call: the same answer the
  // lock would give had its call come first.
  void recompute_quiet();
  std::atomic<bool> quiet_{true};
  std::atomic<uint64_t> published_now_{0};
  mutable std::mutex mu_;
  LinkProfile link_;
  std::vector<DeviceState> devices_;
  std::unordered_map<void*, Mapping> mappings_;  // live real mmaps (device and pinned)
  VirtualAddressSpace virtual_space_;
  uint64_t pinned_used_ = 0;
  bool pinned_host_refused_ = false;
  // Real device and pinned mappings are host memory: Note [Host memory budget]. Its own budget (physical
  // RAM) until a runtime shares the one its pageable tensors use.
  std::shared_ptr<HostMemoryBudget> host_budget_ = std::make_shared<HostMemoryBudget>();
  uint64_t now_ = 0;
  uint64_t next_ticket_ = 0;
  uint64_t next_seq_ = 0;
  std::vector<PendingOp> pending_;  // sorted by (end_ns, seq)
  std::vector<CopyTiming> completed_;
  std::unordered_map<uint64_t, EventRecord> events_;  // by EventId::id; destroy_event erases
  uint64_t last_event_id_ = 0;
};

}  // namespace ds
