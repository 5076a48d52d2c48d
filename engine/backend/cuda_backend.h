// The real CUDA backend (CUDA runtime API): device memory, pinned host memory, streams, events and
// copies timed with CUDA events. Compiled only when the toolkit is found (DEVICESCOPE_HAVE_CUDA).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace ds {

// Number of GPUs the CUDA runtime answers with; on failure 0 and `why` says what the runtime said
// ("cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version").
int cuda_probe_device_count(std::string* why);

// Note [Real CUDA timings]
// Times are on the host's steady clock (ns since the backend was made). Each copy is bracketed by
// two CUDA events on its stream; a per-device anchor event, recorded on an idle stream and waited
// for (refreshed every second), maps event times onto the host clock, so start_ns shows the queue
// delay behind earlier work on the stream, and end - start is the event-measured copy time.
// Virtual copies move nothing and are timed with the link profile (simulated = true).
class CudaBackend final : public Backend {
 public:
  CudaBackend();  // every visible device; RuntimeError "CUDA error: ..." when the runtime fails
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  std::string name() const override { return "cuda"; }
  BackendCaps caps() const override;
  int device_count() const override;
  DeviceProps props(int device) const override;

  void* device_alloc(int device, size_t bytes, bool virtual_bytes) override;
  void device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) override;
  uint64_t device_free_bytes(int device) const override;
  void* pinned_alloc(size_t bytes) override;
  void pinned_free(void* ptr, size_t bytes) override;

  StreamId create_stream(int device) override;
  CopyTiming copy(const CopyRequest& request) override;
  void memset(int device, void* ptr, int value, size_t bytes) override;
  EventId record_event(int device, StreamId stream) override;
  void stream_wait_event(int device, StreamId stream, const EventId& event) override;
  bool event_done(const EventId& event) override;
  void synchronize_event(const EventId& event) override;
  void synchronize_stream(int device, StreamId stream) override;
  void synchronize_device(int device) override;
  std::vector<CopyTiming> take_completed() override;

  uint64_t now_ns() const override;
  const LinkProfile& link() const override;

  bool can_access_peer(int from, int to) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ds
