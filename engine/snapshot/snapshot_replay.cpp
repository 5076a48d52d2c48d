// DeviceReplay and state_at: the snapshot's end state, with the trace undone back to its start, then replayed
// forwards with block sizes as the allocator hands them out (Note [Allocated bytes as PyTorch counts them]).
#include "snapshot/snapshot_replay.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <unordered_map>

namespace ds::snapshot {
namespace {

// c10/cuda/CUDACachingAllocator.cpp's constants.
constexpr uint64_t kMinBlockSize = 512;         // every block is a multiple of it
constexpr uint64_t kSmallSize = 1 << 20;        // the largest small-pool request; the large pool's split threshold
constexpr uint64_t kSmallBuffer = 2 << 20;      // a small-pool segment

int log2_floor(uint64_t v) { return 63 - std::countl_zero(v); }

// roundup_power2_next_division: the next of `divisions` equal steps between two powers of two.
uint64_t next_division(uint64_t size, uint64_t divisions) {
  if (std::has_single_bit(size)) return size;
  const uint64_t floor = uint64_t(1) << log2_floor(size);
  const uint64_t step = floor >> log2_floor(divisions);
  if (step == 0) return floor << 1;
  const uint64_t down = size & ~(step - 1);
  return down == size ? size : down + step;
}

bool is_segment_add(TraceAction a) { return a == TraceAction::SegmentAlloc || a == TraceAction::SegmentMap; }
bool is_segment_remove(TraceAction a) { return a == TraceAction::SegmentFree || a == TraceAction::SegmentUnmap; }

const TraceEntries& trace_of(const MemorySnapshot& s, int device) {
  static const TraceEntries kNoTrace;
  if (device == kHostDevice) return s.host_trace;
  return device >= 0 && size_t(device) < s.device_traces.size() ? s.device_traces[size_t(device)] : kNoTrace;
}

}  // namespace

uint64_t allocator_round_size(const AllocatorSettings& settings, uint64_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  // CUDAAllocatorConfig::roundup_power2_divisions: intervals from 1 MiB (index 0, also below it) to 64 GiB.
  const int index = std::clamp(log2_floor(size) - 20, 0, 15);
  const uint64_t divisions = settings.roundup_power2_divisions[index];
  if (divisions > 1 && size > kMinBlockSize * divisions) return next_division(size, divisions);
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

uint64_t DeviceState::allocated() const {
  uint64_t n = 0;
  for (const LiveBlock& b : blocks)
    if (b.state == BlockState::ActiveAllocated) n += b.size;
  return n;
}

uint64_t DeviceState::live_blocks() const {
  uint64_t n = 0;
  for (const LiveBlock& b : blocks) n += b.state == BlockState::ActiveAllocated;
  return n;
}

uint64_t DeviceState::reserved() const {
  uint64_t n = 0;
  for (const LiveSegment& s : segments) n += s.size;
  return n;
}

DeviceReplay::DeviceReplay(const MemorySnapshot& s, int device) : s_(s), trace_(&trace_of(s, device)) {
  std::unordered_map<uint64_t, uint64_t> end_blocks;  // address -> size of the blocks live at the end
  for (const SnapshotSegment& seg : device == kHostDevice ? s.host_segments : s.segments) {
    if (seg.device != device) continue;
    segments_[seg.address] = {seg.address, seg.total_size, seg.stream, seg.small_pool};
    reserved_ += seg.total_size;
    for (const SnapshotBlock& b : seg.blocks)
      if (b.state != BlockState::Inactive) {
        blocks_[b.address] = {b.address, b.size, b.requested_size, b.state, b.stack, 0};
        end_blocks[b.address] = b.size;
      }
  }
  const TraceEntries& trace = *trace_;
  // Backwards to the trace's start. An allocation the end still holds is sized by the snapshot (the last alloc
  // at its address with no free_completed after it).
  std::unordered_map<uint64_t, bool> completed_later;
  for (size_t i = trace.size(); i > 0; --i) {
    const SnapshotTraceEntry& e = trace[i - 1];
    switch (e.action) {
      case TraceAction::Alloc:
        if (!completed_later[e.addr]) {
          if (auto it = end_blocks.find(e.addr); it != end_blocks.end()) end_size_[i - 1] = it->second;
        }
        completed_later[e.addr] = true;  // an earlier alloc at this address was freed before this one
        blocks_.erase(e.addr);  // it did not exist before
        break;
      case TraceAction::FreeRequested:
        if (auto it = blocks_.find(e.addr); it != blocks_.end()) it->second.state = BlockState::ActiveAllocated;
        break;
      case TraceAction::FreeCompleted:
        // It existed before, awaiting free since its free_requested (undone further back, if in the trace).
        completed_later[e.addr] = true;
        blocks_[e.addr] = {e.addr, block_size(e.addr, e.size), e.size, BlockState::ActivePendingFree, e.stack, 0};
        break;
      default:
        if (is_segment_add(e.action)) segments_.erase(e.addr), reserved_ -= std::min(reserved_, e.size);
        else if (is_segment_remove(e.action))
          segments_[e.addr] = {e.addr, e.size, e.stream, e.size <= kSmallBuffer}, reserved_ += e.size;
        break;
    }
  }
  for (const auto& [addr, b] : blocks_)
    if (b.state == BlockState::ActiveAllocated) allocated_ += b.size;
}

uint64_t DeviceReplay::block_size(uint64_t addr, uint64_t requested) const {
  if (trace_ == &s_.host_trace) return requested;  // the host allocator's rounding is not the device one's
  const uint64_t rounded = allocator_round_size(s_.settings, requested);
  // The small pool splits off anything of kMinBlockSize or more: its blocks are the rounded size. So does
  // every pool with expandable segments.
  if (rounded <= kSmallSize || s_.settings.expandable_segments) return rounded;
  auto seg = segments_.upper_bound(addr);
  if (seg == segments_.begin()) return rounded;
  --seg;
  const uint64_t seg_end = seg->second.address + seg->second.size;
  if (addr >= seg_end) return rounded;
  // The free block it came from starts at `addr` and runs to the next occupied block (free neighbours merge).
  uint64_t end = seg_end;
  if (auto next = blocks_.upper_bound(addr); next != blocks_.end()) end = std::min(end, next->first);
  if (end <= addr + rounded) return rounded;
  const uint64_t remaining = end - addr - rounded;
  const bool split = rounded < s_.settings.max_split_size && remaining > kSmallSize;
  return split ? rounded : end - addr;
}

int64_t DeviceReplay::step() {
  if (done_ >= trace_->size()) return 0;
  const size_t i = done_++;
  const SnapshotTraceEntry& e = (*trace_)[i];
  last_ = false;
  __int128 delta = 0;  // a hostile file's sizes near 2^64 must not overflow (the fuzz target runs this)
  switch (e.action) {
    case TraceAction::Alloc: {
      if (auto old = blocks_.find(e.addr); old != blocks_.end()) {  // a trace that lost an entry: keep counts sane
        if (old->second.state == BlockState::ActiveAllocated) delta -= old->second.size;
        blocks_.erase(old);
      }
      auto known = end_size_.find(i);
      const uint64_t size = known != end_size_.end() ? known->second : block_size(e.addr, e.size);
      LiveBlock& b = blocks_[e.addr] = {e.addr, size, e.size, BlockState::ActiveAllocated, e.stack, i + 1};
      delta += size;
      last_block_ = b;
      last_ = true;
      break;
    }
    case TraceAction::FreeRequested:
      if (auto it = blocks_.find(e.addr); it != blocks_.end() && it->second.state == BlockState::ActiveAllocated) {
        it->second.state = BlockState::ActivePendingFree;
        delta -= it->second.size;
        last_block_ = it->second;
        last_ = true;
      }
      break;
    case TraceAction::FreeCompleted:
      if (auto it = blocks_.find(e.addr); it != blocks_.end()) {
        if (it->second.state == BlockState::ActiveAllocated) delta -= it->second.size;  // no free_requested seen
        last_block_ = it->second;
        last_ = true;
        blocks_.erase(it);
      }
      break;
    default:
      if (is_segment_add(e.action)) {
        segments_[e.addr] = {e.addr, e.size, e.stream, e.size <= kSmallBuffer};
        reserved_ += e.size;
      } else if (is_segment_remove(e.action)) {
        segments_.erase(e.addr);
        reserved_ -= std::min(reserved_, e.size);
      }
      break;
  }
  const __int128 level = std::max<__int128>(__int128(allocated_) + delta, 0);
  allocated_ = level > __int128(UINT64_MAX) ? UINT64_MAX : uint64_t(level);
  return int64_t(std::clamp<__int128>(delta, INT64_MIN, INT64_MAX));
}

DeviceState state_at(const MemorySnapshot& s, int device, size_t entries) {
  DeviceReplay r(s, device);
  while (r.done() < std::min(entries, r.size())) r.step();
  DeviceState out;
  out.device = device;
  if (entries >= r.size()) {
    // At the snapshot's moment its own records are exact (segment kinds, requested sizes, frames).
    for (const SnapshotSegment& seg : device == kHostDevice ? s.host_segments : s.segments) {
      if (seg.device != device) continue;
      out.segments.push_back({seg.address, seg.total_size, seg.stream, seg.small_pool});
      for (const SnapshotBlock& b : seg.blocks) {
        if (b.state == BlockState::Inactive) continue;
        auto it = r.blocks().find(b.address);
        out.blocks.push_back({b.address, b.size, b.requested_size, b.state, b.stack, it == r.blocks().end() ? 0 : it->second.serial});
      }
    }
    std::sort(out.segments.begin(), out.segments.end(), [](const LiveSegment& a, const LiveSegment& b) { return a.address < b.address; });
    std::sort(out.blocks.begin(), out.blocks.end(), [](const LiveBlock& a, const LiveBlock& b) { return a.address < b.address; });
    return out;
  }
  for (const auto& [addr, seg] : r.segments()) out.segments.push_back(seg);
  for (const auto& [addr, b] : r.blocks()) out.blocks.push_back(b);
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
