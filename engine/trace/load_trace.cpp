// load_trace: format detection, and the Chrome trace reader. The JSON is read with JsonReader
// straight into TransferRecords and Events (no DOM: a DOM of a million-transfer trace would take
// gigabytes and most of a minute). Problems in the content are remembered and raised only once the
// file is known to be DeviceScope's, so a foreign file gets "written by another program?".
#include "trace/load_trace.h"

#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "trace/json_reader.h"
#include "trace/recording_file.h"
#include "trace/trace_text.h"
#include "trace/transfer_checks.h"
#include "trace/transfer_fields.h"

namespace ds {
namespace {

using Type = JsonReader::Type;

enum class Kind : uint8_t { U64, I32, Double, Bool, String, PlaceText, RouteText, EventKindText };

const char* wanted(Kind k) {
  switch (k) {
    case Kind::U64: return "a non-negative integer";
    case Kind::I32: return "an integer";
    case Kind::Double: return "a number";
    case Kind::Bool: return "true or false";
    case Kind::String: return "a string";
    case Kind::PlaceText: return "a place (pageable, pinned, cuda:N)";
    case Kind::RouteText: return "a route (direct, staged-pinned, peer)";
    case Kind::EventKindText: return "an event kind";
  }
  return "";
}

// One value read as `kind`; `ok` is false when it has another type (it is consumed either way).
struct Value {
  bool ok = false;
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  bool b = false;
  std::string_view s;
  Place place;
  Route route = Route::Direct;
  EventKind event = EventKind::Note;
};

Value read_value(JsonReader& r, Kind kind) {
  Value v;
  const Type t = r.peek();
  const bool want_number = kind == Kind::U64 || kind == Kind::I32 || kind == Kind::Double;
  const bool want_string = !want_number && kind != Kind::Bool;
  if ((want_number && t != Type::Number) || (want_string && t != Type::String) ||
      (kind == Kind::Bool && t != Type::Bool)) {
    r.skip_value();
    return v;
  }
  switch (kind) {
    case Kind::U64:
      if (auto x = JsonReader::to_u64(r.read_number_text())) v.ok = true, v.u = *x;
      break;
    case Kind::I32:
      if (auto x = JsonReader::to_i64(r.read_number_text()); x && *x >= std::numeric_limits<int>::min() &&
                                                               *x <= std::numeric_limits<int>::max())
        v.ok = true, v.i = *x;
      break;
    case Kind::Double:
      if (auto x = JsonReader::to_double(r.read_number_text())) v.ok = true, v.d = *x;
      break;
    case Kind::Bool:
      v.ok = true, v.b = r.read_bool();
      break;
    case Kind::String:
      v.ok = true, v.s = r.read_string();
      break;
    case Kind::PlaceText:
      if (auto x = place_from_string(r.read_string())) v.ok = true, v.place = *x;
      break;
    case Kind::RouteText:
      if (auto x = route_from_string(r.read_string())) v.ok = true, v.route = *x;
      break;
    case Kind::EventKindText:
      v.s = r.read_string();
      if (auto x = event_kind_from_string(v.s)) v.ok = true, v.event = *x;
      break;
  }
  return v;
}

Kind kind_of(FieldKind k) {
  switch (k) {
    case FieldKind::U64: return Kind::U64;
    case FieldKind::I32: return Kind::I32;
    case FieldKind::Double:
    case FieldKind::Rate: return Kind::Double;
    case FieldKind::Bool: return Kind::Bool;
    case FieldKind::String: return Kind::String;
    case FieldKind::PlaceText: return Kind::PlaceText;
    case FieldKind::RouteText: return Kind::RouteText;
  }
  return Kind::String;
}

// The args a transfer slice must hold: the stored fields, in kTransferFields' order (any order is
// read). Derived ones ("GB/s") are skipped like any other key: the record recomputes them.
// Built at start-up, not at compile time: with -fsanitize=undefined GCC will not compare function pointers
// (stored()) with null in a constant expression.
const auto kArgs = [] {
  std::array<const TransferField*, kTransferFieldCount> out{};
  size_t n = 0;
  for (const TransferField& f : kTransferFields)
    if (f.stored() && f.chrome_position != kNotInChromeTrace) out[n++] = &f;
  return out;
}();
const int kArgCount = [] {
  int n = 0;
  while (n < int(kArgs.size()) && kArgs[n]) ++n;
  return n;
}();
static_assert(kTransferFieldCount < 32, "the `seen` mask of read_trace_events holds one bit per arg");

FieldValue field_value(const Value& v) {
  FieldValue f;
  f.u = v.u, f.i = v.i, f.d = v.d, f.b = v.b, f.s = v.s, f.place = v.place, f.route = v.route;
  return f;
}

struct Metadata {
  bool present = false;
  std::optional<std::string> producer, format, version, backend, link, machine;
  std::optional<uint64_t> format_version, transfer_count, event_count;
  uint64_t events_dropped = 0, transfers_dropped = 0;  // a windowed recording; absent in older files
  std::optional<bool> simulated;
  std::optional<std::vector<std::string>> columns;
  std::string run;  // "{"script": ..., ...": the recorder's run facts as JSON text, closed when read
};

class ChromeTraceReader {
 public:
  ChromeTraceReader(const char* data, size_t size, const std::string& name, LoadProgress* progress)
      : r_(data, size), data_(data), name_(name), progress_(progress, name) {}

