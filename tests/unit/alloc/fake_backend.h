// A minimal Backend for allocator tests: fake aligned addresses, a capacity per device and for pinned
// memory, a log of driver calls, and events the test marks done by hand. Never touches the bytes.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace ds::testing {

class FakeBackend : public Backend {
 public:
  struct Segment {
    size_t bytes = 0;
    bool virtual_bytes = false;
  };

  explicit FakeBackend(uint64_t capacity = 16ull << 30, uint64_t pinned_capacity = 1ull << 30)
      : capacity_(capacity), pinned_capacity_(pinned_capacity) {}

  // Memory used by something else on the device ("non-PyTorch" memory): lowers device_free_bytes.
  void set_other_usage(uint64_t bytes) { other_usage_ = bytes; }
  void set_event_done(const EventId& e, bool done = true) {
    if (done) done_.insert(e.id);
    else done_.erase(e.id);
  }

  std::string name() const override { return "fake"; }
  BackendCaps caps() const override { return {true, true, false, true}; }
  int device_count() const override { return 1; }
  DeviceProps props(int device) const override {
    DeviceProps p;
    p.name = "Fake device " + std::to_string(device);
    p.total_bytes = capacity_;
    p.simulated = true;
    return p;
  }

  void* device_alloc(int device, size_t bytes, bool virtual_bytes) override {
    ++device_alloc_calls;
    if (other_usage_ + used_ + bytes > capacity_) return nullptr;
    const uint64_t addr = next_device_;
    next_device_ += (bytes + kAlign - 1) / kAlign * kAlign;  // addresses are never reused
    used_ += bytes;
    device_segments[addr] = {bytes, virtual_bytes};
    return reinterpret_cast<void*>(addr);
  }
  void device_free(int device, void* ptr, size_t bytes, bool virtual_bytes) override {
    ++device_free_calls;
    auto it = device_segments.find(reinterpret_cast<uint64_t>(ptr));
    if (it == device_segments.end() || it->second.bytes != bytes || it->second.virtual_bytes != virtual_bytes)
      throw std::logic_error("FakeBackend: device_free does not match a device_alloc");
    used_ -= bytes;
    device_segments.erase(it);
  }
  uint64_t device_free_bytes(int device) const override { return capacity_ - other_usage_ - used_; }

  void* pinned_alloc(size_t bytes) override {
    ++pinned_alloc_calls;
    if (pinned_used_ + bytes > pinned_capacity_) return nullptr;
    const uint64_t addr = next_pinned_;
    next_pinned_ += (bytes + kPinnedAlign - 1) / kPinnedAlign * kPinnedAlign;
    pinned_used_ += bytes;
    pinned_blocks[addr] = bytes;
    return reinterpret_cast<void*>(addr);
  }
  void pinned_free(void* ptr, size_t bytes) override {
    auto it = pinned_blocks.find(reinterpret_cast<uint64_t>(ptr));
    if (it == pinned_blocks.end() || it->second != bytes)
      throw std::logic_error("FakeBackend: pinned_free does not match a pinned_alloc");
    pinned_used_ -= bytes;
    pinned_blocks.erase(it);
  }

  StreamId create_stream(int device) override { return ++last_stream_; }
  CopyTiming copy(const CopyRequest& request) override { return CopyTiming{}; }
  void memset(int device, void* ptr, int value, size_t bytes) override {}
  EventId record_event(int device, StreamId stream) override { return EventId{device, ++last_event_}; }
  void stream_wait_event(int device, StreamId stream, const EventId& event) override {}  // no GPU-side order here
  bool event_done(const EventId& event) override { return done_.count(event.id) > 0; }
  void synchronize_event(const EventId& event) override { done_.insert(event.id); }
  void synchronize_stream(int device, StreamId stream) override {}
  void synchronize_device(int device) override {}
  std::vector<CopyTiming> take_completed() override { return {}; }
  uint64_t now_ns() const override { return 0; }
  const LinkProfile& link() const override { return link_; }

  uint64_t used() const { return used_; }
  uint64_t pinned_used() const { return pinned_used_; }

  static constexpr uint64_t kDeviceBase = 0x7f0000000000ull;
  static constexpr uint64_t kPinnedBase = 0x200000000000ull;
  static constexpr uint64_t kAlign = 2ull << 20;   // segments start 2 MiB apart at least
  static constexpr uint64_t kPinnedAlign = 4096;

  std::map<uint64_t, Segment> device_segments;  // live driver allocations
  std::map<uint64_t, size_t> pinned_blocks;
  int device_alloc_calls = 0;
  int device_free_calls = 0;
  int pinned_alloc_calls = 0;

 private:
  uint64_t capacity_;
  uint64_t pinned_capacity_;
  uint64_t other_usage_ = 0;
  uint64_t used_ = 0;
  uint64_t pinned_used_ = 0;
  uint64_t next_device_ = kDeviceBase;
  uint64_t next_pinned_ = kPinnedBase;
  StreamId last_stream_ = 0;
  uint64_t last_event_ = 0;
  std::set<uint64_t> done_;
  LinkProfile link_;
};

}  // namespace ds::testing
