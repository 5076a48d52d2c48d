// From the generic pickle tree to MemorySnapshot: strings, frames and stacks are deduplicated by the
// tree value they came from (a memoized value is one id however often the file refers to it).
#include "snapshot/memory_snapshot.h"

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "core/errors.h"

namespace ds::snapshot {

const char* block_state_name(BlockState s) {
  switch (s) {
    case BlockState::ActiveAllocated: return "active_allocated";
    case BlockState::ActivePendingFree: return "active_pending_free";
    case BlockState::Inactive: return "inactive";
  }
  return "?";
}

const char* trace_action_name(TraceAction a) {
  switch (a) {
    case TraceAction::Alloc: return "alloc";
    case TraceAction::FreeRequested: return "free_requested";
    case TraceAction::FreeCompleted: return "free_completed";
    case TraceAction::SegmentAlloc: return "segment_alloc";
    case TraceAction::SegmentFree: return "segment_free";
    case TraceAction::SegmentMap: return "segment_map";
    case TraceAction::SegmentUnmap: return "segment_unmap";
    case TraceAction::Oom: return "oom";
    case TraceAction::Snapshot: return "snapshot";
    case TraceAction::Other: return "other";
  }
  return "?";
}

bool looks_like_pickle(std::string_view head) {
  if (head.empty()) return false;
  const unsigned char c = head[0];
  if ((c == 0x80 && head.size() >= 2 && uint8_t(head[1]) <= 5) || c == '(' || c == ']' || c == '}') return true;
  // torch.save's zip: the reader refuses it saying what it is (not "neither JSON nor CSV").
  if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4)) return true;
  // A protocol-0 GLOBAL ("cposix\nsystem\n": what a code-running pickle starts with): the reader
  // refuses it naming the opcode.
  if (c == 'c') {
    size_t i = 1;
    while (i < head.size() && (std::isalnum(uint8_t(head[i])) || head[i] == '_' || head[i] == '.')) ++i;
    return i > 1 && i < head.size() && head[i] == '\n';
  }
  return false;
}

namespace {

// Stacks are deduplicated by content without copying it into a key: the set holds stack ids and hashes
// and compares their frame ranges in out_.stack_frames.
struct StackContent {
  const MemorySnapshot* s;
  size_t operator()(StackId id) const {
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = s->stack_begin[id]; i < s->stack_begin[id + 1]; ++i) h = (h ^ s->stack_frames[i]) * 1099511628211ull;
    return size_t(h ^ (h >> 29));
  }
  bool operator()(StackId a, StackId b) const {
    const size_t n = s->stack_size(a);
    return n == s->stack_size(b) &&
           std::equal(s->stack_frames.begin() + s->stack_begin[a], s->stack_frames.begin() + s->stack_begin[a] + n,
                      s->stack_frames.begin() + s->stack_begin[b]);
  }
};

class Converter {
 public:
  // `streaming`: the document being read, when the converter is its AppendHook (load_memory_snapshot).
  // Frame dicts and frame lists are then converted in place (PickleKind::Frame / Stack) at their first
  // reference, so the millions of later references cost an index read, and the lists' items are freed.
  Converter(const PickleDocument& doc, const std::string& name, PickleDocument* streaming = nullptr)
      : doc_(doc), name_(name), streaming_(streaming) {}

