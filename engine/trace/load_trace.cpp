// load_trace: format detection, and the Chrome trace reader. The JSON is read with nlohmann's SAX
// parser; only one element of traceEvents / devicescopeEvents exists as a DOM at a time, so a
// million-transfer file does not need gigabytes (a full nlohmann DOM of it would).
#include "trace/load_trace.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

#include "trace/trace_text.h"

namespace ds {
namespace {

using json = nlohmann::json;

// Builds a DOM of the whole document except the elements of the root-level arrays named in
// `streamed`: each of those is handed to `on_element` as soon as it is complete, then dropped.
class StreamingBuilder {
 public:
  using OnElement = std::function<void(const std::string& array_key, size_t index, json& element)>;
  StreamingBuilder(std::vector<std::string> streamed, OnElement on_element)
      : streamed_(std::move(streamed)), on_element_(std::move(on_element)) {}

  json root;
  size_t error_position = 0;
  std::string error_message;

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const std::string&) { return value(json(v)); }
  bool string(std::string& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t& v) { return value(json::binary(std::move(v))); }
  bool start_object(size_t) { return open(json::object()); }
  bool start_array(size_t) {
    if (stack_.size() == 1 && root.is_object() && is_streamed(key_)) {
      root[key_] = json::array();  // stays empty: shows the array was there
      stack_.push_back({nullptr, key_});
      index_ = 0;
      return true;
    }
    return open(json::array());
  }
  bool key(std::string& k) {
    key_ = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    error_position = position;
    error_message = ex.what();
    return false;
  }

 private:
  struct Frame {
    json* node;         // nullptr: a streamed array
    std::string key;    // the root key of a streamed array
  };

