// write_chrome_trace: a streaming writer (no JSON DOM) so a million transfers export in seconds.
//
// Note [Chrome trace layout]
// Perfetto and chrome://tracing draw one track per (pid, tid), and slices on one track must nest,
// so copies that overlap in time cannot share a track. Each copy belongs to a lane group
// (process, stream, direction); inside a group copies are sorted by start time and put on the first
// lane that is free again (first fit), so a stream's copies stay on one track unless they really
// overlap. Lanes become tids in (process, stream, direction, lane) order; tids are unique in the
// file because Perfetto's JSON importer identifies a thread by its tid alone.
// displayTimeUnit comes first because Perfetto only honours it near the start of the file; ts and dur
// are always microseconds (Perfetto and catapult agree on that since 2022). Strings avoid \u escapes
// except for control characters, since Perfetto's tokenizer rejects most escape sequences.
#include "trace/export_chrome_trace.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <tuple>
#include <vector>

#include "trace/text_out.h"
#include "trace/trace_text.h"
#include "trace/transfer_fields.h"

namespace ds {
namespace {

using trace_detail::TextOut;

// TextOut that separates the elements of traceEvents (no trailing comma after the last one).
class EventOut : public TextOut {
 public:
  using TextOut::TextOut;
  TextOut& next() {
    if (!first_) put(",\n");
    first_ = false;
    return *this;
  }

 private:
  bool first_ = true;
};

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // > U+10FFFF
  return n;
}

// The inside of a JSON string literal. Invalid UTF-8 bytes become U+FFFD so the file always parses.
void json_string_body(TextOut& o, std::string_view s) {
  size_t run = 0;  // start of the pending run of bytes that need no escaping
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    size_t n = 1;
    if (c >= 0x80) {
      n = utf8_length(s, i);
      if (n > 0) {
        i += n;
        continue;
      }
      n = 1;
    }
    o.put(s.substr(run, i - run));
    switch (c) {
      case '"': o.put("\\\""); break;
      case '\\': o.put("\\\\"); break;
      case '\n': o.put("\\n"); break;
      case '\r': o.put("\\r"); break;
      case '\t': o.put("\\t"); break;
      case '\b': o.put("\\b"); break;
      case '\f': o.put("\\f"); break;
      default:
        if (c >= 0x80) {
          o.put("\xEF\xBF\xBD");
        } else {
          static const char hex[] = "0123456789abcdef";
          const char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          o.put(std::string_view(esc, 6));
        }
    }
    i += n;
    run = i;
  }
  o.put(s.substr(run));
}

void json_string(TextOut& o, std::string_view s) {
  o.put('"');
  json_string_body(o, s);
  o.put('"');
}

int device_pid(int device) { return kDevicePidBase + device; }

int place_pid(const Place& p) { return p.is_host() ? kHostPid : device_pid(p.device); }

// The process a copy is drawn in: the device whose stream orders it (host for host-to-host copies).
int transfer_pid(const TransferRecord& t) {
  if (t.src.is_host() && t.dst.is_host()) return kHostPid;
  if ((!t.src.is_host() && t.src.device == t.stream_device) || (!t.dst.is_host() && t.dst.device == t.stream_device))
    return device_pid(t.stream_device);
  return device_pid(t.dst.is_host() ? t.src.device : t.dst.device);
}

int direction_code(const TransferRecord& t) {
  const std::string_view d = transfer_direction(t.src, t.dst);
  static constexpr std::string_view order[] = {"H2D", "D2H", "D2D", "P2P", "H2H"};
  for (int i = 0; i < 5; ++i)
    if (d == order[i]) return i;
  return 4;
}
const char* direction_name(int code) {
  static const char* names[] = {"H2D", "D2H", "D2D", "P2P", "H2H"};
  return names[code];
}

