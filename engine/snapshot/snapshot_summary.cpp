// summarize_snapshot: counts from the segments, peaks by replaying each device's trace.
#include "snapshot/snapshot_summary.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace ds::snapshot {
namespace {

bool is_internal_frame(const std::string& file) {
  if (file.empty() || file == "??") return true;
  if (file.find("/torch/") != std::string::npos || file.rfind("torch/", 0) == 0) return true;
  for (const char* ext : {".cpp", ".h", ".cu", ".cc", ".cuh", ".hpp"})
    if (file.size() > std::string_view(ext).size() && file.ends_with(ext)) return true;
  return false;
}

// The allocated and reserved bytes an entry adds (negative: removes).
int64_t allocated_delta(const SnapshotTraceEntry& e) {
  if (e.action == TraceAction::Alloc) return int64_t(e.size);
  if (e.action == TraceAction::FreeCompleted) return -int64_t(e.size);
  return 0;
}
int64_t reserved_delta(const SnapshotTraceEntry& e) {
  if (e.action == TraceAction::SegmentAlloc || e.action == TraceAction::SegmentMap) return int64_t(e.size);
  if (e.action == TraceAction::SegmentFree || e.action == TraceAction::SegmentUnmap) return -int64_t(e.size);
  return 0;
}

// The trace is a ring buffer: it may begin long after the program did. The state at its start is the
// snapshot's state minus everything the trace did; from there the forward replay finds the peak.
void replay_peak(const TraceEntries& trace, uint64_t now, int64_t (*delta)(const SnapshotTraceEntry&),
                 uint64_t& peak, int64_t& peak_entry, int64_t& peak_time) {
  int64_t total = 0;
  for (const SnapshotTraceEntry& e : trace) total += delta(e);
  int64_t level = int64_t(now) - total;
  int64_t best = std::max<int64_t>(level, 0);
  peak_entry = -1;
  peak_time = 0;
  for (size_t i = 0; i < trace.size(); ++i) {
    level += delta(trace[i]);
    if (level > best) {
      best = level;
      peak_entry = int64_t(i);
      peak_time = trace[i].time_us;
    }
  }
  peak = uint64_t(best);
}

}  // namespace

std::string stack_owner(const MemorySnapshot& s, StackId stack) {
  const size_t n = s.stack_size(stack);
  if (n == 0) return "<no frames>";
  size_t pick = 0;
  for (size_t i = 0; i < n; ++i)
    if (!is_internal_frame(s.strings[s.stack_frame(stack, i).filename])) {
      pick = i;
      break;
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
  std::map<int, DeviceSummary> devices;
  std::unordered_map<StackId, OwnerBytes> by_stack;
  for (const SnapshotSegment& seg : s.segments) {
    DeviceSummary& d = devices[seg.device];
    d.device = seg.device;
    ++d.segments;
    d.reserved_bytes += seg.total_size;
    for (const SnapshotBlock& b : seg.blocks) {
      if (b.state == BlockState::Inactive) continue;
      ++d.live_blocks;
      d.allocated_bytes += b.size;
      if (b.state != BlockState::ActiveAllocated) continue;
      OwnerBytes& o = by_stack[b.stack];
      o.bytes += b.size;
      ++o.blocks;
    }
  }
  for (size_t dev = 0; dev < s.device_traces.size(); ++dev)
    if (!s.device_traces[dev].empty()) devices[int(dev)].device = int(dev);
  for (auto& [dev, d] : devices) {
    d.peak_allocated = d.allocated_bytes;
    d.peak_reserved = d.reserved_bytes;
    if (dev < 0 || size_t(dev) >= s.device_traces.size()) continue;
    const TraceEntries& trace = s.device_traces[size_t(dev)];
    d.trace_entries = trace.size();
    for (const SnapshotTraceEntry& e : trace) ++out.action_counts[size_t(e.action)];
    out.trace_entries += trace.size();
    replay_peak(trace, d.allocated_bytes, allocated_delta, d.peak_allocated, d.peak_allocated_entry, d.peak_allocated_time_us);
    replay_peak(trace, d.reserved_bytes, reserved_delta, d.peak_reserved, d.peak_reserved_entry, d.peak_reserved_time_us);
  }
  for (auto& [dev, d] : devices) out.devices.push_back(d);

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
