// torch.cuda.memory._record_memory_history / _snapshot over DeviceScope's caching allocator: a recorder
// fed by the allocator's observer (Note [Allocator observer]) and the dict PyTorch 2.x's
// _cuda_memorySnapshot builds (torch/csrc/cuda/Module.cpp), with DeviceScope's owner names as frames.
#include <Python.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings_common.h"
#include "core/errors.h"
#include "trace/export_names.h"  // pick_owner_name: the owner frames name storages as exports do

namespace ds::python {
namespace {

// Note [Memory history]
// ~~~~~~~~~~~~~~~~~~~~~
// Mirrors c10's recordHistory / record_trace (CUDACachingAllocator.cpp) and memory_snapshot.cpp:
//  - RecordContext NEVER < STATE < ALLOC < ALL. A malloc gathers frames at STATE (kept with the block:
//    the snapshot's block "frames"), a free at ALL; a trace entry keeps frames only at ALLOC or above
//    (a free's own frames at ALL, else those of its allocation).
//  - The trace is a ring of max_entries per device ("state" keeps 1); disabling or clear_history empties it.
//  - _snapshot() adds no trace entry: a dump from PyTorch 2.11's _dump_snapshot has no "snapshot" action in it
//    (c10 records SNAPSHOT only for its C++ _memory_snapshot_pickled path), and neither does DeviceScope's.
// Frames are innermost first, Python frames only (DeviceScope's own runner frames left out); with
// stacks="all" one C++ frame names the allocator function. DeviceScope adds one frame in front: the
// storage's owner ({"filename": "<devicescope ROLE>", "line": 0, "name": "model.fc.weight"}), resolved when
// the snapshot is taken: live blocks by address, trace entries through the runtime's alloc/free event that
// followed the allocator's action (its seq is remembered), freed storages by the owner they had then.

enum class Level : int { Never = 0, State = 1, Alloc = 2, All = 3 };

struct Frame {
  std::string filename;
  int64_t line = 0;
  std::string name;
};
using RawStack = std::vector<Frame>;

struct TraceRecord {
  uint8_t action = 0;  // AllocatorAction
  uint64_t addr = 0;   // device_free for oom
  uint64_t size = 0;
  int stream = 0;
  int64_t time_us = 0;
  uint32_t stack = 0;     // 0: no frames
  uint64_t log_seq = 0;   // the runtime event expected right after (its storage names the owner); 0: none
};

// c10's RingBuffer: up to max entries, then the oldest are overwritten.
struct Ring {
  std::vector<TraceRecord> entries;
  size_t next = 0;
  void push(const TraceRecord& r, size_t max) {
    if (entries.size() < max) {
      entries.push_back(r);
    } else {
      entries[next] = r;
      next = (next + 1) % max;
    }
  }
  std::vector<TraceRecord> ordered() const {
    std::vector<TraceRecord> out(entries.begin() + ptrdiff_t(next), entries.end());
    out.insert(out.end(), entries.begin(), entries.begin() + ptrdiff_t(next));
    return out;
  }
  void resize(size_t max) {  // keeps the newest `max`, oldest first
    std::vector<TraceRecord> all = ordered();
    if (all.size() > max) all.erase(all.begin(), all.end() - ptrdiff_t(max));
    entries = std::move(all);
    next = 0;
  }
  void clear() {
    entries.clear();
    next = 0;
  }
};

using Key = std::pair<int, uint64_t>;  // (device, address)

struct History {
  std::mutex mutex;
  std::weak_ptr<Runtime> runtime;  // everything below belongs to this runtime (a session reset makes another)
  uint64_t generation = 0;
  bool observing = false;
  bool enabled = false;
  Level when = Level::Never;
  bool cpp_frames = false;
  size_t max_entries = 1;
  std::vector<std::string> skip_prefixes;  // DeviceScope's runner files: never user frames
  std::vector<Ring> traces;                // per device