uint64_t slice_start(const TransferRecord& t) { return t.start_ns != 0 || t.complete ? t.start_ns : t.enqueue_ns; }
uint64_t slice_end(const TransferRecord& t) {
  const uint64_t s = slice_start(t);
  return t.complete && t.end_ns > s ? t.end_ns : s;
}

struct LaneKey {
  int pid, stream, dir, lane;
  auto operator<=>(const LaneKey&) const = default;
};

struct Layout {
  std::vector<int> pid, tid;                 // per transfer
  std::map<LaneKey, int> tids;               // every copy lane and its tid
  std::set<int> device_pids;
};

Layout lay_out(const std::deque<Event>& events, const std::deque<TransferRecord>& transfers) {
  Layout L;
  const size_t n = transfers.size();
  L.pid.resize(n);
  L.tid.resize(n);
  std::vector<int> dir(n), lane(n);
  for (size_t i = 0; i < n; ++i) {
    L.pid[i] = transfer_pid(transfers[i]);
    dir[i] = direction_code(transfers[i]);
  }
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const TransferRecord &x = transfers[a], &y = transfers[b];
    return std::tuple(L.pid[a], x.stream, dir[a], slice_start(x), x.id) <
           std::tuple(L.pid[b], y.stream, dir[b], slice_start(y), y.id);
  });
  // First fit in O(log lanes) per copy: lanes still busy wait in a heap by end time; once a copy
  // starts at or after that end, the lane joins the free heap, and the lowest free lane is taken.
  using Busy = std::pair<uint64_t, int>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
  std::priority_queue<int, std::vector<int>, std::greater<int>> free_lanes;
  int lanes = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    if (k == 0 || L.pid[i] != L.pid[order[k - 1]] || transfers[i].stream != transfers[order[k - 1]].stream ||
        dir[i] != dir[order[k - 1]]) {
      busy = {};
      free_lanes = {};
      lanes = 0;
    }
    const uint64_t s = slice_start(transfers[i]);
    while (!busy.empty() && busy.top().first <= s) {
      free_lanes.push(busy.top().second);
      busy.pop();
    }
    int l = lanes;
    if (!free_lanes.empty()) {
      l = free_lanes.top();
      free_lanes.pop();
    } else {
      ++lanes;
    }
    busy.push({slice_end(transfers[i]), l});
    lane[i] = l;
  }
  for (size_t i = 0; i < n; ++i) L.tids.emplace(LaneKey{L.pid[i], transfers[i].stream, dir[i], lane[i]}, 0);
  int next_tid = kFirstCopyTid;
  for (auto& [key, tid] : L.tids) tid = next_tid++;
  for (size_t i = 0; i < n; ++i) L.tid[i] = L.tids.at(LaneKey{L.pid[i], transfers[i].stream, dir[i], lane[i]});
  for (int p : L.pid)
    if (p != kHostPid) L.device_pids.insert(p);
  for (const Event& e : events)
    if (!e.place.is_host() && e.place.device >= 0) L.device_pids.insert(device_pid(e.place.device));
  return L;
}

void metadata_event(EventOut& o, const char* what, int pid, int tid, const std::string& name) {
  o.next().put("{\"name\":\"").put(what).put("\",\"ph\":\"M\",\"pid\":").i64(pid).put(",\"tid\":").i64(tid);
  o.put(",\"args\":{\"name\":");
  json_string(o, name);
  o.put("}}");
}
void sort_event(EventOut& o, const char* what, int pid, int tid, int index) {
  o.next().put("{\"name\":\"").put(what).put("\",\"ph\":\"M\",\"pid\":").i64(pid).put(",\"tid\":").i64(tid);
  o.put(",\"args\":{\"sort_index\":").i64(index).put("}}");
}

