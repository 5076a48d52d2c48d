// What the event log records: every allocation, free, copy, module move and sync, in order.
#pragma once

#include <cstdint>
#include <string>

#include "backend/backend.h"
#include "core/place.h"
#include "core/role.h"

namespace ds {

// One host<->device or device<->device copy, as the transfer view, CSV and Chrome trace show it.
struct TransferRecord {
  uint64_t id = 0;
  Place src;
  Place dst;
  uint64_t bytes = 0;
  Route route = Route::Direct;
  bool non_blocking = false;  // what the caller asked for
  bool async = false;         // whether the host really did not wait
  int stream_device = 0;
  StreamId stream = kDefaultStream;
  uint64_t enqueue_ns = 0;    // host time the copy was issued
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;        // valid when complete
  double measured_ns = 0;     // simulated: real memcpy wall time beside the modelled one
  bool simulated = false;
  bool complete = false;
  uint64_t src_storage = 0;
  uint64_t dst_storage = 0;
  std::string owner;          // "model.linear.weight" when known
  uint64_t backend_ticket = 0;
  // Live sessions only (not a field of any file): the runtime clock when the host first read the
  // destination while this copy was still in flight (Note [Host reads of in-flight copies]); 0: it did not.
  uint64_t host_read_ns = 0;

  double duration_ns() const { return complete ? double(end_ns - start_ns) : 0.0; }
  double gbps() const {  // GB/s (1e9 bytes/s); 0 while incomplete
    const double d = duration_ns();
    return d > 0 ? double(bytes) / d : 0.0;
  }
};

enum class EventKind : int8_t { Alloc, Free, Copy, CopyDone, ModuleMoveBegin, ModuleMoveEnd, Sync, Note };
const char* event_kind_name(EventKind k);

struct Event {
  uint64_t seq = 0;        // strictly increasing
  EventKind kind = EventKind::Note;
  // Free: the role the storage had when it was freed (its tag came after its Alloc), which an export's
  // storage_roles keeps for storages no longer live. Not a column of any file; Tensor elsewhere.
  Role role = Role::Tensor;
  uint64_t time_ns = 0;    // runtime clock
  Place place;             // where (alloc/free), or the destination (copy)
  uint64_t storage_id = 0;
  uint64_t bytes = 0;
  uint64_t transfer_id = 0;  // Copy/CopyDone
  std::string label;       // owner or module name, note text
  // Allocator figures for `place` right after the event (device places); drive the counters.
  uint64_t allocated_after = 0;
  uint64_t reserved_after = 0;
};

}  // namespace ds
