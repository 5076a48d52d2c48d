// Timeline lanes, visible-range queries and Tracy-style folding of sub-pixel items.
#include "gui/view_state/timeline_model.h"

#include <algorithm>
#include <map>
#include <cmath>
#include <numeric>

#include "gui/view_state/palette.h"

namespace ds::gui {

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::H2D: return "H2D";
    case Direction::D2H: return "D2H";
    case Direction::D2D: return "D2D";
    case Direction::Host: return "host";
  }
  return "?";
}

Direction transfer_direction(const TransferRecord& t) {
  if (t.src.is_host() && !t.dst.is_host()) return Direction::H2D;
  if (!t.src.is_host() && t.dst.is_host()) return Direction::D2H;
  if (!t.src.is_host() && !t.dst.is_host()) return Direction::D2D;
  return Direction::Host;
}

namespace {

bool measured_host_copy(const TransferRecord& t) { return t.src.is_host() && t.dst.is_host() && !t.simulated; }

// The host work takes at most this share of the modelled span (a third of the axis).
constexpr double kHostShare = 0.5;

}  // namespace

void TimelineModel::build(const Snapshot& snap) {
  lanes.clear();
  breaks.clear();
  host_reads.clear();
  transfers = snap.transfers.size();
  t_min = UINT64_MAX;
  t_max = 0;

  // Two clocks (Note [Two clocks on one timeline]): modelled device copies beside measured host work.
  bool any_modelled = false, any_host = false;
  uint64_t dev_lo = UINT64_MAX, dev_hi = 0;
  double host_total = 0;
  for (const TransferRecord& t : snap.transfers) {
    if (measured_host_copy(t)) {
      any_host = true;
      host_total += double(t.end_ns > t.start_ns ? t.end_ns - t.start_ns : 0);
    } else if (!(t.src.is_host() && t.dst.is_host())) {
      any_modelled |= t.simulated;
      dev_lo = std::min(dev_lo, t.start_ns);
      dev_hi = std::max(dev_hi, std::max(t.end_ns, t.start_ns));
    }
  }
  two_clocks = any_host && any_modelled;
  host_scale = 1;
  if (two_clocks) {
    const double span = double(dev_hi - dev_lo);
    if (span > 0 && host_total > kHostShare * span) host_scale = kHostShare * span / host_total;
    for (const TransferRecord& t : snap.transfers) {
      if (!measured_host_copy(t)) continue;
      ClockBreak b;
      b.at_ns = t.start_ns;
      b.transfer_id = t.id;
      b.measured_ns = double(t.end_ns > t.start_ns ? t.end_ns - t.start_ns : 0);
      b.width = std::max(b.measured_ns * host_scale, 1.0);
      breaks.push_back(b);
    }
    std::stable_sort(breaks.begin(), breaks.end(), [](const ClockBreak& a, const ClockBreak& b) {
      return a.at_ns != b.at_ns ? a.at_ns < b.at_ns : a.transfer_id < b.transfer_id;
    });
    double shift = 0;
    for (ClockBreak& b : breaks) {
      b.display_start = double(b.at_ns) + shift;
      shift += b.width;
    }
  }

  std::map<std::pair<int, int>, size_t> lane_of;  // (device, direction) -> lane, sorted for display
  for (size_t i = 0; i < snap.transfers.size(); ++i) {
    const TransferRecord& t = snap.transfers[i];
    const Direction d = transfer_direction(t);
    const int device = d == Direction::D2H || d == Direction::D2D ? t.src.device : d == Direction::H2D ? t.dst.device : -1;
    auto [it, fresh] = lane_of.try_emplace({device, int(d)}, 0);
    (void)fresh;
    it->second++;  // count for now
  }
  lanes.reserve(lane_of.size());
  for (auto& [key, count] : lane_of) {
    TimelineLane lane;
    lane.device = key.first;
    lane.direction = Direction(key.second);
    lane.name = lane.direction == Direction::Host ? std::string("host copies")
                : "cuda:" + std::to_string(key.first) + "  " + direction_name(lane.direction);
    lane.measured = two_clocks && lane.direction == Direction::Host;
    lane.index.reserve(count);
    count = lanes.size();
    lanes.push_back(std::move(lane));
  }
  for (size_t i = 0; i < snap.transfers.size(); ++i) {
    const TransferRecord& t = snap.transfers[i];
    const Direction d = transfer_direction(t);
    const int device = d == Direction::D2H || d == Direction::D2D ? t.src.device : d == Direction::H2D ? t.dst.device : -1;
    lanes[lane_of[{device, int(d)}]].index.push_back(uint32_t(i));
  }
  // Display positions, once per copy; lanes are sorted by them.
  std::vector<uint64_t> start_at(snap.transfers.size()), end_at(snap.transfers.size());
  for (size_t i = 0; i < snap.transfers.size(); ++i) {
    const TransferRecord& t = snap.transfers[i];
    // A copy still in flight is drawn to its modelled end when the model knows it (a simulated device),
    // else up to "now" (a real GPU's copy ends when the device says so).
    const uint64_t end = t.complete ? std::max(t.end_ns, t.start_ns)
                         : t.end_ns > t.start_ns ? t.end_ns : std::max(snap.time_ns, t.start_ns + 1);
    const double s0 = display(t.start_ns, t.id);
    double e0 = display(end, t.id);
    if (two_clocks && measured_host_copy(t)) e0 = s0 + std::max(double(t.end_ns > t.start_ns ? t.end_ns - t.start_ns : 0) * host_scale, 1.0);
    start_at[i] = uint64_t(std::llround(s0));
    end_at[i] = std::max(uint64_t(std::llround(e0)), start_at[i]);
  }
  for (size_t l = 0; l < lanes.size(); ++l) {
    TimelineLane& lane = lanes[l];
    auto start_of = [&](uint32_t i) { return start_at[i]; };
    if (!std::is_sorted(lane.index.begin(), lane.index.end(), [&](uint32_t a, uint32_t b) { return start_of(a) < start_of(b); }))
      std::stable_sort(lane.index.begin(), lane.index.end(), [&](uint32_t a, uint32_t b) { return start_of(a) < start_of(b); });
    const size_t n = lane.index.size();
    lane.start.resize(n);
    lane.end.resize(n);
    lane.end_max.resize(n);
    lane.bytes_prefix.resize(n + 1);
    lane.in_flight.resize(n);
    lane.bytes_prefix[0] = 0;
    uint64_t running = 0;
    for (size_t k = 0; k < n; ++k) {
      const TransferRecord& t = snap.transfers[lane.index[k]];
      lane.start[k] = start_at[lane.index[k]];
      lane.end[k] = end_at[lane.index[k]];
      lane.in_flight[k] = !t.complete;
      if (t.host_read_ns) host_reads.push_back({l, uint32_t(k), display(t.host_read_ns, UINT64_MAX)});
      running = std::max(running, lane.end[k]);
      lane.end_max[k] = running;
      lane.bytes_prefix[k + 1] = lane.bytes_prefix[k] + t.bytes;
      t_min = std::min(t_min, lane.start[k]);
      t_max = std::max(t_max, lane.end[k]);
    }
    const TransferRecord& first = snap.transfers[lane.index.front()];
    lane.color = transfer_color(first.src, first.dst);
  }
  if (t_min == UINT64_MAX) t_min = t_max = 0;
  now = display(snap.time_ns, UINT64_MAX);
}

