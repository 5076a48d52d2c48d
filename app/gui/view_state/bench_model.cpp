// Builds the Bench view's series from sweep runs: one per run x route x memory x mode, log-log points.
#include "gui/view_state/bench_model.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/palette.h"

namespace ds::gui {
namespace {

bool listed(const std::vector<std::string>& list, const std::string& item) {
  return list.empty() || std::find(list.begin(), list.end(), item) != list.end();
}

int route_order(const std::string& r) {
  static const char* order[] = {"h2d", "d2h", "d2d", "p2p"};
  for (int i = 0; i < 4; ++i)
    if (r == order[i]) return i;
  return 4;
}

}  // namespace

std::string BenchRun::title() const {
  std::string t = "#" + std::to_string(number) + " " + result.backend + " (" + result.link + ")";
  if (!source.empty()) t += " - " + source;
  if (result.cancelled) t += " [cancelled]";
  return t;
}

std::string BenchRun::legend() const {
  std::string t = "backend " + result.backend + ", link " + result.link;
  if (!result.machine.empty()) t += ", machine " + result.machine;
  return t;
}

bool BenchFilter::shows(const SweepPoint& p) const {
  const bool host = p.route == "h2d" || p.route == "d2h";
  return listed(routes, p.route) && (!host || listed(memory, p.memory)) && listed(modes, p.mode);
}

std::string series_key(const SweepPoint& p) { return p.route + " " + p.memory + " " + p.mode; }

uint32_t bench_series_color(const std::string& route, const std::string& memory) {
  // The Transfers view's colours for the same routes, so that a colour means one thing in the app.
  if (route == "h2d") return series_color(memory == "pinned" ? Series::H2DPinned : Series::H2DPageable);
  if (route == "d2h") return series_color(memory == "pinned" ? Series::D2HPinned : Series::D2HPageable);
  if (route == "d2d") return series_color(Series::D2D);
  return rgba(0xff, 0x7e, 0xb6);  // p2p: its own pink (d2d is violet)
}

int bench_marker(const std::string& route, const std::string& memory) {
  if (route == "h2d") return memory == "pinned" ? 0 : 1;
  if (route == "d2h") return memory == "pinned" ? 2 : 3;
  return route == "d2d" ? 4 : 5;
}

uint32_t bench_run_color(int number) {
  static const uint32_t colors[] = {rgba(0x4c, 0x9a, 0xff), rgba(0xff, 0x9f, 0x43), rgba(0x5c, 0xd6, 0x8a),
                                    rgba(0xff, 0x6b, 0x9a), rgba(0xc7, 0x9b, 0xff), rgba(0xf4, 0xe0, 0x6d),
                                    rgba(0x4d, 0xd4, 0xd4), rgba(0xe0, 0xe0, 0xe0)};
  return colors[size_t(std::max(number - 1, 0)) % (sizeof colors / sizeof colors[0])];
}

void BenchPlotModel::build(const std::vector<BenchRun>& runs, const BenchFilter& filter, int color_mode) {
  series.clear();
  any_simulated = false;
  visible_runs = 0;
  for (const BenchRun& r : runs) visible_runs += r.visible ? 1 : 0;
  color_by_run = color_mode < 0 ? visible_runs > 1 : color_mode == 1;
  double lo_x = 1e300, hi_x = -1e300, lo_y = 1e300, hi_y = -1e300;
  for (size_t ri = 0; ri < runs.size(); ++ri) {
    const BenchRun& run = runs[ri];
    if (!run.visible) continue;
    any_simulated = any_simulated || run.result.simulated;
    std::map<std::string, size_t> by_key;  // series key -> index in `series`
    for (size_t pi = 0; pi < run.result.points.size(); ++pi) {
      const SweepPoint& p = run.result.points[pi];
      if (!filter.shows(p) || p.bytes == 0 || p.gbps <= 0) continue;
      const std::string key = series_key(p);
      auto it = by_key.find(key);
      if (it == by_key.end()) {
        BenchSeries s;
        s.run = ri;
        s.route = p.route, s.memory = p.memory, s.mode = p.mode;
        s.name = key;
        s.color = color_by_run ? bench_run_color(run.number) : bench_series_color(p.route, p.memory);
        s.marker = bench_marker(p.route, p.memory);
        s.dashed = p.mode == "async";
        it = by_key.emplace(key, series.size()).first;
        series.push_back(std::move(s));
      }
      BenchSeries& s = series[it->second];
      const double lx = std::log10(double(p.bytes)), ly = std::log10(p.gbps);
      s.points.emplace_back(lx, ly);
      s.point_index.push_back(pi);
      s.link_gbps = std::max(s.link_gbps, p.link_gbps);
      lo_x = std::min(lo_x, lx), hi_x = std::max(hi_x, lx);
      lo_y = std::min(lo_y, ly), hi_y = std::max(hi_y, ly);
      if (p.link_gbps > 0) hi_y = std::max(hi_y, std::log10(p.link_gbps));
    }
  }
  for (BenchSeries& s : series) {
    // Points by size (a file may list them in any order), so that the line joins neighbours.
    std::vector<size_t> order(s.points.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.points[a].first < s.points[b].first; });
    std::vector<std::pair<double, double>> pts;
    std::vector<size_t> idx;
    for (size_t i : order) pts.push_back(s.points[i]), idx.push_back(s.point_index[i]);
    s.points = std::move(pts);
    s.point_index = std::move(idx);
  }
  std::stable_sort(series.begin(), series.end(), [](const BenchSeries& a, const BenchSeries& b) {
    if (a.run != b.run) return a.run < b.run;
    if (route_order(a.route) != route_order(b.route)) return route_order(a.route) < route_order(b.route);
    if (a.memory != b.memory) return a.memory == "pinned";
    return a.mode == "sync" && b.mode != "sync";
  });
  if (series.empty()) {
    x_min = 3, x_max = 9, y_min = -2, y_max = 3;
    return;
  }
  // Whole decades around the data, at least two wide, so that the grid always has labels.
  x_min = std::floor(lo_x), x_max = std::max(std::ceil(hi_x), x_min + 2);
  if (x_max - hi_x < 0.15) x_max += 0.5;  // room for the last marker
  if (lo_x - x_min < 0.15) x_min -= 0.5;
  y_min = std::floor(lo_y), y_max = std::max(std::ceil(hi_y + 0.1), y_min + 2);
}

}  // namespace ds::gui
