// The Bench view's series model without GL: one series per run x route x memory x mode, points by
// size, filters, colour by series or by run, plot ranges in whole decades, and a real sweep's shape.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/view_state/bench_model.h"
#include "gui/view_state/palette.h"
#include "runtime/runtime.h"

namespace ds::gui {
namespace {

SweepPoint point(const std::string& route, const std::string& memory, const std::string& mode, uint64_t bytes,
                 double gbps, double link = 25) {
  SweepPoint p;
  p.route = route, p.memory = memory, p.mode = mode;
  p.bytes = bytes;
  p.gbps = gbps;
  p.link_gbps = link;
  p.simulated = true;
  return p;
}

BenchRun run(int number, std::vector<SweepPoint> points, bool simulated = true) {
  BenchRun r;
  r.number = number;
  r.result.backend = simulated ? "sim" : "cuda";
  r.result.link = "pcie4-x16";
  r.result.machine = "box (Linux)";
  r.result.simulated = simulated;
  r.result.points = std::move(points);
  return r;
}

TEST(BenchModel, OneSeriesPerRouteMemoryModeWithPointsBySize) {
  // Sizes out of order in the file: the series is sorted so that its line joins neighbours.
  std::vector<BenchRun> runs = {run(1, {point("h2d", "pinned", "sync", 1 << 20, 10), point("h2d", "pinned", "sync", 4096, 0.5),
                                        point("h2d", "pageable", "sync", 4096, 0.25), point("d2d", "device", "async", 65536, 100, 900)})};
  BenchPlotModel m;
  m.build(runs, {});
  ASSERT_EQ(m.series.size(), 3u);
  EXPECT_EQ(m.series[0].name, "h2d pinned sync");
  EXPECT_EQ(m.series[1].name, "h2d pageable sync");
  EXPECT_EQ(m.series[2].name, "d2d device async");
  ASSERT_EQ(m.series[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(m.series[0].points[0].first, std::log10(4096.0));
  EXPECT_DOUBLE_EQ(m.series[0].points[1].second, 1.0);  // 10 GB/s
  EXPECT_EQ(m.series[0].point_index, (std::vector<size_t>{1, 0}));
  EXPECT_TRUE(m.series[2].dashed);
  EXPECT_FALSE(m.series[0].dashed);
  EXPECT_DOUBLE_EQ(m.series[2].link_gbps, 900);
  EXPECT_TRUE(m.any_simulated);
  EXPECT_FALSE(m.color_by_run);
  EXPECT_EQ(m.series[0].color, bench_series_color("h2d", "pinned"));
  EXPECT_NE(m.series[0].marker, m.series[1].marker);
  // Whole decades around 4 KiB..1 MiB and 0.25..900 GB/s (the link's rate counts, with room above it for
  // its label: 900 GB/s is too close to the 1000 GB/s edge).
  EXPECT_DOUBLE_EQ(m.x_min, 3);
  EXPECT_DOUBLE_EQ(m.x_max, 7);
  EXPECT_DOUBLE_EQ(m.y_min, -1);
  EXPECT_DOUBLE_EQ(m.y_max, 4);
  runs[0].result.points[3].link_gbps = 500;
  m.build(runs, {});
  EXPECT_DOUBLE_EQ(m.y_max, 3);
}

TEST(BenchModel, FiltersHideSeriesAndDeviceRoutesIgnoreTheHostMemoryFilter) {
  std::vector<BenchRun> runs = {run(1, {point("h2d", "pinned", "sync", 4096, 1), point("h2d", "pageable", "async", 4096, 1),
                                        point("d2d", "device", "sync", 4096, 1), point("p2p", "device", "sync", 4096, 1)})};
  BenchFilter f;
  f.memory = {"pinned"};
  f.modes = {"sync"};
  BenchPlotModel m;
  m.build(runs, f);
  ASSERT_EQ(m.series.size(), 3u);
  EXPECT_EQ(m.series[0].name, "h2d pinned sync");
  EXPECT_EQ(m.series[1].name, "d2d device sync");
  EXPECT_EQ(m.series[2].name, "p2p device sync");
  f.routes = {"none"};
  m.build(runs, f);
  EXPECT_TRUE(m.series.empty());
  EXPECT_DOUBLE_EQ(m.x_min, 3);  // the default range when nothing is shown
}

TEST(BenchModel, SeveralVisibleRunsAreColouredByRunAndHiddenRunsDropOut) {
  std::vector<BenchRun> runs = {run(1, {point("h2d", "pinned", "sync", 4096, 1)}),
                                run(2, {point("h2d", "pinned", "sync", 4096, 2)}, false)};
  BenchPlotModel m;
  m.build(runs, {});
  ASSERT_EQ(m.series.size(), 2u);
  EXPECT_TRUE(m.color_by_run);
  EXPECT_EQ(m.visible_runs, 2u);
  EXPECT_EQ(m.series[0].color, bench_run_color(1));
  EXPECT_EQ(m.series[1].color, bench_run_color(2));
  EXPECT_NE(bench_run_color(1), bench_run_color(2));
  EXPECT_EQ(m.series[1].run, 1u);
  m.build(runs, {}, 0);  // forced: by series
  EXPECT_FALSE(m.color_by_run);
  EXPECT_EQ(m.series[1].color, bench_series_color("h2d", "pinned"));
  runs[0].visible = false;
  m.build(runs, {});
  ASSERT_EQ(m.series.size(), 1u);
  EXPECT_FALSE(m.color_by_run);
  EXPECT_FALSE(m.any_simulated);  // only the real run is visible
  EXPECT_EQ(runs[1].title(), "#2 cuda (pcie4-x16)");
  EXPECT_EQ(runs[1].legend(), "backend cuda, link pcie4-x16, machine box (Linux)");
}

TEST(BenchModel, RealSweepOnSimulatedDevicesGivesOneSeriesPerCombination) {
  RuntimeOptions ro;
  ro.backend.backend = "sim";
  ro.backend.sim_devices = 2;
  auto rt = Runtime::create(ro);
  SweepOptions o;
  o.sizes = parse_size_list("4KiB:64KiB");  // 5 sizes
  o.repeat = 2;
  std::vector<BenchRun> runs(1);
  runs[0].number = 1;
  runs[0].result = run_sweep(*rt, o);
  BenchPlotModel m;
  m.build(runs, {});
  // h2d, d2h x pinned/pageable x sync/async = 8, d2d and p2p x sync/async = 4.
  ASSERT_EQ(m.series.size(), 12u);
  for (const BenchSeries& s : m.series) EXPECT_EQ(s.points.size(), 5u) << s.name;
  EXPECT_TRUE(m.any_simulated);
  EXPECT_EQ(runs[0].result.pinning.size(), 5u);
  EXPECT_GT(m.series[0].link_gbps, 0);
}

}  // namespace
}  // namespace ds::gui