  std::vector<Frame> frames;
  std::unordered_map<std::string, uint32_t> frame_ids;
  std::vector<std::vector<uint32_t>> stacks{{}};  // stack 0 is "no frames"
  std::unordered_map<std::string, uint32_t> stack_ids;

  std::map<Key, uint32_t> block_stack;    // live blocks: frames of their allocation (STATE)
  std::map<Key, uint32_t> segment_stack;  // segments: frames of the allocation that made them
  Key last_segment_alloc{-1, 0};          // its frames serve the alloc that follows in the same call
  uint32_t last_segment_alloc_stack = 0;
  Key last_free{-1, 0};                   // free_requested's frames serve free_completed
  uint32_t last_free_stack = 0;

  void reset_for(const std::shared_ptr<Runtime>& r) {
    runtime = r;
    ++generation;
    observing = enabled = cpp_frames = false;
    when = Level::Never;
    max_entries = 1;
    traces.assign(size_t(r ? r->device_count() : 0), Ring{});
    frames.clear();
    frame_ids.clear();
    stacks.assign(1, {});
    stack_ids.clear();
    block_stack.clear();
    segment_stack.clear();
    last_segment_alloc = last_free = {-1, 0};
  }

  uint32_t intern(const RawStack& raw) {
    if (raw.empty()) return 0;
    std::vector<uint32_t> ids;
    ids.reserve(raw.size());
    std::string stack_key;
    for (const Frame& f : raw) {
      std::string key = f.filename;
      key += '\0';
      key += f.name;
      key += '\0';
      key += std::to_string(f.line);
      auto [it, added] = frame_ids.try_emplace(std::move(key), uint32_t(frames.size()));
      if (added) frames.push_back(f);
      ids.push_back(it->second);
      stack_key.append(reinterpret_cast<const char*>(&it->second), sizeof(uint32_t));
    }
    auto [it, added] = stack_ids.try_emplace(std::move(stack_key), uint32_t(stacks.size()));
    if (added) stacks.push_back(std::move(ids));
    return it->second;
  }
};

History& history() {
  static History h;
  return h;
}

// Binds the history to the session's current runtime (a reset starts an empty one). Caller holds the mutex.
History& bound_history() {
  History& h = history();
  std::shared_ptr<Runtime> r = bound_runtime_ptr();
  if (h.runtime.lock() != r || h.traces.size() != size_t(r ? r->device_count() : 0)) h.reset_for(r);
  return h;
}

int64_t now_us() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::string utf8(PyObject* s) {
  if (!s || !PyUnicode_Check(s)) return "??";
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s, &n);
  if (!p) {
    PyErr_Clear();
    return "??";
  }
  return std::string(p, size_t(n));
}

const char* cpp_function(AllocatorAction a) {
  switch (a) {
    case AllocatorAction::FreeRequested:
    case AllocatorAction::FreeCompleted: return "ds::CachingDeviceAllocator::free";
    case AllocatorAction::SegmentFree: return "ds::CachingDeviceAllocator::release_cached_blocks";
    default: return "ds::CachingDeviceAllocator::allocate";
  }
}

// Set while the calling thread stands for a thread of PyTorch's that runs no Python: the autograd engine's
// device thread making its cuBLAS workspace (torch/_blas_workspace.py). Its allocations get C++ frames only.
thread_local bool t_python_frames_hidden = false;

// The calling thread's Python frames, innermost first. Runs no Python code, but making frame objects
// may run the collector (and so frees): it is called without the history's lock.
RawStack capture_stack(const std::vector<std::string>& skip_prefixes, bool cpp_frames, AllocatorAction action) {
  RawStack out;
  if (cpp_frames) out.push_back({"engine/alloc/caching_device_allocator.cpp", 0, cpp_function(action)});
  if (!Py_IsInitialized() || !PyGILState_Check()) return out;  // an engine thread: no Python frames
  if (t_python_frames_hidden) return out;
  // A free may come from a destructor while an exception propagates: leave the error indicator as it was.
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyFrameObject* f = PyThreadState_GetFrame(PyThreadState_Get());
  while (f) {
    PyCodeObject* code = PyFrame_GetCode(f);
    std::string file = utf8(code->co_filename);
    const bool skip = std::any_of(skip_prefixes.begin(), skip_prefixes.end(),
                                  [&](const std::string& p) { return file.rfind(p, 0) == 0; });
    if (!skip) out.push_back({std::move(file), PyFrame_GetLineNumber(f), utf8(code->co_name)});
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  PyErr_Restore(type, value, traceback);
  return out;
}

// What one allocator action needs: frames to gather, and which of them the trace entry keeps.
void on_allocator_event(uint64_t generation, Runtime* runtime, const AllocatorTraceEvent& e) {
  History& h = history();
  bool capture = false, cpp_frames = false;
  std::vector<std::string> skip;
  {
    std::lock_guard<std::mutex> lock(h.mutex);
    if (h.generation != generation) return;  // an allocator of a runtime the session replaced
    const Key key{e.device, e.addr};
    switch (e.action) {
      case AllocatorAction::Alloc:
        capture = h.when >= Level::State && !(key == h.last_segment_alloc);
        break;
      case AllocatorAction::SegmentAlloc:
      case AllocatorAction::Oom: capture = h.when >= Level::State; break;
      case AllocatorAction::FreeRequested:
      case AllocatorAction::SegmentFree: capture = h.when >= Level::All; break;
      case AllocatorAction::FreeCompleted: capture = h.when >= Level::All && !(key == h.last_free); break;
    }
    if (capture) {
      cpp_frames = h.cpp_frames;
      skip = h.skip_prefixes;
    }
  }
  RawStack raw;
  if (capture) raw = capture_stack(skip, cpp_frames, e.action);

  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.generation != generation) return;
  const Key key{e.device, e.addr};
  uint32_t stack = capture ? h.intern(raw) : 0;
  switch (e.action) {
    case AllocatorAction::SegmentAlloc:
      h.segment_stack[key] = stack;
      h.last_segment_alloc = key;
      h.last_segment_alloc_stack = stack;
      break;
    case AllocatorAction::Alloc:
      if (!capture && key == h.last_segment_alloc) stack = h.last_segment_alloc_stack;
      h.last_segment_alloc = {-1, 0};
      if (h.when >= Level::State) h.block_stack[key] = stack;
      else h.block_stack.erase(key);
      break;
    case AllocatorAction::FreeRequested:
      if (!capture) {
        auto it = h.block_stack.find(key);
        stack = it == h.block_stack.end() ? 0 : it->second;
      }
      h.last_free = key;
      h.last_free_stack = stack;
      break;
    case AllocatorAction::FreeCompleted:
      if (!capture) {
        if (key == h.last_free) {
          stack = h.last_free_stack;
        } else {
          auto it = h.block_stack.find(key);
          stack = it == h.block_stack.end() ? 0 : it->second;
        }
      }
      h.last_free = {-1, 0};
      h.block_stack.erase(key);
      break;
    case AllocatorAction::SegmentFree:
      if (!capture) {
        auto it = h.segment_stack.find(key);
        stack = it == h.segment_stack.end() ? 0 : it->second;
      }
      h.segment_stack.erase(key);
      break;
    case AllocatorAction::Oom: break;
  }
  if (!h.enabled || size_t(e.device) >= h.traces.size()) return;
  TraceRecord r;
  r.action = uint8_t(e.action);
  r.addr = e.addr;
  r.size = e.size;
  r.stream = e.stream;
  r.time_us = now_us();
  r.stack = h.when >= Level::Alloc ? stack : 0;
  const bool has_storage = e.action != AllocatorAction::Oom && e.action != AllocatorAction::SegmentFree;
  if (has_storage && runtime->log().enabled()) r.log_seq = runtime->log().last_seq() + 1;
  h.traces[size_t(e.device)].push(r, h.max_entries);
}

void install_observers(History& h, Runtime& r) {
  if (h.observing) return;
  const uint64_t generation = h.generation;
  Runtime* runtime = &r;  // owns the allocators, so it outlives every call of their observers
  for (int d = 0; d < r.device_count(); ++d)
    r.device_allocator(d).set_observer(
        [generation, runtime](const AllocatorTraceEvent& e) { on_allocator_event(generation, runtime, e); });
  h.observing = true;
}

// ---- the snapshot dict ----------------------------------------------------------------------------

// What a snapshot reads of the history, copied under its lock: building Python objects may run the
// collector, whose frees reach on_allocator_event and its lock.
struct HistoryView {
  std::vector<std::vector<TraceRecord>> traces;  // per device, oldest first
  std::vector<Frame> frames;
  std::vector<std::vector<uint32_t>> stacks;
  std::map<Key, uint32_t> block_stack, segment_stack;
};

struct OwnerInfo {
  std::string name;
  std::string role;  // role_name(), or "" when the storage is gone and its role unknown
};

class SnapshotBuilder {
 public:
  SnapshotBuilder(Runtime& r, const HistoryView& h, const std::unordered_map<uint64_t, std::vector<std::string>>& holders)
      : r_(r), h_(h) {
    for (const StoragePtr& s : r.live_storages()) {
      if (s->place().kind != MemoryKind::Device) continue;
      const auto found = holders.find(s->id());
      OwnerInfo info{pick_owner_name(s->owner(), found == holders.end() ? std::vector<std::string>{} : found->second),
                     role_name(s->role())};
      if (info.name.empty()) continue;
      by_address_[{s->place().device, s->block_address()}] = s->id();
      live_[s->id()] = std::move(info);
    }
  }