  // Only the JSON syntax of the first bytes of a larger file: a syntax error there is the whole
  // file's first one (the reader never looks ahead), so the file is refused without reading the rest.
  void check_head() {
    LoadedTrace ignored;
    try {
      read_json(ignored);
    } catch (const JsonSyntaxError& e) {
      if (!e.truncated) throw invalid_json(e);
    }
  }

  LoadedTrace read() {
    LoadedTrace out;
    out.format = "chrome-trace";
    try {
      read_json(out);
    } catch (const JsonSyntaxError& e) {
      if (e.truncated) throw refuse("the JSON ends early after " + std::to_string(e.offset) + " bytes (truncated file?)");
      throw invalid_json(e);
    }

    if (root_is_array_) throw refuse("a JSON array, not a DeviceScope Chrome trace (no metadata)");
    if (!md_.present || md_.producer != "DeviceScope" || md_.format != kChromeTraceFormat)
      throw refuse("no DeviceScope metadata (a JSON file or Chrome trace written by another program?)");
    if (!md_.format_version) throw refuse("metadata: 'format_version' is missing or not a non-negative integer");
    if (*md_.format_version > uint64_t(kChromeTraceFormatVersion))
      throw refuse("written by a newer DeviceScope (format_version " + std::to_string(*md_.format_version) +
                   ", this build reads up to " + std::to_string(kChromeTraceFormatVersion) + ")");
    if (!problem_.empty()) throw refuse(problem_);
    if (!saw_events_) throw refuse("no traceEvents array");
    if (!saw_rows_) throw refuse("no devicescopeEvents array");
    bool columns_ok = md_.columns && md_.columns->size() == std::size(kTraceEventColumns);
    for (size_t i = 0; columns_ok && i < md_.columns->size(); ++i) columns_ok = (*md_.columns)[i] == kTraceEventColumns[i];
    if (!columns_ok) throw refuse("metadata.event_columns does not list the event columns this build reads");
    auto need = [&](const auto& field, const char* key, const char* want) {
      if (!field) throw refuse(std::string("metadata: '") + key + "' is missing or not " + want);
    };
    need(md_.transfer_count, "transfer_count", "a non-negative integer");
    need(md_.event_count, "event_count", "a non-negative integer");
    if (*md_.transfer_count != out.transfers.size())
      throw refuse("metadata says " + std::to_string(*md_.transfer_count) + " transfers but the file has " +
                   std::to_string(out.transfers.size()));
    if (*md_.event_count != out.events.size())
      throw refuse("metadata says " + std::to_string(*md_.event_count) + " events but the file has " +
                   std::to_string(out.events.size()));
    if (auto d = ids_.find_duplicate())
      throw refuse("transfer id " + std::to_string(d->id) + " appears twice (traceEvents[" + std::to_string(d->first) +
                   "] and traceEvents[" + std::to_string(d->second) + "])");
    need(md_.version, "devicescope_version", "a string");
    need(md_.backend, "backend", "a string");
    need(md_.simulated, "simulated", "true or false");
    need(md_.link, "link_profile", "a string");
    need(md_.machine, "machine", "a string");
    out.meta = {*md_.backend, *md_.simulated, *md_.link, *md_.version, *md_.machine, md_.events_dropped,
                md_.transfers_dropped};
    if (!md_.run.empty()) out.run_json = md_.run + "}";
    return out;
  }