  MemorySnapshot run() {
    const ValueId root = doc_.root;
    if (doc_.is_sequence(root)) {  // 1.x: the list of segments itself
      out_.format_major = 1;
      read_segments(root, out_.segments);
      return std::move(out_);
    }
    if (doc_.kind(root) != PickleKind::Dict)
      fail(std::string("the file holds a ") + pickle_kind_name(doc_.kind(root)) + ", not a dict with \"segments\" or a list of segments");
    const ValueId* segments = doc_.find(root, "segments");
    if (!segments) fail("the dict has no \"segments\"");
    read_segments(*segments, out_.segments);
    if (const ValueId* traces = doc_.find(root, "device_traces")) {
      if (!doc_.is_sequence(*traces)) fail("\"device_traces\" is not a list");
      for (ValueId per_device : doc_.items(*traces)) {
        if (!doc_.is_sequence(per_device)) fail("a device trace is not a list");
        out_.device_traces.push_back(device_trace(doc_.items(per_device)));
      }
    }
    // Pinned host memory (record_host=True): after the device traces, which may have taken the entries whole.
    if (const ValueId* host = doc_.find(root, "host_segments")) {
      out_.has_host_records = true;
      read_segments(*host, out_.host_segments);
      for (SnapshotSegment& seg : out_.host_segments) seg.device = -1;
    }
    if (const ValueId* host = doc_.find(root, "host_traces")) {
      if (!doc_.is_sequence(*host)) fail("\"host_traces\" is not a list");
      out_.has_host_records = true;
      // One list of entries, or (like device_traces) a list of them.
      std::vector<ValueId> entries;
      for (ValueId v : doc_.items(*host)) {
        if (doc_.is_sequence(v)) entries.insert(entries.end(), doc_.items(v).begin(), doc_.items(v).end());
        else entries.push_back(v);
      }
      out_.host_trace = device_trace(entries);
    }
    if (const ValueId* settings = doc_.find(root, "allocator_settings"); settings && doc_.kind(*settings) == PickleKind::Dict)
      read_settings(*settings);
    if (const ValueId* notes = doc_.find(root, "external_annotations"); notes && doc_.is_sequence(*notes))
      for (ValueId a : doc_.items(*notes))
        if (doc_.kind(a) == PickleKind::Dict) out_.annotations.push_back(annotation(a));
    // Counted here, not per converted entry: the hook also converts dicts with an "action" that are
    // in no device trace (fuzz_pytorch_snapshot found the streamed count then differed).
    for (const TraceEntries& t : out_.device_traces)
      for (const SnapshotTraceEntry& e : t) out_.other_actions += e.action == TraceAction::Other;
    return std::move(out_);
  }

  // The AppendHook: a dict with a text "action" is a trace entry; convert it now and let the reader
  // drop it from the tree.
  // A frame dict (a text "filename", an int "line") is converted at its first append too.
  bool take_entry(PickleDocument& doc, ValueId dict) {
    const ValueId* action = doc_.find(dict, "action");
    if (action && doc_.is_text(*action)) {
      taken_.push_back(trace_entry(dict));
      doc.take_dict(dict, taken_.size() - 1);
      return true;
    }
    if (!looks_like_frame(dict)) return false;
    doc.convert(dict, PickleKind::Frame, frame_index(dict));
    return true;
  }

 private:
  TraceEntries device_trace(const std::vector<ValueId>& items) {
    // The usual case: one device's entries were taken in order while reading; hand them over whole.
    bool in_order = items.size() == taken_.size() && !taken_.empty();
    for (size_t i = 0; in_order && i < items.size(); ++i)
      in_order = doc_.kind(items[i]) == PickleKind::Taken && doc_.at(items[i]).bits == i;
    if (in_order) return std::move(taken_);
    TraceEntries entries;
    for (ValueId e : items)
      entries.push_back(doc_.kind(e) == PickleKind::Taken ? taken_.at(doc_.at(e).bits) : trace_entry(e));
    return entries;
  }

  [[noreturn]] void fail(const std::string& what) const {
    raise(ErrorKind::ValueError, name_ + ": not a PyTorch memory snapshot: " + what);
  }
  void need_dict(ValueId v, const char* what) const {
    if (doc_.kind(v) != PickleKind::Dict) fail(std::string(what) + " is a " + pickle_kind_name(doc_.kind(v)) + ", not a dict");
  }
  int64_t int_value(ValueId v, const char* key, int64_t fallback) const {
    if (doc_.kind(v) == PickleKind::None) return fallback;
    if (doc_.kind(v) == PickleKind::Bool) return doc_.as_bool(v);
    if (!doc_.is_int(v)) fail(std::string("\"") + key + "\" is a " + pickle_kind_name(doc_.kind(v)) + ", not an int");
    return doc_.as_int(v);
  }
  int64_t int_field(ValueId dict, const char* key, int64_t fallback = 0) const {
    const ValueId* v = doc_.find(dict, key);
    return v ? int_value(*v, key, fallback) : fallback;
  }
  const std::string* text_field(ValueId dict, const char* key) const {
    const ValueId* v = doc_.find(dict, key);
    return v && doc_.is_text(*v) ? &doc_.as_text(*v) : nullptr;
  }