  py::dict build() {
    py::list segments;
    for (int d = 0; d < r_.device_count(); ++d)
      for (const AllocatorSegmentRecord& seg : r_.device_allocator(d).segment_records())
        segments.append(segment_dict(d, seg));
    resolve_trace_owners();
    py::list traces;
    for (size_t d = 0; d < h_.traces.size(); ++d) {
      py::list trace;
      for (const TraceRecord& t : h_.traces[d]) trace.append(trace_dict(int(d), t));
      traces.append(std::move(trace));
    }
    py::dict out;
    out["segments"] = std::move(segments);
    out["device_traces"] = std::move(traces);
    // The keys of a real 2.11 dump: no "external_annotations" (there are none to report here).
    out["allocator_settings"] = allocator_settings();
    return out;
  }

 private:
  py::object frame_dict(uint32_t id) {
    if (id >= frame_objects_.size()) frame_objects_.resize(h_.frames.size());
    py::object& slot = frame_objects_[id];
    if (!slot) {
      const Frame& f = h_.frames[id];
      py::dict d;
      d[s_filename_] = f.filename;
      d[s_line_] = f.line;
      d[s_name_] = f.name;
      slot = std::move(d);
    }
    return slot;
  }

  py::object backend_frame() {
    if (!backend_frame_) {
      py::dict d;
      d[s_filename_] = "<devicescope backend>";
      d[s_line_] = 0;
      d[s_name_] = r_.backend().caps().simulated ? "simulated CUDA" : "CUDA";
      backend_frame_ = std::move(d);
    }
    return backend_frame_;
  }