// Every event starts with "ph" and "ts": Perfetto's tokenizer scans an event's keys in order up to
// "ts" and gives up on the whole file at a \u escape on the way, which a name could contain.
void write_transfer(EventOut& o, const TransferRecord& t, int pid, int tid) {
  o.next().put("{\"ph\":\"X\",\"ts\":").ns_as_us(slice_start(t)).put(",\"dur\":").ns_as_us(slice_end(t) - slice_start(t));
  o.put(",\"pid\":").i64(pid).put(",\"tid\":").i64(tid);
  o.put(",\"name\":\"").put(transfer_direction(t.src, t.dst));
  if (!t.owner.empty()) {
    o.put(' ');
    json_string_body(o, t.owner);
  }
  o.put("\",\"cat\":\"transfer\",\"args\":{");
  for (const TransferField* f : kChromeTraceArgs) {
    if (f != kChromeTraceArgs[0]) o.put(',');
    o.put('"').put(f->key_in_chrome_trace()).put("\":");
    const FieldValue v = f->get(t);
    if (f->kind == FieldKind::String) {
      json_string(o, v.s);
    } else if (f->kind == FieldKind::PlaceText || f->kind == FieldKind::RouteText) {
      o.put('"');
      write_field_text(o, f->kind, v);
      o.put('"');
    } else {
      write_field_text(o, f->kind, v);
    }
  }
  o.put("}}");
}

void write_counter(EventOut& o, const Event& e, const char* what, uint64_t value) {
  const int pid = place_pid(e.place);
  o.next().put("{\"ph\":\"C\",\"ts\":").ns_as_us(e.time_ns).put(",\"pid\":").i64(pid).put(",\"tid\":").i64(pid);
  o.put(",\"name\":\"");
  if (e.place.is_host()) o.put(e.place.str()).put(' ');
  o.put(what).put("\",\"args\":{\"bytes\":").u64(value).put("}}");
}

// Module moves, syncs and notes on the host's python thread.
void write_host_event(EventOut& o, const Event& e) {
  const char* ph = "i";
  const char* cat = "note";
  std::string name = e.label;
  switch (e.kind) {
    case EventKind::ModuleMoveBegin: ph = "B", cat = "module"; break;
    case EventKind::ModuleMoveEnd: ph = "E", cat = "module"; break;
    case EventKind::Sync: cat = "sync", name = e.label.empty() ? "sync " + e.place.str() : e.label; break;
    default: break;
  }
  if (name.empty()) name = e.kind == EventKind::Note ? "note" : "module move";
  o.next().put("{\"ph\":\"").put(ph).put("\",\"ts\":").ns_as_us(e.time_ns);
  if (*ph == 'i') o.put(",\"s\":\"t\"");
  o.put(",\"pid\":").i64(kHostPid).put(",\"tid\":").i64(kPythonTid).put(",\"name\":");
  json_string(o, name);
  o.put(",\"cat\":\"").put(cat).put("\",\"args\":{\"seq\":").u64(e.seq).put(",\"place\":\"").put(e.place.str());
  o.put("\"}}");
}

void write_metadata(TextOut& o, const TraceMeta& meta, size_t transfers, size_t events) {
  o.put("\"metadata\":{\"producer\":\"DeviceScope\",\"format\":\"").put(kChromeTraceFormat);
  o.put("\",\"format_version\":").i64(kChromeTraceFormatVersion);
  o.put(",\"devicescope_version\":");
  json_string(o, meta.version);
  o.put(",\"backend\":");
  json_string(o, meta.backend);
  o.put(",\"simulated\":").put(meta.simulated ? "true" : "false");
  o.put(",\"timings\":\"").put(meta.simulated ? "SIMULATED (modelled by DeviceScope, not measured)" : "measured");
  o.put("\",\"link_profile\":");
  json_string(o, meta.link);
  o.put(",\"machine\":");
  json_string(o, meta.machine);
  o.put(",\"transfer_count\":").u64(transfers).put(",\"event_count\":").u64(events);
  // Said in the file itself, so that nobody reads a long run's last window as the whole run.
  o.put(",\"windowed\":").put(meta.events_dropped || meta.transfers_dropped ? "true" : "false");
  o.put(",\"events_dropped\":").u64(meta.events_dropped).put(",\"transfers_dropped\":").u64(meta.transfers_dropped);
  o.put(",\"event_columns\":[");
  for (const char* c : kTraceEventColumns) o.put(c == kTraceEventColumns[0] ? "\"" : ",\"").put(c).put('"');
  o.put("]},\n");
}

}  // namespace