  // Strings, frames and stacks are stored once by content too: a file written without shared objects
  // (each frame its own dict) still costs memory per distinct frame, not per reference.
  uint32_t string_index(ValueId v) {
    if (!doc_.is_text(v)) return 0;
    if (auto it = strings_.find(v); it != strings_.end()) return it->second;
    auto [by_text, added] = strings_by_text_.try_emplace(doc_.as_text(v), uint32_t(out_.strings.size()));
    if (added) out_.strings.push_back(doc_.as_text(v));
    strings_.emplace(v, by_text->second);
    return by_text->second;
  }
  // Only a dict that frame_index reads without an error: the hook must not refuse a file the whole-tree
  // conversion accepts (a dict with a "filename" somewhere else in the file).
  bool looks_like_frame(ValueId d) const {
    const ValueId* file = doc_.find(d, "filename");
    if (!file || !doc_.is_text(*file)) return false;
    const ValueId* line = doc_.find(d, "line");
    if (!line) return true;
    const PickleKind k = doc_.kind(*line);
    return k == PickleKind::Int || k == PickleKind::Bool || k == PickleKind::None;
  }
  uint32_t frame_index(ValueId f) {
    if (doc_.kind(f) == PickleKind::Frame) return uint32_t(doc_.at(f).bits);
    if (auto it = frames_.find(f); it != frames_.end()) return it->second;
    need_dict(f, "a frame");
    SnapshotFrame fr;
    if (const ValueId* v = doc_.find(f, "filename")) fr.filename = string_index(*v);
    if (const ValueId* v = doc_.find(f, "name")) fr.name = string_index(*v);
    fr.line = int_field(f, "line");
    const std::string key = std::to_string(fr.filename) + ":" + std::to_string(fr.name) + ":" + std::to_string(fr.line);
    auto [by_content, added] = frames_by_content_.try_emplace(key, uint32_t(out_.frames.size()));
    if (added) out_.frames.push_back(fr);
    frames_.emplace(f, by_content->second);
    return by_content->second;
  }
  StackId stack(const ValueId* frames) {
    if (!frames) return 0;
    if (doc_.kind(*frames) == PickleKind::Stack) return StackId(doc_.at(*frames).bits);
    if (!doc_.is_sequence(*frames) || doc_.items(*frames).empty()) return 0;
    if (!streaming_)
      if (auto it = stacks_.find(*frames); it != stacks_.end()) return it->second;
    // The candidate goes at the end of stack_frames; it is removed again when an equal stack exists.
    const StackId candidate = StackId(out_.stack_begin.size() - 1);
    for (ValueId f : doc_.items(*frames)) out_.stack_frames.push_back(frame_index(f));
    out_.stack_begin.push_back(uint32_t(out_.stack_frames.size()));
    auto [it, added] = stacks_by_content_.insert(candidate);
    if (!added) {
      out_.stack_frames.resize(out_.stack_begin[candidate]);
      out_.stack_begin.pop_back();
    }
    if (streaming_) streaming_->convert(*frames, PickleKind::Stack, *it);
    else stacks_.emplace(*frames, *it);
    return *it;
  }