  py::object owner_frame(const OwnerInfo& o) {
    const std::string file = "<devicescope " + (o.role.empty() ? std::string("owner") : o.role) + ">";
    auto [it, added] = owner_frames_.try_emplace(file + '\0' + o.name);
    if (added) {
      py::dict d;
      d[s_filename_] = file;
      d[s_line_] = 0;
      d[s_name_] = o.name;
      it->second = std::move(d);
    }
    return it->second;
  }

  // One list object per (owner, stack), shared like PyTorch shares a traceback's list (pickle stores it once).
  py::object frames_list(const OwnerInfo* owner, uint32_t stack) {
    if (!owner && stack == 0) return empty_frames_;
    const std::string key = (owner ? owner->role + '\0' + owner->name : std::string()) + '\x01' + std::to_string(stack);
    auto [it, added] = lists_.try_emplace(key);
    if (added) {
      py::list l;
      if (owner) l.append(owner_frame(*owner));
      for (uint32_t f : h_.stacks[stack]) l.append(frame_dict(f));
      it->second = std::move(l);
    }
    return it->second;
  }

  const OwnerInfo* live_owner_at(int device, uint64_t address) const {
    auto it = by_address_.find({device, address});
    return it == by_address_.end() ? nullptr : &live_.at(it->second);
  }

