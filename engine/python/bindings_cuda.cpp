// torch.cuda support: caching-allocator statistics, streams, events and the current stream (memory
// history and snapshots: bindings_cuda_memory_history.cpp).
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "alloc/blas_workspace.h"
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

// Note [Event times across stream waits]
// An event's time is read off the transfer log of its own stream (see event_time). Since a stream can
// wait for an event of another stream (Stream.wait_event / wait_stream, cudaStreamWaitEvent), an event
// recorded on it afterwards cannot happen before the awaited one: in
//     start.record(); with torch.cuda.stream(side): x.to("cuda", non_blocking=True)
//     torch.cuda.current_stream().wait_stream(side); end.record()
// `end` happens when side's copy ends, though the default stream copied nothing. So each recorded event
// keeps how many waits its stream had issued by then, and its time is also at least every awaited event's
// time (recursively: those were recorded earlier, so there are no cycles).
using EventKey = std::pair<int, uint64_t>;  // EventId (device, id)
using StreamKey = std::pair<int, int>;      // (device, stream)

struct EventStamp {
  StreamKey stream;
  uint64_t recorded_ns = 0;
  uint64_t last_transfer_id = 0;  // the last transfer logged before it was recorded
  size_t waits_before = 0;        // waits its stream had issued by then
};

struct StreamWaits {
  std::vector<EventKey> awaited;                    // in the order the stream waited
  std::vector<std::optional<uint64_t>> prefix_max;  // memo: latest time among awaited[0..i]
};

struct EventBook {
  std::weak_ptr<Runtime> runtime;  // ids belong to this runtime; a session reset makes a new one
  std::map<EventKey, EventStamp> stamps;
  std::map<StreamKey, StreamWaits> waits;
  std::map<EventKey, size_t> awaited;  // how often each event was waited for: its stamp outlives its Event
};

// The book of the bound runtime (Note [One runtime per interpreter]); starts empty for a new runtime.
EventBook& event_book() {
  static EventBook book;
  std::shared_ptr<Runtime> bound = bound_runtime_ptr();
  if (book.runtime.lock() != bound) {
    book = EventBook{};
    book.runtime = bound;
  }
  return book;
}

// When a recorded event "happens" on the backend clock: the end of the last copy issued on its stream
// before it, or the moment it was recorded when the stream was idle (what cudaEventElapsedTime measures),
// and never before an event its stream waited for first (Note [Event times across stream waits]).
// Only asked once the event is done (elapsed_time checks query()), so every event it depends on is done
// too and their times are final: that is what makes the memo safe.
uint64_t event_time(EventBook& book, const EventKey& key) {
  auto it = book.stamps.find(key);
  if (it == book.stamps.end()) raise(ErrorKind::RuntimeError, "CUDA error: invalid resource handle");
  const EventStamp& stamp = it->second;
  Runtime& r = rt();
  r.poll();
  uint64_t t = stamp.recorded_ns;
  for (const TransferRecord& tr : r.log().transfers()) {
    if (tr.id > stamp.last_transfer_id) break;
    if (tr.src.is_host() && tr.dst.is_host()) continue;  // host memcpys are on no stream
    if (tr.stream_device == stamp.stream.first && tr.stream == stamp.stream.second && tr.complete)
      t = std::max(t, tr.end_ns);
  }
  if (stamp.waits_before == 0) return t;
  // Latest awaited time over the stream's first `waits_before` waits, extending the memo in order. A
  // std::map reference stays valid while the recursion adds entries, and it never resizes these vectors.
  StreamWaits& w = book.waits[stamp.stream];
  uint64_t floor = 0;
  for (size_t i = 0; i < stamp.waits_before; ++i) {
    if (!w.prefix_max[i]) {
      const uint64_t before = i ? *w.prefix_max[i - 1] : 0;
      const bool known = book.stamps.count(w.awaited[i]) > 0;
      w.prefix_max[i] = known ? std::max(before, event_time(book, w.awaited[i])) : before;
    }
    floor = *w.prefix_max[i];
  }
  return std::max(t, floor);
}

}  // namespace

void bind_cuda_memory_history(py::module_& m);  // bindings_cuda_memory_history.cpp

void bind_cuda(py::module_& m) {
  // torch/cuda/_workspace.py: the cuBLAS workspace of an architecture under CUBLAS_WORKSPACE_CONFIG and the
  // cuBLASLt one under CUBLASLT_WORKSPACE_SIZE (None: unset), each with TORCH_WARN's text ("" for none).
  m.def("blas_workspace_sizes", [](int major, int minor, std::optional<std::string> config,
                                   std::optional<std::string> lt_env) {
    const WorkspaceSize blas = cublas_workspace_size(major, minor, config);
    const WorkspaceSize lt = cublaslt_workspace_size(lt_env);
    return py::make_tuple(blas.bytes, blas.warning, lt.bytes, lt.warning);
  });
  bind_cuda_memory_history(m);
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
    const bool done = r.backend().event_done(e);
    r.backend().destroy_event(e);  // a probe: nothing refers to it afterwards
    return done;
  });

  // Events: (device, id) pairs; the Python Event class keeps them, the book keeps what times them.
  m.def("record_event", [](int device, int stream) {
    Runtime& r = rt();
    const int d = device_or_current(device);
    const EventId e = r.backend().record_event(d, stream);
    const auto& transfers = r.log().transfers();
    EventBook& book = event_book();
    EventStamp& stamp = book.stamps[{e.device, e.id}];
    stamp.stream = {d, stream};
    stamp.recorded_ns = r.backend().now_ns();
    stamp.last_transfer_id = transfers.empty() ? 0 : transfers.back().id;
    auto w = book.waits.find(stamp.stream);
    stamp.waits_before = w == book.waits.end() ? 0 : w->second.awaited.size();
    return py::make_tuple(e.device, e.id);
  });
  // Stream.wait_event / Event.wait: only (device, stream) waits - work queued there later starts after
  // the event - and the host returns at once (cudaStreamWaitEvent). The event may be of another device.
  m.def("stream_wait_event", [](int device, int stream, int event_device, uint64_t event_id) {
    Runtime& r = rt();
    const int d = device_or_current(device);
    r.backend().stream_wait_event(d, stream, EventId{event_device, event_id});
    StreamWaits& w = event_book().waits[{d, stream}];
    w.awaited.push_back({event_device, event_id});
    w.prefix_max.emplace_back();
    ++event_book().awaited[{event_device, event_id}];
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
  m.def("event_time_ns", [](int device, uint64_t id) { return event_time(event_book(), {device, id}); });
  // A torch.cuda.Event was collected or re-recorded: its engine event goes (cudaEventDestroy), and so does
  // its stamp unless a stream waited for it (later event times on that stream still read it).
  m.def("forget_event", [](int device, uint64_t id) {
    Runtime& r = rt();
    r.backend().destroy_event(EventId{device, id});
    EventBook& book = event_book();
    if (!book.awaited.count({device, id})) book.stamps.erase({device, id});
  });
}

}  // namespace ds::python
