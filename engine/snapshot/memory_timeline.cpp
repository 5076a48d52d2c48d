// memory_timelines: three forward replays per device (DeviceReplay: the peak; who holds what at it; the buckets).
#include "snapshot/memory_timeline.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "snapshot/snapshot_replay.h"
#include "snapshot/snapshot_summary.h"
#include "snapshot/stack_role.h"

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

// The category slot of each stack: its role's index in kRoles, or kUnknownRole (cached: one lookup per entry).
constexpr size_t kUnknownRole = std::size(kRoles);
class RoleSlots {
 public:
  explicit RoleSlots(const MemorySnapshot& s) : s_(s) {}
  size_t of(StackId stack) {
    if (auto it = by_stack_.find(stack); it != by_stack_.end()) return it->second;
    const std::optional<Role> r = stack_role(s_, stack);
    return by_stack_[stack] = r ? size_t(*r) : kUnknownRole;
  }

 private:
  const MemorySnapshot& s_;
  std::unordered_map<StackId, size_t> by_stack_;
};

// Keeps the role rows that hold bytes at some bucket's end, named by their labels, in kRoles' order.
void keep_held_roles(std::vector<std::vector<uint64_t>>& rows, MemoryTimeline& t) {
  for (size_t r = 0; r < rows.size(); ++r) {
    if (std::all_of(rows[r].begin(), rows[r].end(), [](uint64_t v) { return v == 0; })) continue;
    t.roles.push_back(r == kUnknownRole ? "unknown" : role_label(kRoles[r].role));
    t.role_bytes.push_back(std::move(rows[r]));
    t.roles_known |= r != kUnknownRole;
  }
}

// The annotations and the user_metadata / compile_context changes of one device, as marks (at most 200).
void add_marks(const MemorySnapshot& s, const TraceEntries& trace, MemoryTimeline& t) {
  constexpr size_t kMaxMarks = 200;
  auto entries_at = [&](int64_t time_us) {
    return size_t(std::upper_bound(trace.begin(), trace.end(), time_us,
                                   [](int64_t v, const SnapshotTraceEntry& e) { return v < e.time_us; }) - trace.begin());
  };
  if (t.timed)
    for (const SnapshotAnnotation& a : s.annotations) {
      if (a.device != t.device || t.marks.size() >= kMaxMarks) continue;
      std::string text;
      for (const auto& [key, value] : a.metadata) text += (text.empty() ? "" : " ") + value;
      t.marks.push_back({a.time_us, entries_at(a.time_us), text.empty() ? "annotation" : text});
    }
  uint32_t meta = 0, compile = 0;
  for (size_t i = 0; i < trace.size() && t.marks.size() < kMaxMarks; ++i) {
    const SnapshotTraceEntry& e = trace[i];
    const int64_t x = t.timed ? e.time_us : int64_t(i + 1);
    if (e.user_metadata != meta) {
      meta = e.user_metadata;
      if (!s.strings[meta].empty()) t.marks.push_back({x, i + 1, "metadata: " + s.strings[meta]});
    }
    if (e.compile_context != compile) {
      compile = e.compile_context;
      if (!s.strings[compile].empty() && s.strings[compile] != "N/A") t.marks.push_back({x, i + 1, "compile: " + s.strings[compile]});
    }
  }
  std::stable_sort(t.marks.begin(), t.marks.end(), [](const TimelineMark& a, const TimelineMark& b) { return a.x < b.x; });
}

}  // namespace

std::vector<MemoryTimeline> memory_timelines(const MemorySnapshot& s, size_t buckets, size_t top) {
  std::vector<MemoryTimeline> out;
  Owners owners(s);
  RoleSlots roles(s);
  for (int device : snapshot_devices(s)) {
    if (device < 0 || size_t(device) >= s.device_traces.size() || s.device_traces[size_t(device)].empty()) continue;
    const TraceEntries& trace = s.device_traces[size_t(device)];
    MemoryTimeline t;
    t.device = device;
    t.timed = trace.back().time_us != 0;

    // 1. The peak: when the most was allocated (the same replay inspect and diff use).
    {
      DeviceReplay r(s, device);
      t.peak = r.allocated();
      while (r.done() < r.size()) {
        r.step();
        if (r.allocated() > t.peak) t.peak = r.allocated(), t.peak_entries = r.done();
      }
    }
    // 2. Who held it then: the `top` largest owners get categories.
    std::vector<uint64_t> at_peak;
    {
      DeviceReplay r(s, device);
      while (r.done() < t.peak_entries) r.step();
      for (const auto& [addr, b] : r.blocks()) {
        if (b.state != BlockState::ActiveAllocated) continue;
        const uint32_t o = owners.of(b.stack);
        if (at_peak.size() <= o) at_peak.resize(o + 1, 0);
        at_peak[o] += b.size;
      }
    }
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
    std::vector<int64_t> level(t.categories.size(), 0), role_level(kUnknownRole + 1, 0);
    std::vector<std::vector<uint64_t>> role_rows(role_level.size(), std::vector<uint64_t>(nb, 0));
    int64_t sum = 0;
    DeviceReplay r(s, device);
    for (const auto& [addr, b] : r.blocks())
      if (b.state == BlockState::ActiveAllocated) {
        level[slot_of(owners.of(b.stack))] += int64_t(b.size), sum += int64_t(b.size);
        role_level[roles.of(b.stack)] += int64_t(b.size);
      }
    size_t bucket = 0;
    uint64_t bucket_high = uint64_t(std::max<int64_t>(sum, 0));
    for (size_t i = 0; i < n; ++i) {
      const int64_t delta = r.step();
      if (delta != 0 && r.last_block()) {
        level[slot_of(owners.of(r.last_block()->stack))] += delta;
        role_level[roles.of(r.last_block()->stack)] += delta;
      }
      sum += delta;
      bucket_high = std::max(bucket_high, uint64_t(std::max<int64_t>(sum, 0)));
      if ((i + 1) * nb / n > bucket || i + 1 == n) {  // the last entry of bucket `bucket`
        for (size_t c = 0; c < t.categories.size(); ++c) t.bytes[c][bucket] = uint64_t(std::max<int64_t>(level[c], 0));
        for (size_t c = 0; c < role_level.size(); ++c) role_rows[c][bucket] = uint64_t(std::max<int64_t>(role_level[c], 0));
        t.bucket_max[bucket] = bucket_high;
        t.x.push_back(t.timed ? trace[i].time_us : int64_t(i + 1));
        t.entries.push_back(i + 1);
        bucket_high = uint64_t(std::max<int64_t>(sum, 0));
        if (++bucket == nb) break;
      }
    }
    keep_held_roles(role_rows, t);
    add_marks(s, trace, t);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ds::snapshot