  py::dict segment_dict(int device, const AllocatorSegmentRecord& seg) {
    uint64_t allocated = 0, requested = 0;
    py::list blocks;
    for (const AllocatorSegmentRecord::Block& b : seg.blocks) {
      py::dict bd;
      bd[s_address_] = b.address;
      bd[s_size_] = b.size;
      bd[s_requested_size_] = b.requested;
      bd[s_state_] = b.allocated ? s_active_allocated_ : s_inactive_;
      if (b.allocated) {
        allocated += b.size;
        requested += b.requested;
        auto st = h_.block_stack.find({device, b.address});
        bd[s_frames_] = frames_list(live_owner_at(device, b.address), st == h_.block_stack.end() ? 0 : st->second);
      } else {
        bd[s_frames_] = empty_frames_;
      }
      blocks.append(std::move(bd));
    }
    py::dict sd;
    sd[s_device_] = device;
    sd[s_address_] = seg.address;
    sd[s_total_size_] = seg.size;
    sd[s_allocated_size_] = allocated;
    sd[s_active_size_] = allocated;  // no block waits on another stream: active == allocated
    sd[s_requested_size_] = requested;
    sd[s_stream_] = seg.stream;
    sd[s_segment_type_] = seg.small_pool ? "small" : "large";
    sd[s_segment_pool_id_] = py::make_tuple(0, 0);
    sd[s_is_expandable_] = false;
    auto st = h_.segment_stack.find({device, seg.address});
    const uint32_t stack = st == h_.segment_stack.end() ? 0 : st->second;
    // Module.cpp adds "frames" after "blocks" once symbolized. A segment's stack ends (outermost) with a frame
    // of DeviceScope's own saying what made the memory - {"filename": "<devicescope backend>", "line": 0,
    // "name": "simulated CUDA" | "CUDA"} - so the app labels the file honestly (memory_viz shows it as a frame).
    sd[s_blocks_] = std::move(blocks);
    py::list frames;
    if (stack != 0)
      for (py::handle f : frames_list(nullptr, stack)) frames.append(f);
    frames.append(backend_frame());
    sd[s_frames_] = std::move(frames);
    return sd;
  }

  // Which storage each trace entry was about (the runtime event that followed it) and its owner then.
  void resolve_trace_owners() {
    uint64_t first = std::numeric_limits<uint64_t>::max();
    for (const std::vector<TraceRecord>& trace : h_.traces)
      for (const TraceRecord& t : trace)
        if (t.log_seq) first = std::min(first, t.log_seq);
    if (first == std::numeric_limits<uint64_t>::max()) return;
    const auto& events = r_.log().events();
    auto it = std::lower_bound(events.begin(), events.end(), first,
                               [](const Event& e, uint64_t seq) { return e.seq < seq; });
    for (; it != events.end(); ++it) {
      if (it->place.kind != MemoryKind::Device || (it->kind != EventKind::Alloc && it->kind != EventKind::Free))
        continue;
      event_storage_[it->seq] = {it->place.device, it->storage_id, it->kind, it->bytes};
      if (!it->label.empty()) gone_names_[it->storage_id] = it->label;  // the latest name it had (a free's)
    }
  }

