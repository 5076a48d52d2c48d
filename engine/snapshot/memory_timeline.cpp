// memory_timelines: three forward replays per device (the peak; who holds what at it; the buckets).
#include "snapshot/memory_timeline.h"

#include <algorithm>
#include <unordered_map>

#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"

namespace ds::snapshot {
namespace {

// Owner names, one id per distinct name (stacks that name the same frame share one).
class Owners {
 public:
  explicit Owners(const MemorySnapshot& s) : s_(s) {}
  uint32_t of(StackId stack) {
    if (auto it = by_stack_.find(stack); it != by_stack_.end()) return it->second;
    const std::string name = stack_owner(s_, stack);
    auto [it, added] = by_name_.try_emplace(name, uint32_t(names_.size()));
    if (added) names_.push_back(name);
    by_stack_[stack] = it->second;
    return it->second;
  }
  const std::string& name(uint32_t id) const { return names_[id]; }
  size_t size() const { return names_.size(); }

 private:
  const MemorySnapshot& s_;
  std::unordered_map<StackId, uint32_t> by_stack_;
  std::unordered_map<std::string, uint32_t> by_name_;
  std::vector<std::string> names_;
};

struct Live {
  uint64_t size;
  uint32_t owner;
};

// Replays `trace` from the state `start` for its first `n` entries, calling step(i, total, live) after each.
template <typename Step>
void replay(const TraceEntries& trace, std::unordered_map<uint64_t, Live> live, Owners& owners, size_t n, Step step) {
  for (size_t i = 0; i < n; ++i) {
    const SnapshotTraceEntry& e = trace[i];
    if (e.action == TraceAction::Alloc) {
      live[e.addr] = {e.size, owners.of(e.stack)};
    } else if (e.action == TraceAction::FreeCompleted) {
      live.erase(e.addr);
    } else {
      continue;
    }
    step(i, e, live);
  }
}

}  // namespace

std::vector<MemoryTimeline> memory_timelines(const MemorySnapshot& s, size_t buckets, size_t top) {
  std::vector<MemoryTimeline> out;
  Owners owners(s);
  for (int device : snapshot_devices(s)) {
    if (device < 0 || size_t(device) >= s.device_traces.size() || s.device_traces[size_t(device)].empty()) continue;
    const TraceEntries& trace = s.device_traces[size_t(device)];
    std::unordered_map<uint64_t, Live> start;
    uint64_t start_total = 0;
    for (const LiveBlock& b : state_at(s, device, 0).blocks) {
      start[b.address] = {b.size, owners.of(b.stack)};
      start_total += b.size;
    }
    MemoryTimeline t;
    t.device = device;
    t.timed = trace.back().time_us != 0;

    // 1. The peak: when the most was live.
    int64_t total = int64_t(start_total);
    t.peak = start_total;
    {
      std::unordered_map<uint64_t, uint64_t> sizes;
      for (auto& [addr, l] : start) sizes[addr] = l.size;
      for (size_t i = 0; i < trace.size(); ++i) {
        const SnapshotTraceEntry& e = trace[i];
        if (e.action == TraceAction::Alloc) {
          auto [it, added] = sizes.try_emplace(e.addr, e.size);
          if (!added) total -= int64_t(it->second), it->second = e.size;
          total += int64_t(e.size);
        } else if (e.action == TraceAction::FreeCompleted) {
          if (auto it = sizes.find(e.addr); it != sizes.end()) total -= int64_t(it->second), sizes.erase(it);
        }
        if (total > int64_t(t.peak)) t.peak = uint64_t(total), t.peak_entries = i + 1;
      }
    }
    // 2. Who held it then: the `top` largest owners get categories.
    std::vector<uint64_t> at_peak(owners.size() + 1, 0);
    auto count_live = [&](const std::unordered_map<uint64_t, Live>& live) {
      at_peak.assign(owners.size() + 1, 0);
      for (auto& [addr, l] : live) at_peak[l.owner] += l.size;
    };
    if (t.peak_entries == 0) count_live(start);
    else replay(trace, start, owners, t.peak_entries, [&](size_t i, const SnapshotTraceEntry&, const auto& live) {
      if (i + 1 == t.peak_entries) count_live(live);
    });
    std::vector<uint32_t> order;
    for (uint32_t o = 0; o < owners.size(); ++o)
      if (o < at_peak.size() && at_peak[o]) order.push_back(o);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return at_peak[a] > at_peak[b]; });
    if (order.size() > top) order.resize(top);
    std::unordered_map<uint32_t, size_t> slot;
    for (uint32_t o : order) {
      slot[o] = t.categories.size();
      t.categories.push_back(owners.name(o));
    }
    t.categories.push_back("other");
    const size_t other = t.categories.size() - 1;
    auto slot_of = [&](uint32_t owner) {
      auto it = slot.find(owner);
      return it == slot.end() ? other : it->second;
    };

    // 3. The buckets.
    const size_t n = trace.size();
    const size_t nb = std::max<size_t>(1, std::min(buckets, n));
    t.bytes.assign(t.categories.size(), std::vector<uint64_t>(nb, 0));
    t.bucket_max.assign(nb, 0);
    std::vector<int64_t> level(t.categories.size(), 0);
    int64_t sum = 0;
    for (auto& [addr, l] : start) level[slot_of(l.owner)] += int64_t(l.size), sum += int64_t(l.size);
    std::unordered_map<uint64_t, std::pair<uint64_t, size_t>> live;  // addr -> size, category
    for (auto& [addr, l] : start) live[addr] = {l.size, slot_of(l.owner)};
    size_t bucket = 0;
    uint64_t bucket_high = uint64_t(std::max<int64_t>(sum, 0));
    for (size_t i = 0; i < n; ++i) {
      const SnapshotTraceEntry& e = trace[i];
      if (e.action == TraceAction::Alloc) {
        if (auto it = live.find(e.addr); it != live.end()) level[it->second.second] -= int64_t(it->second.first), sum -= int64_t(it->second.first);
        const size_t c = slot_of(owners.of(e.stack));
        live[e.addr] = {e.size, c};
        level[c] += int64_t(e.size);
        sum += int64_t(e.size);
      } else if (e.action == TraceAction::FreeCompleted) {
        if (auto it = live.find(e.addr); it != live.end()) {
          level[it->second.second] -= int64_t(it->second.first);
          sum -= int64_t(it->second.first);
          live.erase(it);
        }
      }
      bucket_high = std::max(bucket_high, uint64_t(std::max<int64_t>(sum, 0)));
      if ((i + 1) * nb / n > bucket || i + 1 == n) {  // the last entry of bucket `bucket`
        for (size_t c = 0; c < t.categories.size(); ++c) t.bytes[c][bucket] = uint64_t(std::max<int64_t>(level[c], 0));
        t.bucket_max[bucket] = bucket_high;
        t.x.push_back(t.timed ? e.time_us : int64_t(i + 1));
        t.entries.push_back(i + 1);
        bucket_high = uint64_t(std::max<int64_t>(sum, 0));
        if (++bucket == nb) break;
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ds::snapshot