void write_chrome_trace(const std::deque<Event>& events, const std::deque<TransferRecord>& transfers,
                        const TraceMeta& meta, std::ostream& out, const StorageRoles& roles) {
  const Layout L = lay_out(events, transfers);
  EventOut o(out);
  o.put("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n");

  // Processes and threads.
  const std::string sim = meta.simulated ? " SIMULATED" : "";
  metadata_event(o, "process_name", kHostPid, kHostPid, meta.simulated ? "host (SIMULATED devices)" : "host");
  sort_event(o, "process_sort_index", kHostPid, kHostPid, 0);
  metadata_event(o, "thread_name", kHostPid, kPythonTid, "python");
  sort_event(o, "thread_sort_index", kHostPid, kPythonTid, kPythonTid);
  for (int pid : L.device_pids) {
    const int d = pid - kDevicePidBase;
    std::string name = "cuda:" + std::to_string(d) + sim;
    if (!meta.link.empty()) name += " (" + meta.link + ")";
    metadata_event(o, "process_name", pid, pid, name);
    sort_event(o, "process_sort_index", pid, pid, 1 + d);
  }
  for (const auto& [key, tid] : L.tids) {
    std::string name = "stream " + std::to_string(key.stream) + " " + direction_name(key.dir);
    if (key.lane > 0) name += " lane " + std::to_string(key.lane + 1);
    metadata_event(o, "thread_name", key.pid, tid, name);
    sort_event(o, "thread_sort_index", key.pid, tid, tid);
  }

  // Copies.
  for (size_t i = 0; i < transfers.size(); ++i) write_transfer(o, transfers[i], L.pid[i], L.tid[i]);

  // Allocator counters, module moves, syncs, notes.
  for (const Event& e : events) {
    switch (e.kind) {
      case EventKind::Alloc:
      case EventKind::Free:
        write_counter(o, e, "allocated", e.allocated_after);
        write_counter(o, e, "reserved", e.reserved_after);
        break;
      case EventKind::ModuleMoveBegin:
      case EventKind::ModuleMoveEnd:
      case EventKind::Sync:
      case EventKind::Note:
        write_host_event(o, e);
        break;
      case EventKind::Copy:
      case EventKind::CopyDone:
        break;  // drawn as the transfer's "X" slice
    }
  }
  o.put("\n],\n");

  write_metadata(o, meta, transfers.size(), events.size());

  // Every event, for load_trace (columns in metadata.event_columns).
  o.put("\"devicescopeEvents\":[");
  bool first = true;
  for (const Event& e : events) {
    o.put(first ? "\n[" : ",\n[");
    first = false;
    o.u64(e.seq).put(",\"").put(event_kind_name(e.kind)).put("\",").u64(e.time_ns).put(",\"").put(e.place.str());
    o.put("\",").u64(e.storage_id).put(',').u64(e.bytes).put(',').u64(e.transfer_id).put(',');
    json_string(o, e.label);
    o.put(',').u64(e.allocated_after).put(',').u64(e.reserved_after).put(']');
  }
  o.put("\n]");
  if (!roles.empty()) {
    const std::map<uint64_t, Role> sorted(roles.begin(), roles.end());  // the same file for the same run
    o.put(",\n\"devicescopeRecorder\":{\"storage_roles\":{");
    for (auto it = sorted.begin(); it != sorted.end(); ++it)
      o.put(it == sorted.begin() ? "\"" : ",\"").u64(it->first).put("\":\"").put(role_name(it->second)).put('"');
    o.put("}}");
  }
  o.put("}\n");
  o.flush();
}

}  // namespace ds