  const OwnerInfo* trace_owner(int device, const TraceRecord& t) {
    if (!t.log_seq) return nullptr;
    auto ev = event_storage_.find(t.log_seq);
    if (ev == event_storage_.end() || ev->second.device != device) return nullptr;
    // Another thread's event may come between the allocator's action and its own: the event must be of
    // the same kind and, but for a segment (whose size is the segment's), of the same requested bytes.
    const bool alloc = t.action == uint8_t(AllocatorAction::Alloc) || t.action == uint8_t(AllocatorAction::SegmentAlloc);
    if (ev->second.kind != (alloc ? EventKind::Alloc : EventKind::Free)) return nullptr;
    if (t.action != uint8_t(AllocatorAction::SegmentAlloc) && ev->second.bytes != t.size) return nullptr;
    const uint64_t storage = ev->second.storage;
    if (auto live = live_.find(storage); live != live_.end()) return &live->second;
    auto gone = gone_names_.find(storage);
    if (gone == gone_names_.end()) return nullptr;
    auto [it, added] = gone_owners_.try_emplace(storage);
    if (added) it->second = {gone->second, ""};
    return &it->second;
  }

  py::dict trace_dict(int device, const TraceRecord& t) {
    static const char* const kActions[] = {"alloc",         "free_requested", "free_completed", "segment_alloc",
                                           "segment_free", "oom"};
    py::dict d;
    d[s_action_] = kActions[t.action];
    d[t.action == uint8_t(AllocatorAction::Oom) ? s_device_free_ : s_addr_] = t.addr;
    d[s_size_] = t.size;
    d[s_stream_] = t.stream;
    d[s_time_us_] = t.time_us;
    // Later 2.x (the files 2.11 writes): the torch.compile context ("N/A" outside one) and the user's
    // _set_memory_metadata text; neither exists here, so their defaults.
    d[s_compile_context_] = s_not_available_;
    d[s_user_metadata_] = s_empty_;
    const OwnerInfo* owner = trace_owner(device, t);
    if (t.stack || owner) d[s_frames_] = frames_list(owner, t.stack);
    return d;
  }

  static py::dict allocator_settings() {
    py::dict s;  // PyTorch's defaults: DeviceScope's allocator has no PYTORCH_CUDA_ALLOC_CONF options
    const char* conf = std::getenv("PYTORCH_CUDA_ALLOC_CONF");
    s["PYTORCH_CUDA_ALLOC_CONF"] = conf ? conf : "";
    s["max_split_size"] = int64_t(-1);  // SIZE_MAX as int64_t: no limit
    s["garbage_collection_threshold"] = 0.0;
    s["expandable_segments"] = false;
    s["pinned_num_register_threads"] = 1;
    s["release_lock_on_cudamalloc"] = false;
    s["pinned_use_cuda_host_register"] = false;
    s["graph_capture_record_stream_reuse"] = false;  // 2.11 reports it; DeviceScope captures no CUDA graphs
    py::dict roundup;
    for (uint64_t k = 1, i = 0; i < 16; ++i, k *= 2) roundup[py::str(std::to_string(k))] = 0;
    s["roundup_power2_divisions"] = std::move(roundup);
    return s;
  }

