// Bandwidth-vs-size data for the log-log plot: transfers binned per series (H2D/D2H x pinned/pageable,
// D2D), a median curve per series, and the link profile's modelled curve and peak. Built once per snapshot.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/link_profile.h"
#include "trace/snapshot.h"

namespace ds::gui {

// H2H: host-to-host copies (pin_memory, staging), which never cross the link.
enum class Series : int8_t { H2DPinned, H2DPageable, D2HPinned, D2HPageable, D2D, H2H, Count };
const char* series_name(Series s);  // "H2D pinned", ...
Series transfer_series(const TransferRecord& t);
// One hue per series (pinned and pageable of a route differ in hue, not just in shade), shared by the
// bandwidth plot's legend, its points and the Bench view.
uint32_t series_color(Series s);

struct BandwidthModel {
  // Plot ranges in log10 units: bytes 10^x_min .. 10^x_max, GB/s 10^y_min .. 10^y_max; whole decades
  // around every transfer (and the link's peaks), so that no point is clamped onto an edge.
  double x_min = 2, x_max = 10, y_min = -3, y_max = 3;
  static constexpr int x_bins = 170, y_bins = 130;

  struct Cell {
    uint16_t x, y;
    uint32_t count;
  };
  struct SeriesData {
    std::vector<Cell> cells;                       // occupied bins
    std::vector<std::pair<double, double>> median;  // (log10 bytes, log10 GB/s) per occupied x bin
    size_t count = 0;
    double peak_gbs = 0;     // best measured
  };
  std::array<SeriesData, size_t(Series::Count)> series;

  // The link's modelled curve per series: GB/s = bytes / (latency + bytes / bandwidth).
  struct Link {
    std::string name;
    std::array<RouteRate, size_t(Series::Count)> rates{};
    bool known = false;
  } link;

  void build(const Snapshot& snap, const LinkProfile* profile);
  static double modelled_gbs(const RouteRate& r, double bytes);
};

}  // namespace ds::gui
