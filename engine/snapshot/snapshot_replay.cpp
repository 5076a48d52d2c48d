// state_at: the snapshot's end state, with the trace's tail undone (Note in snapshot_replay.h).
#include "snapshot/snapshot_replay.h"

#include <algorithm>
#include <map>

namespace ds::snapshot {

uint64_t DeviceState::allocated() const {
  uint64_t n = 0;
  for (const LiveBlock& b : blocks) n += b.size;
  return n;
}

uint64_t DeviceState::reserved() const {
  uint64_t n = 0;
  for (const LiveSegment& s : segments) n += s.size;
  return n;
}

DeviceState state_at(const MemorySnapshot& s, int device, size_t entries) {
  std::map<uint64_t, LiveSegment> segments;
  std::map<uint64_t, LiveBlock> blocks;
  for (const SnapshotSegment& seg : s.segments) {
    if (seg.device != device) continue;
    segments[seg.address] = {seg.address, seg.total_size, seg.stream, seg.small_pool};
    for (const SnapshotBlock& b : seg.blocks)
      if (b.state != BlockState::Inactive) blocks[b.address] = {b.address, b.size, b.requested_size, b.state, b.stack, 0};
  }
  static const TraceEntries kNoTrace;
  const TraceEntries& trace = device >= 0 && size_t(device) < s.device_traces.size() ? s.device_traces[size_t(device)] : kNoTrace;
  // Backwards to the trace's start.
  for (size_t i = trace.size(); i > 0; --i) {
    const SnapshotTraceEntry& e = trace[i - 1];
    switch (e.action) {
      case TraceAction::Alloc: blocks.erase(e.addr); break;  // it did not exist before
      case TraceAction::FreeRequested:
        if (auto it = blocks.find(e.addr); it != blocks.end()) it->second.state = BlockState::ActiveAllocated;
        break;
      // It existed before, pending free since its free_requested (undone further back, if in the trace).
      case TraceAction::FreeCompleted: blocks[e.addr] = {e.addr, e.size, 0, BlockState::ActivePendingFree, e.stack, 0}; break;
      case TraceAction::SegmentAlloc:
      case TraceAction::SegmentMap: segments.erase(e.addr); break;
      case TraceAction::SegmentFree:
      case TraceAction::SegmentUnmap: segments[e.addr] = {e.addr, e.size, e.stream, false}; break;
      default: break;
    }
  }
  // Forwards to the moment, each allocation with its entry.
  for (size_t i = 0; i < std::min(entries, trace.size()); ++i) {
    const SnapshotTraceEntry& e = trace[i];
    switch (e.action) {
      case TraceAction::Alloc: blocks[e.addr] = {e.addr, e.size, 0, BlockState::ActiveAllocated, e.stack, i + 1}; break;
      case TraceAction::FreeRequested:
        if (auto it = blocks.find(e.addr); it != blocks.end()) it->second.state = BlockState::ActivePendingFree;
        break;
      case TraceAction::FreeCompleted: blocks.erase(e.addr); break;
      case TraceAction::SegmentAlloc:
      case TraceAction::SegmentMap: segments[e.addr] = {e.addr, e.size, e.stream, false}; break;
      case TraceAction::SegmentFree:
      case TraceAction::SegmentUnmap: segments.erase(e.addr); break;
      default: break;
    }
  }
  if (entries >= trace.size()) {
    // At the snapshot's moment its own records are exact (segment kinds, requested sizes, frames).
    std::map<uint64_t, uint64_t> serials;
    for (auto& [addr, b] : blocks) serials[addr] = b.serial;
    blocks.clear();
    segments.clear();
    for (const SnapshotSegment& seg : s.segments) {
      if (seg.device != device) continue;
      segments[seg.address] = {seg.address, seg.total_size, seg.stream, seg.small_pool};
      for (const SnapshotBlock& b : seg.blocks)
        if (b.state != BlockState::Inactive)
          blocks[b.address] = {b.address, b.size, b.requested_size, b.state, b.stack, serials.count(b.address) ? serials[b.address] : 0};
    }
  }
  DeviceState out;
  out.device = device;
  for (auto& [addr, seg] : segments) out.segments.push_back(seg);
  for (auto& [addr, b] : blocks) out.blocks.push_back(b);
  return out;
}

std::vector<int> snapshot_devices(const MemorySnapshot& s) {
  std::vector<int> out;
  for (const SnapshotSegment& seg : s.segments) out.push_back(seg.device);
  for (size_t d = 0; d < s.device_traces.size(); ++d)
    if (!s.device_traces[d].empty()) out.push_back(int(d));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<size_t> entries_at_time(const MemorySnapshot& s, int64_t time_us) {
  std::vector<size_t> out;
  for (const TraceEntries& trace : s.device_traces) {
    const bool timed = !trace.empty() && trace.back().time_us != 0;
    if (time_us < 0) out.push_back(0);
    else if (!timed) out.push_back(trace.size());
    else
      out.push_back(size_t(std::upper_bound(trace.begin(), trace.end(), time_us,
                                            [](int64_t t, const SnapshotTraceEntry& e) { return t < e.time_us; }) -
                           trace.begin()));
  }
  return out;
}

}  // namespace ds::snapshot
