// Chrome trace event JSON (opens in ui.perfetto.dev and chrome://tracing) of a recording, and the
// metadata that says where it came from. load_trace() reads these files back.
#pragma once

#include <deque>
#include <ostream>
#include <string>

#include "trace/export_roles.h"
#include "trace/records.h"

namespace ds {

// Where a recording came from; written into the trace's "metadata" object.
struct TraceMeta {
  std::string backend;   // "sim" / "cuda"
  bool simulated = true; // timings are modelled, not measured (process names then say SIMULATED)
  std::string link;      // link profile name ("pcie4-x16")
  std::string version;   // DeviceScope version that wrote it ("0.1.0")
  std::string machine;   // one line about the machine ("Linux x86_64, NVIDIA H100 80GB HBM3")
  // A windowed recording (Note [Bounded event log]): how many of the run's oldest events and transfers the
  // bounded event log had dropped before the file was written. 0 and 0: the file holds the whole run.
  uint64_t events_dropped = 0;
  uint64_t transfers_dropped = 0;
  bool operator==(const TraceMeta&) const = default;
};

// Layout of the file (details in Note [Chrome trace layout] in export_chrome_trace.cpp):
//   {"displayTimeUnit":"ns", "traceEvents":[...], "metadata":{...}, "devicescopeEvents":[[...],...]}
// traceEvents: one process per place (host pid 1, cuda:N pid 100+N), one thread per stream and copy
// direction (an extra lane for copies that overlap on the same one), an "X" slice per transfer with
// every TransferRecord field in args, "C" counters of allocated/reserved bytes from Alloc/Free events,
// module moves as "B"/"E" and syncs/notes as "i" on the host's "python" thread. Timestamps are
// microseconds with 3 decimals (exact nanoseconds). devicescopeEvents holds every Event (columns in
// metadata.event_columns) so that the file reads back exactly. `roles` (export_storage_roles), when not empty,
// is written as "devicescopeRecorder":{"storage_roles":{"12":"parameter",...}}, where `devicescope record` writes
// its roles, so that the app colours an opened file's storages by role whichever wrote it.
void write_chrome_trace(const std::deque<Event>& events, const std::deque<TransferRecord>& transfers,
                        const TraceMeta& meta, std::ostream& out, const StorageRoles& roles = {});

inline constexpr const char* kChromeTraceFormat = "devicescope-chrome-trace";
inline constexpr int kChromeTraceFormatVersion = 1;
// Columns of each devicescopeEvents row (also written as metadata.event_columns).
inline constexpr const char* kTraceEventColumns[] = {"seq",         "kind",  "time_ns",         "place",
                                                     "storage_id",  "bytes", "transfer_id",     "label",
                                                     "allocated_after", "reserved_after"};
// Perfetto keys threads by tid alone (as Linux does), so tids are unique across the whole file:
// each process's own events (names, counters) use tid == pid, copy lanes count up from 1000.
inline constexpr int kHostPid = 1;
inline constexpr int kDevicePidBase = 100;   // cuda:N is pid 100 + N
inline constexpr int kPythonTid = kHostPid;  // host thread with module moves, syncs and notes
inline constexpr int kFirstCopyTid = 1000;   // copy lanes, numbered in (pid, stream, direction, lane) order

}  // namespace ds