  bool is_streamed(const std::string& k) const {
    for (const auto& s : streamed_)
      if (s == k) return true;
    return false;
  }
  // Where a new value goes; delivers finished scalars of streamed arrays at once.
  json* place(json v, bool container) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& top = stack_.back();
    if (top.node == nullptr) {
      element_ = std::move(v);
      if (!container) deliver();
      return &element_;
    }
    if (top.node->is_array()) {
      top.node->push_back(std::move(v));
      return &top.node->back();
    }
    json& slot = (*top.node)[key_];
    slot = std::move(v);
    return &slot;
  }
  bool value(json v) {
    place(std::move(v), false);
    return true;
  }
  bool open(json v) {
    json* node = place(std::move(v), true);
    stack_.push_back({node, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    if (!stack_.empty() && stack_.back().node == nullptr) deliver();
    return true;
  }
  void deliver() {
    on_element_(stack_.back().key, index_++, element_);
    element_ = json();
  }

  std::vector<std::string> streamed_;
  OnElement on_element_;
  std::vector<Frame> stack_;
  std::string key_;
  json element_;
  size_t index_ = 0;
};

// Typed access to one object's fields with messages that name the place in the file.
struct Fields {
  const json& obj;
  const std::string& where;
  const std::string& name;

  [[noreturn]] void bad(const char* key, const char* want) const {
    throw not_a_trace(name, where + ": '" + key + "' is missing or not " + want);
  }
  const json& get(const char* key) const {
    static const json missing;
    auto it = obj.find(key);
    return it == obj.end() ? missing : *it;
  }
  uint64_t u64(const char* key) const {
    const json& v = get(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      bad(key, "a non-negative integer");
    return v.get<uint64_t>();
  }
  int i32(const char* key) const {
    const json& v = get(key);
    if (!v.is_number_integer() || v.get<int64_t>() < std::numeric_limits<int>::min() ||
        v.get<int64_t>() > std::numeric_limits<int>::max())
      bad(key, "an integer");
    return int(v.get<int64_t>());
  }
  double dbl(const char* key) const {
    const json& v = get(key);
    if (!v.is_number()) bad(key, "a number");
    return v.get<double>();
  }
  bool boolean(const char* key) const {
    const json& v = get(key);
    if (!v.is_boolean()) bad(key, "true or false");
    return v.get<bool>();
  }
  const std::string& str(const char* key) const {
    const json& v = get(key);
    if (!v.is_string()) bad(key, "a string");
    return v.get_ref<const std::string&>();
  }
  Place place(const char* key) const {
    auto p = place_from_string(str(key));
    if (!p) bad(key, "a place (pageable, pinned, cuda:N)");
    return *p;
  }
};

TransferRecord transfer_from_args(const json& args, const std::string& where, const std::string& name) {
  if (!args.is_object()) throw not_a_trace(name, where + ": transfer slice has no args object");
  Fields f{args, where, name};
  TransferRecord t;
  t.id = f.u64("id");
  t.src = f.place("src");
  t.dst = f.place("dst");
  t.bytes = f.u64("bytes");
  auto route = route_from_string(f.str("route"));
  if (!route) f.bad("route", "a route (direct, staged-pinned, peer)");
  t.route = *route;
  t.non_blocking = f.boolean("non_blocking");
  t.async = f.boolean("async");
  t.stream_device = f.i32("stream_device");
  t.stream = f.i32("stream");
  t.enqueue_ns = f.u64("enqueue_ns");
  t.start_ns = f.u64("start_ns");
  t.end_ns = f.u64("end_ns");
  t.measured_ns = f.dbl("measured_ns");
  t.simulated = f.boolean("simulated");
  t.complete = f.boolean("complete");
  t.src_storage = f.u64("src_storage");
  t.dst_storage = f.u64("dst_storage");
  t.owner = f.str("owner");
  return t;
}

constexpr const auto& kEventColumns = kTraceEventColumns;

Event event_from_row(const json& row, const std::string& where, const std::string& name) {
  if (!row.is_array() || row.size() != std::size(kEventColumns))
    throw not_a_trace(name, where + ": expected an array of " + std::to_string(std::size(kEventColumns)) + " values");
  auto u64 = [&](size_t i) {
    const json& v = row[i];
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      throw not_a_trace(name, where + ": " + kEventColumns[i] + " is not a non-negative integer");
    return v.get<uint64_t>();
  };
  auto str = [&](size_t i) -> const std::string& {
    if (!row[i].is_string()) throw not_a_trace(name, where + ": " + kEventColumns[i] + " is not a string");
    return row[i].get_ref<const std::string&>();
  };
  Event e;
  e.seq = u64(0);
  auto kind = event_kind_from_string(str(1));
  if (!kind) throw not_a_trace(name, where + ": unknown event kind '" + str(1) + "'");
  e.kind = *kind;
  e.time_ns = u64(2);
  auto place = place_from_string(str(3));
  if (!place) throw not_a_trace(name, where + ": unknown place '" + str(3) + "'");
  e.place = *place;
  e.storage_id = u64(4);
  e.bytes = u64(5);
  e.transfer_id = u64(6);
  e.label = str(7);
  e.allocated_after = u64(8);
  e.reserved_after = u64(9);
  return e;
}

std::string describe_parse_error(const StreamingBuilder& b, size_t size) {
  if (b.error_position >= size)
    return "the JSON ends early after " + std::to_string(size) + " bytes (truncated file?)";
  std::string msg = b.error_message;
  if (auto p = msg.find("] "); msg.rfind("[json.exception", 0) == 0 && p != std::string::npos) msg.erase(0, p + 2);
  return "invalid JSON at byte " + std::to_string(b.error_position) + ": " + msg;
}

// Read-only view of a whole file (mmap; empty files have no mapping).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) raise(ErrorKind::RuntimeError, "cannot read " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
      const int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
      ::close(fd);
      raise(ErrorKind::RuntimeError, "cannot read " + path + ": " + std::strerror(err));
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        const int err = errno;
        ::close(fd);
        raise(ErrorKind::RuntimeError, "cannot read " + path + ": " + std::strerror(err));
      }
      data_ = static_cast<const char*>(p);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const char* data() const { return data_ ? data_ : ""; }
  size_t size() const { return size_; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
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

Error not_a_trace(const std::string& name, const std::string& what) {
  return Error(ErrorKind::ValueError, name + ": not a DeviceScope trace: " + what);
}

LoadedTrace parse_chrome_trace(const char* data, size_t size, const std::string& name) {
  LoadedTrace out;
  out.format = "chrome-trace";
  size_t slices = 0;
  StreamingBuilder builder({"traceEvents", "devicescopeEvents"}, [&](const std::string& key, size_t i, json& el) {
    const std::string where = key + "[" + std::to_string(i) + "]";
    if (key == "devicescopeEvents") {
      out.events.push_back(event_from_row(el, where, name));
      return;
    }
    if (!el.is_object()) throw not_a_trace(name, where + " is not an object");
    auto ph = el.find("ph"), cat = el.find("cat");
    if (ph == el.end() || cat == el.end() || *ph != "X" || *cat != "transfer") return;
    ++slices;
    auto args = el.find("args");
    out.transfers.push_back(transfer_from_args(args == el.end() ? json() : *args, where, name));
  });
  const bool ok = json::sax_parse(data, data + size, &builder);
  if (!ok) throw not_a_trace(name, describe_parse_error(builder, size));

  const json& root = builder.root;
  if (!root.is_object()) throw not_a_trace(name, "a JSON array, not a DeviceScope Chrome trace (no metadata)");
  auto md = root.find("metadata");
  if (md == root.end() || !md->is_object() || md->value("producer", json()) != "DeviceScope" ||
      md->value("format", json()) != kChromeTraceFormat)
    throw not_a_trace(name, "no DeviceScope metadata (a JSON file or Chrome trace written by another program?)");
  Fields f{*md, "metadata", name};
  const uint64_t version = f.u64("format_version");
  if (version > uint64_t(kChromeTraceFormatVersion))
    throw not_a_trace(name, "written by a newer DeviceScope (format_version " + std::to_string(version) +
                                ", this build reads up to " + std::to_string(kChromeTraceFormatVersion) + ")");
  for (const char* key : {"traceEvents", "devicescopeEvents"})
    if (!root.contains(key) || !root[key].is_array()) throw not_a_trace(name, std::string("no ") + key + " array");
  const json& columns = f.get("event_columns");
  if (!columns.is_array() || columns.size() != std::size(kEventColumns))
    throw not_a_trace(name, "metadata.event_columns does not list the event columns this build reads");
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] != kEventColumns[i])
      throw not_a_trace(name, "metadata.event_columns does not list the event columns this build reads");
  const uint64_t want_transfers = f.u64("transfer_count"), want_events = f.u64("event_count");
  if (want_transfers != out.transfers.size())
    throw not_a_trace(name, "metadata says " + std::to_string(want_transfers) + " transfers but the file has " +
                                std::to_string(out.transfers.size()));
  if (want_events != out.events.size())
    throw not_a_trace(name, "metadata says " + std::to_string(want_events) + " events but the file has " +
                                std::to_string(out.events.size()));
  out.meta.version = f.str("devicescope_version");
  out.meta.backend = f.str("backend");
  out.meta.simulated = f.boolean("simulated");
  out.meta.link = f.str("link_profile");
  out.meta.machine = f.str("machine");
  return out;
}

LoadedTrace load_trace(const std::string& path) {
  MappedFile file(path);
  const char* p = file.data();
  size_t n = file.size();
  size_t i = 0;
  if (n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) i = 3;  // UTF-8 byte order mark
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
  if (i == n) throw not_a_trace(path, n == 0 ? "the file is empty" : "the file holds only white space");
  if (p[i] == '{' || p[i] == '[') return parse_chrome_trace(p + i, n - i, path);
  if (std::string_view(p + i, n - i).substr(0, 7) == "id,src,") {
    LoadedTrace out;
    out.format = "csv";
    out.meta.simulated = false;
    out.transfers = parse_transfers_csv(p + i, n - i, path);
    for (const auto& t : out.transfers) out.meta.simulated = out.meta.simulated || t.simulated;
    return out;
  }
  throw not_a_trace(path, "neither Chrome trace JSON nor a DeviceScope transfers CSV (it starts with \"" +
                              opening(p + i, n - i) + "\")");
}

std::deque<TransferRecord> load_transfers_csv(const std::string& path) {
  MappedFile file(path);
  if (file.size() == 0) throw not_a_trace(path, "the file is empty");
  const char* p = file.data();
  size_t skip = file.size() >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  return parse_transfers_csv(p + skip, file.size() - skip, path);
}

}  // namespace ds