 private:
  Error refuse(const std::string& what) const { return not_a_trace(name_, what); }
  Error invalid_json(const JsonSyntaxError& e) const {
    return refuse("invalid JSON at byte " + std::to_string(e.offset) + ": " + e.what());
  }

  // The document's top level; JSON syntax errors propagate as JsonSyntaxError.
  void read_json(LoadedTrace& out) {
    if (r_.peek() == Type::Array) {
      root_is_array_ = true;
      r_.skip_value();
    } else {
      r_.begin_object();  // anything else than '{' is a syntax error here
      std::string_view key;
      // JSON allows a key twice, but which one a reader keeps differs between readers: a DeviceScope
      // trace with two traceEvents arrays could show something other than what Perfetto shows.
      bool saw_metadata = false;
      auto once = [&](bool& seen) {
        if (seen) note_problem("the key '" + std::string(key) + "' appears twice");
        seen = true;
      };
      while (r_.next_key(key)) {
        if (key == "traceEvents" && r_.peek() == Type::Array) {
          once(saw_events_);
          read_trace_events(out);
        } else if (key == "devicescopeEvents" && r_.peek() == Type::Array) {
          once(saw_rows_);
          read_event_rows(out);
        } else if (key == "metadata" && r_.peek() == Type::Object) {
          once(saw_metadata);
          read_metadata();
        } else if (key == "devicescopeRecorder" && r_.peek() == Type::Object) {
          const size_t from = r_.offset();  // kept as text: its readers (the app, inspect) parse what they use
          r_.skip_value();
          out.recorder_json.assign(data_ + from, r_.offset() - from);
        } else {
          r_.skip_value();
        }
      }
    }
    r_.finish();
    progress_.publish(r_.offset());
  }
  void note_problem(const std::string& what) {
    if (problem_.empty()) problem_ = what;
  }

  void read_trace_events(LoadedTrace& out) {
    r_.begin_array();
    std::string_view key;
    for (size_t index = 0; r_.next_element(); ++index) {
      progress_.at(r_.offset());
      if (r_.peek() != Type::Object) {
        note_problem("traceEvents[" + std::to_string(index) + "] is not an object");
        r_.skip_value();
        continue;
      }
      r_.begin_object();
      bool is_x = false, is_transfer = false, has_args = false;
      uint32_t seen = 0;
      int bad = -1;        // first arg with a wrong value
      int duplicate = -1;  // first arg given twice
      TransferRecord t;
      while (r_.next_key(key)) {
        if (key == "ph" && r_.peek() == Type::String) {
          is_x = r_.read_string() == "X";
        } else if (key == "cat" && r_.peek() == Type::String) {
          is_transfer = r_.read_string() == "transfer";
        } else if (key == "args" && r_.peek() == Type::Object) {
          has_args = true;
          r_.begin_object();
          while (r_.next_key(key)) {
            int arg = 0;
            while (arg < kArgCount && kArgs[arg]->key_in_chrome_trace() != key) ++arg;
            if (arg == kArgCount) {
              r_.skip_value();
              continue;
            }
            const Value v = read_value(r_, kind_of(kArgs[arg]->kind));
            if (!v.ok || (seen & (1u << arg))) {
              if (v.ok && duplicate < 0) duplicate = arg;
              if (!v.ok && bad < 0) bad = arg;
              continue;
            }
            kArgs[arg]->set(t, field_value(v));
            seen |= 1u << arg;
          }
        } else {
          r_.skip_value();
        }
      }
      if (!is_x || !is_transfer) continue;
      if (!has_args) {
        note_problem("traceEvents[" + std::to_string(index) + "]: transfer slice has no args object");
        continue;
      }
      if (bad < 0 && seen != (1u << kArgCount) - 1)
        for (bad = 0; seen & (1u << bad);) ++bad;
      if (bad >= 0) {
        note_problem("traceEvents[" + std::to_string(index) + "]: '" + std::string(kArgs[bad]->name) +
                     "' is missing or not " + wanted(kind_of(kArgs[bad]->kind)));
        continue;
      }
      if (duplicate >= 0) {
        note_problem("traceEvents[" + std::to_string(index) + "]: args has '" + std::string(kArgs[duplicate]->name) +
                     "' twice");
        continue;
      }
      if (const std::string problem = transfer_problem(t); !problem.empty()) {
        note_problem("traceEvents[" + std::to_string(index) + "] (transfer " + std::to_string(t.id) + "): " + problem);
        continue;
      }
      ids_.add(t.id, index);
      out.transfers.push_back(std::move(t));
    }
  }