double TimelineModel::display(uint64_t t_ns, uint64_t transfer_id) const {
  // Breaks before (t, id): at an earlier instant, or at this instant and issued before the copy.
  const auto after = std::partition_point(breaks.begin(), breaks.end(), [&](const ClockBreak& b) {
    return b.at_ns < t_ns || (b.at_ns == t_ns && b.transfer_id < transfer_id);
  });
  if (after == breaks.begin()) return double(t_ns);
  const ClockBreak& last = *(after - 1);
  return double(t_ns) + (last.display_start - double(last.at_ns)) + last.width;
}

int TimelineModel::break_at(double d) const {
  const auto it = std::partition_point(breaks.begin(), breaks.end(), [&](const ClockBreak& b) { return b.display_start + b.width <= d; });
  if (it == breaks.end() || d < it->display_start) return -1;
  return int(it - breaks.begin());
}

double TimelineModel::modelled_at(double d) const {
  // The last break starting at or before d decides the shift.
  const auto it = std::partition_point(breaks.begin(), breaks.end(), [&](const ClockBreak& b) { return b.display_start <= d; });
  if (it == breaks.begin()) return d;
  const ClockBreak& b = *(it - 1);
  if (d < b.display_start + b.width) return double(b.at_ns);
  return d - (b.display_start - double(b.at_ns)) - b.width;
}