 private:
  Runtime& r_;
  const HistoryView& h_;
  std::map<Key, uint64_t> by_address_;                 // live device storages by (device, block address)
  std::unordered_map<uint64_t, OwnerInfo> live_;       // storage id -> owner, for live storages
  struct StorageEvent {
    int device = 0;
    uint64_t storage = 0;
    EventKind kind = EventKind::Alloc;
    uint64_t bytes = 0;
  };
  std::unordered_map<uint64_t, StorageEvent> event_storage_;  // event seq -> the storage it was about
  std::unordered_map<uint64_t, std::string> gone_names_;
  std::unordered_map<uint64_t, OwnerInfo> gone_owners_;
  std::vector<py::object> frame_objects_;
  py::object backend_frame_;
  std::unordered_map<std::string, py::object> owner_frames_, lists_;
  py::list empty_frames_;
  py::str s_device_{"device"}, s_address_{"address"}, s_total_size_{"total_size"},
      s_allocated_size_{"allocated_size"}, s_active_size_{"active_size"}, s_requested_size_{"requested_size"},
      s_stream_{"stream"}, s_segment_type_{"segment_type"}, s_segment_pool_id_{"segment_pool_id"},
      s_is_expandable_{"is_expandable"}, s_frames_{"frames"}, s_blocks_{"blocks"}, s_size_{"size"},
      s_state_{"state"}, s_active_allocated_{"active_allocated"}, s_inactive_{"inactive"}, s_action_{"action"},
      s_addr_{"addr"}, s_device_free_{"device_free"}, s_time_us_{"time_us"}, s_filename_{"filename"},
      s_line_{"line"}, s_name_{"name"}, s_compile_context_{"compile_context"}, s_user_metadata_{"user_metadata"},
      s_not_available_{"N/A"}, s_empty_{""};
};

}  // namespace

void bind_cuda_memory_history(py::module_& m) {
  // torch.cuda.memory._record_memory_history, its arguments already checked and mapped by the Python
  // layer: context level 0-3 (Note [Memory history]), max_entries already 1 for enabled="state".
  m.def("cuda_record_memory_history", [](bool enabled, int context, bool cpp_frames, uint64_t max_entries,
                                         bool clear_history, std::vector<std::string> skip_prefixes) {
    std::shared_ptr<Runtime> r = bound_runtime_ptr();
    if (!r) raise(ErrorKind::RuntimeError, "no DeviceScope runtime is bound");
    History& h = history();
    std::lock_guard<std::mutex> lock(h.mutex);
    bound_history();
    install_observers(h, *r);
    h.enabled = enabled;
    h.when = enabled ? Level(std::clamp(context, 0, 3)) : Level::Never;
    h.cpp_frames = enabled && cpp_frames;
    h.max_entries = size_t(std::max<uint64_t>(1, std::min<uint64_t>(max_entries, uint64_t(1) << 40)));
    h.skip_prefixes = std::move(skip_prefixes);
    for (Ring& ring : h.traces) {
      if (!enabled || clear_history) ring.clear();
      else ring.resize(h.max_entries);
    }
  });
  // Hides (or shows again) the calling thread's Python frames from the allocations it makes; returns the
  // previous setting, to restore it.
  m.def("hide_python_frames", [](bool hidden) {
    const bool previous = t_python_frames_hidden;
    t_python_frames_hidden = hidden;
    return previous;
  });
  m.def("cuda_memory_history_enabled", [] {
    History& h = history();
    std::lock_guard<std::mutex> lock(h.mutex);
    return bound_history().enabled;
  });
  // torch.cuda.memory._snapshot(): `holders` maps storage ids to the names the names graph found for them.
  m.def("cuda_memory_snapshot", [](const std::unordered_map<uint64_t, std::vector<std::string>>& holders) {
    Runtime& r = rt();
    r.poll();
    HistoryView view;
    {
      History& h = history();
      std::lock_guard<std::mutex> lock(h.mutex);
      bound_history();
      for (size_t d = 0; d < h.traces.size(); ++d) view.traces.push_back(h.traces[d].ordered());
      view.frames = h.frames;
      view.stacks = h.stacks;
      view.block_stack = h.block_stack;
      view.segment_stack = h.segment_stack;
    }
    SnapshotBuilder builder(r, view, holders);
    return builder.build();
  });
}

}  // namespace ds::python