  void read_event_rows(LoadedTrace& out) {
    static constexpr Kind kinds[] = {Kind::U64, Kind::EventKindText, Kind::U64, Kind::PlaceText, Kind::U64,
                                     Kind::U64, Kind::U64,           Kind::String, Kind::U64,    Kind::U64};
    static_assert(std::size(kinds) == std::size(kTraceEventColumns));
    r_.begin_array();
    for (size_t index = 0; r_.next_element(); ++index) {
      progress_.at(r_.offset());
      auto where = [&] { return "devicescopeEvents[" + std::to_string(index) + "]"; };
      if (r_.peek() != Type::Array) {
        note_problem(where() + ": expected an array of " + std::to_string(std::size(kinds)) + " values");
        r_.skip_value();
        continue;
      }
      r_.begin_array();
      Event e;
      size_t column = 0;
      bool ok = true;
      for (; r_.next_element(); ++column) {
        if (column >= std::size(kinds)) {
          r_.skip_value();
          continue;
        }
        const Value v = read_value(r_, kinds[column]);
        if (!v.ok) {
          if (ok && kinds[column] == Kind::EventKindText && !v.s.empty())
            note_problem(where() + ": unknown event kind '" + std::string(v.s) + "'");
          else if (ok)
            note_problem(where() + ": " + kTraceEventColumns[column] + " is not " + wanted(kinds[column]));
          ok = false;
          continue;
        }
        switch (column) {
          case 0: e.seq = v.u; break;
          case 1: e.kind = v.event; break;
          case 2: e.time_ns = v.u; break;
          case 3: e.place = v.place; break;
          case 4: e.storage_id = v.u; break;
          case 5: e.bytes = v.u; break;
          case 6: e.transfer_id = v.u; break;
          case 7: e.label.assign(v.s); break;
          case 8: e.allocated_after = v.u; break;
          case 9: e.reserved_after = v.u; break;
        }
      }
      if (ok && column != std::size(kinds)) {
        note_problem(where() + ": expected an array of " + std::to_string(std::size(kinds)) + " values");
        ok = false;
      }
      if (ok) out.events.push_back(std::move(e));
    }
  }

  void read_metadata() {
    md_.present = true;
    r_.begin_object();
    std::string_view key;
    auto string = [&](std::optional<std::string>& field) {
      const Value v = read_value(r_, Kind::String);
      if (v.ok) field = std::string(v.s);
    };
    auto u64 = [&](std::optional<uint64_t>& field) {
      const Value v = read_value(r_, Kind::U64);
      if (v.ok) field = v.u;
    };
    while (r_.next_key(key)) {
      if (key == "producer") string(md_.producer);
      else if (key == "format") string(md_.format);
      else if (key == "devicescope_version") string(md_.version);
      else if (key == "backend") string(md_.backend);
      else if (key == "link_profile") string(md_.link);
      else if (key == "machine") string(md_.machine);
      else if (key == "format_version") u64(md_.format_version);
      else if (key == "transfer_count") u64(md_.transfer_count);
      else if (key == "event_count") u64(md_.event_count);
      else if (key == "events_dropped" || key == "transfers_dropped") {
        const Value v = read_value(r_, Kind::U64);
        if (v.ok) (key == "events_dropped" ? md_.events_dropped : md_.transfers_dropped) = v.u;
      }
      else if (key == "simulated") {
        const Value v = read_value(r_, Kind::Bool);
        if (v.ok) md_.simulated = v.b;
      } else if (key == "event_columns" && r_.peek() == Type::Array) {
        std::vector<std::string> columns;
        bool ok = true;
        r_.begin_array();
        while (r_.next_element()) {
          const Value v = read_value(r_, Kind::String);
          ok = ok && v.ok;
          if (v.ok) columns.emplace_back(v.s);
        }
        if (ok) md_.columns = std::move(columns);
      } else if (key == "script" || key == "script_args" || key == "exit_status" || key == "ended_by") {
        // the recorder's facts about the run, kept as JSON text for inspect (any JSON value; read, never run)
        const std::string name(key);
        const size_t from = r_.offset();
        r_.skip_value();
        md_.run += (md_.run.empty() ? "{\"" : ",\"") + name + "\":" + std::string(data_ + from, r_.offset() - from);
      } else {
        r_.skip_value();
      }
    }
  }

