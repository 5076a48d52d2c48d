// torch.cuda support: caching-allocator statistics, streams, events and the current stream.
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings_common.h"
#include "core/errors.h"

namespace ds::python {
namespace {

int device_or_current(int device) {
  Runtime& r = rt();
  if (device < 0) return r.current_device();
  r.check_cuda_device(device);
  return device;
}

// When a recorded event "happens" on the backend clock: the end of the last copy issued on its stream
// before it, or the moment it was recorded when the stream was idle (what cudaEventElapsedTime measures).
uint64_t event_time(int device, int stream, uint64_t recorded_ns, uint64_t last_transfer_id) {
  Runtime& r = rt();
  r.poll();
  uint64_t t = recorded_ns;
  for (const TransferRecord& tr : r.log().transfers()) {
    if (tr.id > last_transfer_id) break;
    if (tr.src.is_host() && tr.dst.is_host()) continue;  // host memcpys are on no stream
    if (tr.stream_device == device && tr.stream == stream && tr.complete) t = std::max(t, tr.end_ns);
  }
  return t;
}

}  // namespace

void bind_cuda(py::module_& m) {
  m.def("memory_allocated", [](int device) { return rt().device_allocator(device_or_current(device)).stats().allocated; });
  m.def("memory_reserved", [](int device) { return rt().device_allocator(device_or_current(device)).stats().reserved; });
  m.def("max_memory_allocated",
        [](int device) { return rt().device_allocator(device_or_current(device)).stats().max_allocated; });
  m.def("max_memory_reserved",
        [](int device) { return rt().device_allocator(device_or_current(device)).stats().max_reserved; });
  m.def("reset_peak_memory_stats", [](int device) { rt().device_allocator(device_or_current(device)).reset_peak_stats(); });
  m.def("empty_cache", [] {
    Runtime& r = rt();
    for (int i = 0; i < r.device_count(); ++i) r.device_allocator(i).empty_cache();
  });
  m.def("memory_stats", [](int device) {
    const DeviceAllocatorStats s = rt().device_allocator(device_or_current(device)).stats();
    py::dict d;
    d["active.all.current"] = s.active_blocks;
    d["allocated_bytes.all.current"] = s.allocated;
    d["allocated_bytes.all.peak"] = s.max_allocated;
    d["reserved_bytes.all.current"] = s.reserved;
    d["reserved_bytes.all.peak"] = s.max_reserved;
    d["segment.all.current"] = s.segments;
    d["num_alloc_retries"] = s.alloc_retries;
    d["num_ooms"] = s.ooms;
    return d;
  });
  m.def("mem_get_info", [](int device) {
    Runtime& r = rt();
    const int d = device_or_current(device);
    return py::make_tuple(r.backend().device_free_bytes(d), r.backend().props(d).total_bytes);
  });
  m.def("host_memory_stats", [] {
    const HostAllocatorStats s = rt().host_allocator().stats();
    py::dict d;
    d["allocated"] = s.allocated;
    d["reserved"] = s.reserved;
    d["live_blocks"] = s.live_blocks;
    d["cached_blocks"] = s.cached_blocks;
    return d;
  });

  // Streams: ids per device; 0 is the default stream.
  m.def("create_stream", [](int device) { return rt().backend().create_stream(device_or_current(device)); });
  m.def("current_stream", [](int device) { return rt().current_stream(device_or_current(device)); });
  m.def("set_current_stream", [](int device, int stream) { rt().set_current_stream(device_or_current(device), stream); });
  m.def("stream_synchronize", [](int device, int stream) {
    Runtime& r = rt();
    r.backend().synchronize_stream(device_or_current(device), stream);
    r.poll();
  });
  m.def("stream_query", [](int device, int stream) {
    Runtime& r = rt();
    const EventId e = r.backend().record_event(device_or_current(device), stream);
    return r.backend().event_done(e);
  });

  // Events: (device, id, recorded_ns, last transfer id) tuples; the Python Event class keeps them.
  m.def("record_event", [](int device, int stream) {
    Runtime& r = rt();
    const int d = device_or_current(device);
    const EventId e = r.backend().record_event(d, stream);
    const auto& transfers = r.log().transfers();
    const uint64_t last = transfers.empty() ? 0 : transfers.back().id;
    return py::make_tuple(e.device, e.id, r.backend().now_ns(), last);
  });
  m.def("event_query", [](int device, uint64_t id) {
    Runtime& r = rt();
    const bool done = r.backend().event_done(EventId{device, id});
    r.poll();
    return done;
  });
  m.def("event_synchronize", [](int device, uint64_t id) {
    Runtime& r = rt();
    r.backend().synchronize_event(EventId{device, id});
    r.poll();
  });
  m.def("event_time_ns", [](int device, int stream, uint64_t recorded_ns, uint64_t last_transfer_id) {
    return event_time(device, stream, recorded_ns, last_transfer_id);
  });
}

}  // namespace ds::python