void TimelineModel::visible(size_t lane_index, double t0, double t1, double px_per_ns, double min_px,
                            std::vector<TimelineItem>& out) const {
  if (lane_index >= lanes.size() || px_per_ns <= 0) return;
  const TimelineLane& lane = lanes[lane_index];
  const size_t n = lane.start.size();
  // First item that may overlap t0: end_max is non-decreasing.
  size_t i = size_t(std::lower_bound(lane.end_max.begin(), lane.end_max.end(), uint64_t(std::max(t0, 0.0))) - lane.end_max.begin());
  const double min_ns = min_px / px_per_ns;
  while (i < n && double(lane.start[i]) <= t1) {
    if (double(lane.end[i]) < t0) {  // finished before the view (end_max let it through)
      ++i;
      continue;
    }
    const double width_ns = double(lane.end[i] - lane.start[i]);
    // Copies starting within min_px of each other cannot be told apart at this zoom however long they
    // are (each would be drawn over the one before): they fold too, so 80,000 copies issued at one
    // instant are one drawn item, not 80,000 overlapping bars.
    const uint64_t same_px = uint64_t(double(lane.start[i]) + min_ns);
    const bool crowded = i + 1 < n && lane.start[i + 1] <= same_px;
    if (width_ns >= min_ns && !crowded) {
      TimelineItem it;
      it.x0 = (double(lane.start[i]) - t0) * px_per_ns;
      it.x1 = (double(lane.end[i]) - t0) * px_per_ns;
      it.first = uint32_t(i);
      it.bytes = lane.bytes_prefix[i + 1] - lane.bytes_prefix[i];
      it.in_flight = lane.in_flight[i];
      out.push_back(it);
      ++i;
      continue;
    }
    // Fold: take the copies starting in the same min_px, then absorb every following item that starts
    // within min_px of the run's end; each round
    // jumps with a binary search, and the run grows by at least min_px per two rounds.
    const size_t first = i;
    const double run_start = double(lane.start[i]);
    size_t k = size_t(std::upper_bound(lane.start.begin() + long(i) + 1, lane.start.end(), same_px) - lane.start.begin());
    // For a group, end_max may also hold the end of an earlier, longer copy: that copy is drawn across
    // the same pixels anyway, so the fold covers nothing that was not covered.
    double run_end = k == i + 1 ? double(lane.end[i]) : double(lane.end_max[k - 1]);
    // A fold stops growing at 12 times the minimum width, so dense stretches read as a row of
    // folds with their own counts rather than one bar across the lane.
    const double cap = run_start + 12 * min_ns;
    while (k < n && run_end < cap) {
      const uint64_t limit = uint64_t(run_end + min_ns);
      const size_t j = size_t(std::upper_bound(lane.start.begin() + long(k), lane.start.end(), limit) - lane.start.begin());
      if (j == k) break;
      run_end = std::max(run_end, double(lane.end_max[j - 1]));
      k = j;
      if (double(lane.start[k - 1]) > t1) break;
    }
    TimelineItem it;
    it.x0 = (run_start - t0) * px_per_ns;
    it.x1 = std::max((run_end - t0) * px_per_ns, it.x0 + min_px);
    it.first = uint32_t(first);
    it.count = uint32_t(k - first);
    it.bytes = lane.bytes_prefix[k] - lane.bytes_prefix[first];
    out.push_back(it);
    i = k;
  }
}

int TimelineModel::item_at(size_t lane_index, double t, double tolerance_ns) const {
  if (lane_index >= lanes.size()) return -1;
  const TimelineLane& lane = lanes[lane_index];
  size_t i = size_t(std::lower_bound(lane.end_max.begin(), lane.end_max.end(), uint64_t(std::max(t - tolerance_ns, 0.0))) -
                    lane.end_max.begin());
  int best = -1;
  double best_d = tolerance_ns;
  // Zoomed far out a pixel may hold thousands of copies: look at a bounded number of them.
  for (int seen = 0; i < lane.start.size() && double(lane.start[i]) <= t + tolerance_ns && seen < 512; ++i, ++seen) {
    const double d = t < double(lane.start[i]) ? double(lane.start[i]) - t : t > double(lane.end[i]) ? t - double(lane.end[i]) : 0;
    if (d <= best_d) {
      best = int(i);
      best_d = d;
      if (d == 0) break;
    }
  }
  return best;
}

}  // namespace ds::gui