  JsonReader r_;
  const char* data_;
  const std::string& name_;
  ParseProgress progress_;
  Metadata md_;
  std::string problem_;
  bool root_is_array_ = false, saw_events_ = false, saw_rows_ = false;
  UniqueIdCheck ids_;
};

// The first bytes of a file, printable, for "starts with ..." messages.
std::string opening(const char* data, size_t size) {
  std::string s;
  for (size_t i = 0; i < size && s.size() < 24; ++i) {
    const unsigned char c = static_cast<unsigned char>(data[i]);
    s.push_back(c >= 0x20 && c < 0x7f ? char(c) : '?');
  }
  return s;
}

}  // namespace

LoadedTrace parse_chrome_trace(const char* data, size_t size, const std::string& name, LoadProgress* progress) {
  return ChromeTraceReader(data, size, name, progress).read();
}

void check_chrome_trace_head(const char* data, size_t size, const std::string& name) {
  ChromeTraceReader(data, size, name, nullptr).check_head();
}

namespace {

size_t after_bom(std::string_view s) { return s.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

// Where the content starts: after a UTF-8 byte order mark and white space.
size_t content_start(std::string_view s) {
  size_t i = after_bom(s);
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  return i;
}



void sniff_csv(const std::string& path, std::string_view content) {
  check_transfers_csv_head(content.data(), content.size(), path);
}

// Refuses from the first bytes (`head`, of a file of `size` bytes) what cannot be a recording, so a
// huge foreign file is not read into memory only to be refused. What it lets through is parsed fully.
void sniff_recording(const std::string& path, std::string_view head, size_t size, bool csv_only) {
  if (size == 0) throw not_a_trace(path, "the file is empty");
  const bool whole = head.size() == size;
  if (csv_only) {
    if (!whole) sniff_csv(path, head.substr(after_bom(head)));
    return;
  }
  const size_t i = content_start(head);
  if (i == head.size()) {
    if (whole) throw not_a_trace(path, "the file holds only white space");
    throw not_a_trace(path, "the file starts with more than " + std::to_string(head.size()) + " bytes of white space");
  }
  const std::string_view content = head.substr(i);
  if (content[0] == '{' || content[0] == '[') {
    if (!whole) check_chrome_trace_head(content.data(), content.size(), path);
    return;
  }
  if (starts_like_transfers_csv(content)) {
    if (!whole) sniff_csv(path, content);
    return;
  }
  throw not_a_trace(path, "neither Chrome trace JSON nor a DeviceScope transfers CSV (it starts with \"" +
                              opening(content.data(), content.size()) + "\")");
}

}  // namespace

LoadedTrace load_trace(const std::string& path, LoadProgress* progress) {
  const FileBytes file = read_recording_file(
      path, [&](std::string_view head, size_t size) { sniff_recording(path, head, size, false); }, progress);
  const std::string_view all(file.begin(), file.size);
  const size_t i = content_start(all);
  const std::string_view content = all.substr(i);
  LoadedTrace out;
  if (content[0] == '{' || content[0] == '[') {
    out = ChromeTraceReader(content.data(), content.size(), path, progress).read();
  } else {
    out.format = "csv";
    out.meta.simulated = false;
    out.transfers = parse_transfers_csv(content.data(), content.size(), path, progress);
    for (const auto& t : out.transfers) out.meta.simulated = out.meta.simulated || t.simulated;
  }
  if (progress) progress->bytes_done = file.size;
  return out;
}

std::deque<TransferRecord> load_transfers_csv(const std::string& path, LoadProgress* progress) {
  const FileBytes file = read_recording_file(
      path, [&](std::string_view head, size_t size) { sniff_recording(path, head, size, true); }, progress);
  const std::string_view all(file.begin(), file.size);
  const size_t skip = after_bom(all);
  auto out = parse_transfers_csv(all.data() + skip, all.size() - skip, path, progress);
  if (progress) progress->bytes_done = file.size;
  return out;
}

}  // namespace ds
