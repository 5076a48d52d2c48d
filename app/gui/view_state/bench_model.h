// The Bench view's GL-free model: sweep runs (this session's and ones opened from files), their
// series (route x memory x mode) as log-log points, plot ranges, colours and legend lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep/transfer_sweep.h"

namespace ds::gui {

struct BenchRun {
  SweepResult result;
  std::string source;   // "this session" or the file it was opened from
  int number = 0;       // 1, 2, ... in the order runs joined the view
  bool visible = true;

  std::string title() const;    // "#2 sim (pcie4-x16) - file.json"
  std::string legend() const;   // "backend sim, link pcie4-x16, machine host (Linux ...)"
};

// Which series the plot shows (routes, host memory kinds, modes); empty lists show everything.
struct BenchFilter {
  std::vector<std::string> routes, memory, modes;
  bool shows(const SweepPoint& p) const;
};

struct BenchSeries {
  size_t run = 0;                       // index into the runs
  std::string route, memory, mode;      // memory is "device" for d2d/p2p
  std::string name;                     // "h2d pinned sync"
  std::vector<std::pair<double, double>> points;  // (log10 bytes, log10 GB/s), by size
  std::vector<size_t> point_index;      // into the run's points
  double link_gbps = 0;                 // nominal rate of the link profile for this route
  uint32_t color = 0;
  int marker = 0;                       // 0 circle, 1 square, 2 triangle, 3 diamond, 4 cross (route x memory)
  bool dashed = false;                  // async
};

struct BenchPlotModel {
  double x_min = 3, x_max = 9, y_min = -2, y_max = 3;  // log10 ranges, whole decades around the data
  std::vector<BenchSeries> series;
  bool color_by_run = false;            // several runs visible: colours tell runs apart, markers tell routes
  bool any_simulated = false;
  size_t visible_runs = 0;

  // colour_by_run: -1 auto (by run when more than one is visible), 0 by series, 1 by run.
  void build(const std::vector<BenchRun>& runs, const BenchFilter& filter, int color_by_run = -1);
};

std::string series_key(const SweepPoint& p);   // "h2d pinned sync"
uint32_t bench_series_color(const std::string& route, const std::string& memory);
int bench_marker(const std::string& route, const std::string& memory);
uint32_t bench_run_color(int number);          // a distinct colour per run number (1-based)

}  // namespace ds::gui
