// Bins transfers into the log-log bandwidth plot and works out the median curve per series.
#include "gui/view_state/bandwidth_model.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "gui/view_state/palette.h"
#include "gui/view_state/plot_axes.h"

namespace ds::gui {

const char* series_name(Series s) {
  switch (s) {
    case Series::H2DPinned: return "H2D pinned";
    case Series::H2DPageable: return "H2D pageable";
    case Series::D2HPinned: return "D2H pinned";
    case Series::D2HPageable: return "D2H pageable";
    case Series::D2D: return "D2D / peer";
    case Series::H2H: return "host copy";
    case Series::Count: break;
  }
  return "?";
}

Series transfer_series(const TransferRecord& t) {
  const bool h2d = t.src.is_host() && !t.dst.is_host();
  const bool d2h = !t.src.is_host() && t.dst.is_host();
  if (h2d) return t.src.kind == MemoryKind::Pinned ? Series::H2DPinned : Series::H2DPageable;
  if (d2h) return t.dst.kind == MemoryKind::Pinned ? Series::D2HPinned : Series::D2HPageable;
  return t.src.is_host() ? Series::H2H : Series::D2D;
}

uint32_t series_color(Series s) {
  // The routes' one palette (palette.h), so the plot, the table and the timeline agree.
  switch (s) {
    case Series::H2DPinned: return route_color(RouteHue::H2DPinned);
    case Series::H2DPageable: return route_color(RouteHue::H2DPageable);
    case Series::D2HPinned: return route_color(RouteHue::D2HPinned);
    case Series::D2HPageable: return route_color(RouteHue::D2HPageable);
    case Series::D2D: return route_color(RouteHue::D2D);
    case Series::H2H: return route_color(RouteHue::H2H);
    case Series::Count: break;
  }
  return 0xffffffff;
}

double BandwidthModel::modelled_gbs(const RouteRate& r, double bytes) {
  if (r.bandwidth_gbs <= 0) return 0;
  const double ns = r.latency_us * 1000.0 + bytes / r.bandwidth_gbs;
  return ns > 0 ? bytes / ns : 0;
}

namespace {

bool plotted(const TransferRecord& t) {
  if (!t.complete || t.gbps() <= 0 || t.bytes == 0) return false;
  return !(t.src.is_host() && t.dst.is_host());  // a host memcpy is not a device link
}

}  // namespace

void BandwidthModel::build(const Snapshot& snap, const LinkProfile* profile) {
  for (SeriesData& s : series) s = {};
  link = {};
  if (profile) {
    link.known = true;
    link.name = profile->name;
    link.rates[size_t(Series::H2DPinned)] = profile->h2d_pinned;
    link.rates[size_t(Series::H2DPageable)] = profile->h2d_pageable;
    link.rates[size_t(Series::D2HPinned)] = profile->d2h_pinned;
    link.rates[size_t(Series::D2HPageable)] = profile->d2h_pageable;
    link.rates[size_t(Series::D2D)] = profile->p2p;
  }
  // Ranges first: every transfer, and the peak of every plotted series' link curve, must fall inside.
  double lo_x = 1e300, hi_x = -1e300, lo_y = 1e300, hi_y = -1e300;
  bool seen[size_t(Series::Count)] = {};
  for (const TransferRecord& t : snap.transfers) {
    if (!plotted(t)) continue;
    const double lx = std::log10(double(t.bytes)), ly = std::log10(t.gbps());
    lo_x = std::min(lo_x, lx), hi_x = std::max(hi_x, lx), lo_y = std::min(lo_y, ly), hi_y = std::max(hi_y, ly);
    seen[size_t(transfer_series(t))] = true;
  }
  if (lo_x > hi_x) {  // nothing yet: 100 B .. 10 GB, 1 MB/s .. 1 TB/s
    x_min = 2, x_max = 10, y_min = -3, y_max = 3;
  } else {
    for (size_t s = 0; s < size_t(Series::Count); ++s)
      if (seen[s] && link.rates[s].bandwidth_gbs > 0) hi_y = std::max(hi_y, std::log10(link.rates[s].bandwidth_gbs));
    fit_log_range(lo_x, hi_x, 0.15, 4, &x_min, &x_max);
    fit_log_range(lo_y, hi_y, 0.15, 3, &y_min, &y_max);
  }
  std::array<std::map<uint32_t, uint32_t>, size_t(Series::Count)> bins;  // (x << 16 | y) -> count
  for (const TransferRecord& t : snap.transfers) {
    if (!plotted(t)) continue;
    const double gbs = t.gbps();
    const Series s = transfer_series(t);
    const double lx = std::log10(double(t.bytes)), ly = std::log10(gbs);
    const int xb = std::clamp(int((lx - x_min) / (x_max - x_min) * x_bins), 0, x_bins - 1);
    const int yb = std::clamp(int((ly - y_min) / (y_max - y_min) * y_bins), 0, y_bins - 1);
    bins[size_t(s)][uint32_t(xb) << 16 | uint32_t(yb)]++;
    SeriesData& d = series[size_t(s)];
    d.count++;
    d.peak_gbs = std::max(d.peak_gbs, gbs);
  }
  for (size_t s = 0; s < series.size(); ++s) {
    SeriesData& d = series[s];
    d.cells.reserve(bins[s].size());
    // Median per x column: the map is ordered by x then y, so each column's cells are consecutive.
    auto it = bins[s].begin();
    while (it != bins[s].end()) {
      const uint32_t x = it->first >> 16;
      uint64_t total = 0;
      auto col_end = it;
      for (; col_end != bins[s].end() && (col_end->first >> 16) == x; ++col_end) {
        d.cells.push_back({uint16_t(x), uint16_t(col_end->first & 0xffff), col_end->second});
        total += col_end->second;
      }
      uint64_t acc = 0;
      for (auto c = it; c != col_end; ++c) {
        acc += c->second;
        if (acc * 2 >= total) {
          const double lx = x_min + (double(x) + 0.5) / x_bins * (x_max - x_min);
          const double ly = y_min + (double(c->first & 0xffff) + 0.5) / y_bins * (y_max - y_min);
          d.median.emplace_back(lx, ly);
          break;
        }
      }
      it = col_end;
    }
  }
}

}  // namespace ds::gui
