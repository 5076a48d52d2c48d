// summarize_snapshot: counts from the segments, peaks by replaying each device's trace (DeviceReplay).
#include "snapshot/snapshot_summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ds::snapshot {
namespace {

// A Python frame names a .py file or a pseudo-file ("<string>", "<ipython-input-3>", "<devicescope parameter>");
// anything else ("??", .cpp, libc.so.6) is native code.
bool is_native_file(const std::string& file) {
  if (file.empty() || file == "??") return true;
  return !(file.ends_with(".py") || file.front() == '<');
}

bool is_internal_frame(const std::string& file) {
  if (is_native_file(file)) return true;
  return file.find("/torch/") != std::string::npos || file.rfind("torch/", 0) == 0;
}

void count_segment(DeviceSummary& d, const SnapshotSegment& seg, std::unordered_map<StackId, OwnerBytes>* by_stack) {
  ++d.segments;
  d.reserved_bytes += seg.total_size;
  if (seg.private_pool()) d.private_pool_bytes += seg.total_size;
  for (const SnapshotBlock& b : seg.blocks) {
    if (b.state == BlockState::ActivePendingFree) {
      ++d.awaiting_free_blocks;
      d.awaiting_free_bytes += b.size;
    }
    if (b.state != BlockState::ActiveAllocated) continue;
    ++d.live_blocks;
    d.allocated_bytes += b.size;
    if (!by_stack) continue;
    OwnerBytes& o = (*by_stack)[b.stack];
    o.bytes += b.size;
    ++o.blocks;
  }
}

// Peaks by the forward replay from the trace's start (the trace is a ring: it may begin long after the program).
void replay_peaks(const MemorySnapshot& s, DeviceSummary& d) {
  DeviceReplay r(s, d.device);
  d.trace_entries = r.size();
  if (r.size() == 0) return;  // no history: the peak is unknown
  d.peak_known = true;
  d.peak_allocated = r.allocated();
  d.peak_reserved = r.reserved();
  while (r.done() < r.size()) {
    r.step();
    const SnapshotTraceEntry& e = r.entry(r.done() - 1);
    if (r.allocated() > d.peak_allocated) {
      d.peak_allocated = r.allocated();
      d.peak_allocated_entries = r.done();
      d.peak_allocated_time_us = e.time_us;
    }
    if (r.reserved() > d.peak_reserved) {
      d.peak_reserved = r.reserved();
      d.peak_reserved_entries = r.done();
      d.peak_reserved_time_us = e.time_us;
    }
  }
}

void note_text(std::set<std::string>& seen, std::vector<std::string>& out, const std::string& text) {
  if (text.empty() || text == "N/A" || out.size() >= 20 || !seen.insert(text).second) return;
  out.push_back(text);
}

}  // namespace

std::string stack_owner(const MemorySnapshot& s, StackId stack) {
  const size_t n = s.stack_size(stack);
  if (n == 0) return kNoFramesOwner;
  size_t pick = n, python = n;
  for (size_t i = 0; i < n; ++i) {
    const SnapshotFrame& f = s.stack_frame(stack, i);
    const std::string& file = s.strings[f.filename];
    if (python == n && !is_native_file(file)) python = i;
    if (!is_internal_frame(file)) {
      pick = i;
      break;
    }
  }
  if (pick == n) pick = python;
  if (pick == n) {
    bool autograd = false;  // torch::autograd::Engine::thread_main ... : the backward pass's own thread
    for (size_t i = 0; i < n && !autograd; ++i)
      autograd = s.strings[s.stack_frame(stack, i).name].find("autograd::Engine") != std::string::npos;
    return autograd ? kAutogradOwner : kCppOnlyOwner;
  }
  const SnapshotFrame& f = s.stack_frame(stack, pick);
  // DeviceScope's own snapshots name the owner in a frame of its own (torch/cuda/memory.py): that name is
  // the owner, as in a recording's summary.
  if (s.strings[f.filename].starts_with("<devicescope ")) return s.strings[f.name];
  return s.strings[f.filename] + ":" + std::to_string(f.line) + " " + s.strings[f.name];
}

SnapshotSummary summarize_snapshot(const MemorySnapshot& s, size_t top_n) {
  SnapshotSummary out;
  out.format_major = s.format_major;
  out.distinct_frames = s.frames.size();
  out.distinct_stacks = s.stack_begin.size() - 2;
  out.annotations = s.annotations.size();
  std::map<int, DeviceSummary> devices;
  std::unordered_map<StackId, OwnerBytes> by_stack;
  for (const SnapshotSegment& seg : s.segments) {
    DeviceSummary& d = devices[seg.device];
    d.device = seg.device;
    count_segment(d, seg, &by_stack);
  }
  for (size_t dev = 0; dev < s.device_traces.size(); ++dev)
    if (!s.device_traces[dev].empty()) devices[int(dev)].device = int(dev);
  std::set<std::string> seen_meta, seen_compile;
  for (auto& [dev, d] : devices) {
    replay_peaks(s, d);
    if (dev < 0 || size_t(dev) >= s.device_traces.size()) continue;
    for (const SnapshotTraceEntry& e : s.device_traces[size_t(dev)]) {
      ++out.action_counts[size_t(e.action)];
      if (e.user_metadata) note_text(seen_meta, out.user_metadata, s.strings[e.user_metadata]);
      if (e.compile_context) note_text(seen_compile, out.compile_contexts, s.strings[e.compile_context]);
    }
    out.trace_entries += d.trace_entries;
  }
  for (auto& [dev, d] : devices) out.devices.push_back(d);
  if (s.has_host_records) {  // pinned host memory: its own row, after the devices
    DeviceSummary host;
    host.device = kHostDevice;
    for (const SnapshotSegment& seg : s.host_segments) count_segment(host, seg, nullptr);
    replay_peaks(s, host);
    out.devices.push_back(host);
  }

  // Owners: stacks that name the same frame add up.
  std::unordered_map<std::string, OwnerBytes> by_owner;
  for (auto& [stack, o] : by_stack) {
    std::string name = stack_owner(s, stack);
    OwnerBytes& merged = by_owner[name];
    merged.owner = name;
    merged.bytes += o.bytes;
    merged.blocks += o.blocks;
  }
  for (auto& [name, o] : by_owner) out.top_owners.push_back(o);
  std::sort(out.top_owners.begin(), out.top_owners.end(), [](const OwnerBytes& a, const OwnerBytes& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.owner < b.owner;
  });
  if (out.top_owners.size() > top_n) out.top_owners.resize(top_n);
  return out;
}

}  // namespace ds::snapshot