  void read_settings(ValueId d) {
    AllocatorSettings& st = out_.settings;
    st.expandable_segments = int_field(d, "expandable_segments") != 0;
    const int64_t split = int_field(d, "max_split_size", -1);
    st.max_split_size = split <= 0 ? UINT64_MAX : uint64_t(split);
    const ValueId* roundup = doc_.find(d, "roundup_power2_divisions");
    if (!roundup || doc_.kind(*roundup) != PickleKind::Dict) return;
    // Keys "1", "2", "4", ... name the intervals from 1 MiB up (memory_snapshot.cpp doubles the key).
    const std::vector<ValueId>& kv = doc_.items(*roundup);
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
      if (!doc_.is_text(kv[i]) || !doc_.is_int(kv[i + 1])) continue;
      const std::string& key = doc_.as_text(kv[i]);
      for (int b = 0; b < 16; ++b)
        if (key == std::to_string(uint64_t(1) << b)) st.roundup_power2_divisions[b] = uint32_t(std::max<int64_t>(doc_.as_int(kv[i + 1]), 0));
    }
  }

  SnapshotAnnotation annotation(ValueId d) {
    SnapshotAnnotation a;
    const std::vector<ValueId>& kv = doc_.items(d);
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
      if (!doc_.is_text(kv[i])) continue;
      const std::string& key = doc_.as_text(kv[i]);
      const ValueId v = kv[i + 1];
      if (key == "device") a.device = int(int_value(v, "device", 0));
      else if (key == "time_us") a.time_us = int_value(v, "time_us", 0);
      else if (doc_.is_text(v)) a.metadata.emplace_back(key, doc_.as_text(v).substr(0, 4096));
      else if (doc_.is_int(v)) a.metadata.emplace_back(key, std::to_string(doc_.as_int(v)));
    }
    return a;
  }

  void read_segments(ValueId list, std::vector<SnapshotSegment>& into) {
    if (!doc_.is_sequence(list)) fail("\"segments\" is not a list");
    for (ValueId s : doc_.items(list)) {
      need_dict(s, "a segment");
      SnapshotSegment seg;
      seg.device = int(int_field(s, "device"));
      seg.address = uint64_t(int_field(s, "address"));
      seg.total_size = uint64_t(int_field(s, "total_size"));
      seg.allocated_size = uint64_t(int_field(s, "allocated_size"));
      seg.active_size = uint64_t(int_field(s, "active_size"));
      seg.requested_size = uint64_t(int_field(s, "requested_size"));
      seg.stream = int_field(s, "stream");
      const std::string* type = text_field(s, "segment_type");
      seg.small_pool = type && *type == "small";
      seg.is_expandable = int_field(s, "is_expandable") != 0;
      if (const ValueId* pool = doc_.find(s, "segment_pool_id"); pool && doc_.is_sequence(*pool)) {
        const std::vector<ValueId>& ids = doc_.items(*pool);
        for (size_t i = 0; i < 2 && i < ids.size(); ++i) seg.pool_id[i] = int_value(ids[i], "segment_pool_id", 0);
      }
      seg.stack = stack(doc_.find(s, "frames"));
      if (const ValueId* blocks = doc_.find(s, "blocks")) {
        if (!doc_.is_sequence(*blocks)) fail("a segment's \"blocks\" is not a list");
        uint64_t next_address = seg.address;  // 1.x blocks have no address: they tile the segment in order
        for (ValueId b : doc_.items(*blocks)) {
          seg.blocks.push_back(block(b, next_address));
          next_address = seg.blocks.back().address + seg.blocks.back().size;
        }
      }
      into.push_back(std::move(seg));
    }
  }

  SnapshotBlock block(ValueId b, uint64_t default_address) {
    need_dict(b, "a block");
    SnapshotBlock blk;
    blk.address = uint64_t(int_field(b, "address", int64_t(default_address)));
    blk.size = uint64_t(int_field(b, "size"));
    blk.requested_size = uint64_t(int_field(b, "requested_size"));
    const std::string* state = text_field(b, "state");
    if (!state) fail("a block has no \"state\"");
    if (*state == "active_allocated") blk.state = BlockState::ActiveAllocated;
    // PyTorch's docstring once called it "active_awaiting_free"; the allocator writes "active_pending_free".
    else if (*state == "active_pending_free" || *state == "active_awaiting_free") blk.state = BlockState::ActivePendingFree;
    else if (*state == "inactive") blk.state = BlockState::Inactive;
    else fail("a block's state is \"" + state->substr(0, 60) + "\"");
    blk.stack = stack(doc_.find(b, "frames"));
    if (const ValueId* history = doc_.find(b, "history"); history && doc_.is_sequence(*history)) {
      // 1.x: the allocations that share this block; the last one is the block's current owner.
      uint64_t requested = 0;
      for (ValueId h : doc_.items(*history)) {
        need_dict(h, "a block history entry");
        requested += uint64_t(int_field(h, "real_size"));
        if (StackId s = stack(doc_.find(h, "frames"))) blk.stack = s;
      }
      if (blk.requested_size == 0) blk.requested_size = requested;
    }
    return blk;
  }

  SnapshotTraceEntry trace_entry(ValueId e) {
    need_dict(e, "a trace entry");
    SnapshotTraceEntry t;
    bool has_action = false;
    const ValueId *frames = nullptr, *device_free = nullptr;
    // One pass over the entry's keys rather than a lookup per field: this runs once per trace entry.
    const std::vector<ValueId>& kv = doc_.items(e);
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
      if (!doc_.is_text(kv[i])) continue;
      const std::string& key = doc_.as_text(kv[i]);
      const ValueId v = kv[i + 1];
      if (key == "action") {
        has_action = doc_.is_text(v);
        if (has_action) t.action = action_of(doc_.as_text(v));
      } else if (key == "addr") t.addr = uint64_t(int_value(v, "addr", 0));
      else if (key == "size") t.size = uint64_t(int_value(v, "size", 0));
      else if (key == "stream") t.stream = int_value(v, "stream", 0);
      else if (key == "time_us") t.time_us = int_value(v, "time_us", 0);
      else if (key == "frames") frames = &kv[i + 1];
      else if (key == "compile_context") t.compile_context = string_index(v);
      else if (key == "user_metadata") t.user_metadata = string_index(v);
      else if (key == "device_free") device_free = &kv[i + 1];
    }
    if (!has_action) fail("a trace entry has no \"action\"");
    // Before "device_free" existed an oom entry carried the free bytes in "addr".
    const int64_t free_fallback = t.action == TraceAction::Oom ? int64_t(t.addr) : 0;
    t.device_free = uint64_t(device_free ? int_value(*device_free, "device_free", free_fallback) : free_fallback);
    t.stack = stack(frames);
    return t;
  }

  static TraceAction action_of(const std::string& text) {
    static const std::pair<std::string_view, TraceAction> kActions[] = {
        {"alloc", TraceAction::Alloc}, {"free_requested", TraceAction::FreeRequested},
        {"free_completed", TraceAction::FreeCompleted}, {"segment_alloc", TraceAction::SegmentAlloc},
        {"segment_free", TraceAction::SegmentFree}, {"segment_map", TraceAction::SegmentMap},
        {"segment_unmap", TraceAction::SegmentUnmap}, {"oom", TraceAction::Oom}, {"snapshot", TraceAction::Snapshot}};
    for (const auto& [name, a] : kActions)
      if (text == name) return a;
    return TraceAction::Other;
  }

  const PickleDocument& doc_;
  const std::string& name_;
  MemorySnapshot out_;
  TraceEntries taken_;  // converted while reading, by the index take_dict stored
  std::unordered_map<ValueId, uint32_t> strings_, frames_;
  std::unordered_map<ValueId, StackId> stacks_;
  std::unordered_map<std::string, uint32_t> strings_by_text_, frames_by_content_;
  std::unordered_set<StackId, StackContent, StackContent> stacks_by_content_{1024, StackContent{&out_}, StackContent{&out_}};
  PickleDocument* streaming_;
};

}  // namespace

MemorySnapshot snapshot_from_pickle(const PickleDocument& doc, const std::string& name) {
  return Converter(doc, name).run();
}

MemorySnapshot load_memory_snapshot_bytes(std::string_view data, const std::string& name) {
  PickleDocument doc;
  Converter converter(doc, name, &doc);
  read_pickle_bytes_into(doc, data, name, PickleLimits{},
                         [&](PickleDocument& d, ValueId dict) { return converter.take_entry(d, dict); });
  return converter.run();
}

MemorySnapshot load_memory_snapshot(const std::string& path, LoadProgress* progress) {
  MemorySnapshot s;
  {
    PickleDocument doc;
    Converter converter(doc, path, &doc);
    read_pickle_file_into(doc, path, progress, PickleLimits{},
                          [&](PickleDocument& d, ValueId dict) { return converter.take_entry(d, dict); });
    s = converter.run();
  }  // the tree goes before the caller sees the snapshot
  ::malloc_trim(0);  // and its pages go back to the system (glibc keeps freed small blocks otherwise)
  return s;
}

}  // namespace ds::snapshot
