// The log-log plots' axes and labels (issue 17 item 8): binary size ticks, ranges that hold every
// point, one hue per series, and line labels that cover neither curves nor each other.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/bench_model.h"
#include "gui/view_state/plot_axes.h"

namespace ds::gui {
namespace {

TEST(PlotAxes, SizeTicksUseBinaryUnits) {
  EXPECT_EQ(binary_size_label(0), "1 B");
  EXPECT_EQ(binary_size_label(6), "64 B");
  EXPECT_EQ(binary_size_label(10), "1 KiB");
  EXPECT_EQ(binary_size_label(14), "16 KiB");
  EXPECT_EQ(binary_size_label(20), "1 MiB");
  EXPECT_EQ(binary_size_label(33), "8 GiB");
  // 100 B .. 10 GB on 800 px with labels 70 px apart.
  const auto ticks = binary_size_ticks(2, 10, 800, 70);
  ASSERT_GE(ticks.size(), 4u);
  for (const AxisTick& t : ticks) {
    EXPECT_GE(t.value, 2 - 1e-9);
    EXPECT_LE(t.value, 10 + 1e-9);
    EXPECT_EQ(t.label.find("kB"), std::string::npos) << t.label;
    EXPECT_EQ(t.label.find(" MB"), std::string::npos) << t.label;
  }
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_GE((ticks[i].value - ticks[i - 1].value) / 8 * 800, 70 - 1e-3);
  std::set<std::string> labels;
  for (const AxisTick& t : ticks) labels.insert(t.label);
  EXPECT_TRUE(labels.count("1 KiB") && labels.count("1 MiB") && labels.count("1 GiB"));
  // Zoomed in (4 KiB .. 1 MiB on a wide plot): every power of two gets its tick.
  EXPECT_EQ(binary_size_ticks(std::log10(4096.0), std::log10(1048576.0), 2000, 60).size(), 9u);
}

TEST(PlotAxes, RangesAreWholeDecadesAroundTheData) {
  double a, b;
  fit_log_range(std::log10(40.0), std::log10(2e9), 0.15, 4, &a, &b);
  EXPECT_EQ(a, 1);  // 40 B is inside, not clamped onto a 100 B edge
  EXPECT_EQ(b, 10);
  fit_log_range(3, 3.5, 0.15, 4, &a, &b);
  EXPECT_EQ(b - a, 4);
  EXPECT_LT(a, 3);
  EXPECT_GT(b, 3.5);
}

TEST(PlotAxes, BandwidthPlotRangeHoldsEveryTransfer) {
  Snapshot s;
  auto add = [&](Place src, Place dst, uint64_t bytes, uint64_t ns) {
    TransferRecord t;
    t.src = src, t.dst = dst, t.bytes = bytes, t.start_ns = 1000, t.end_ns = 1000 + ns, t.complete = true;
    s.transfers.push_back(t);
  };
  add(Place::pageable(), Place::cuda(0), 40, 20000);            // 40 B at 2 MB/s
  add(Place::pinned(), Place::cuda(0), uint64_t(1) << 30, 40000000);  // 1 GiB at 27 GB/s
  BandwidthModel m;
  m.build(s, nullptr);
  EXPECT_LE(m.x_min, std::log10(40.0));
  EXPECT_GE(m.x_max, std::log10(double(uint64_t(1) << 30)));
  EXPECT_LE(m.y_min, std::log10(40.0 / 20000.0));
  // The 40 B point sits in its own bin, not in the first one (the old clamp to 100 B).
  const auto& cells = m.series[size_t(Series::H2DPageable)].cells;
  ASSERT_EQ(cells.size(), 1u);
  const double lx = m.x_min + (cells[0].x + 0.5) / BandwidthModel::x_bins * (m.x_max - m.x_min);
  EXPECT_NEAR(lx, std::log10(40.0), (m.x_max - m.x_min) / BandwidthModel::x_bins);
}

TEST(PlotAxes, EverySeriesHasItsOwnHue) {
  // Bandwidth plot: pinned and pageable of one route are different hues, not shades of one.
  const Series plotted[] = {Series::H2DPinned, Series::H2DPageable, Series::D2HPinned, Series::D2HPageable, Series::D2D};
  for (Series a : plotted)
    for (Series b : plotted)
      if (a != b)
        EXPECT_GE(hue_distance(hue_degrees(series_color(a)), hue_degrees(series_color(b))), 25)
            << series_name(a) << " vs " << series_name(b);
  // Bench: the six route x memory pairs (sync and async share a hue and differ by dashes).
  const std::pair<const char*, const char*> pairs[] = {{"h2d", "pinned"}, {"h2d", "pageable"}, {"d2h", "pinned"},
                                                       {"d2h", "pageable"}, {"d2d", "device"},   {"p2p", "device"}};
  for (auto& a : pairs)
    for (auto& b : pairs)
      if (&a != &b)
        EXPECT_GE(hue_distance(hue_degrees(bench_series_color(a.first, a.second)), hue_degrees(bench_series_color(b.first, b.second))), 25)
            << a.first << " " << a.second << " vs " << b.first << " " << b.second;
}

TEST(PlotAxes, SegmentsAndRectangles) {
  const LabelRect r{10, 10, 20, 20};
  EXPECT_TRUE(segment_crosses({0, 15, 30, 15}, r));   // straight through
  EXPECT_TRUE(segment_crosses({12, 12, 14, 14}, r));  // inside
  EXPECT_FALSE(segment_crosses({0, 0, 30, 5}, r));    // above
  EXPECT_FALSE(segment_crosses({0, 30, 5, 0}, r));    // passes the corner by
  EXPECT_TRUE(rects_overlap(r, {15, 15, 25, 25}));
  EXPECT_FALSE(rects_overlap(r, {20, 10, 30, 20}));   // touching edges do not overlap
}

TEST(PlotAxes, LineLabelsAvoidCurvesAndEachOther) {
  // Two horizontal lines 6 px apart at the right edge of a 400 x 300 plot, a curve rising into the
  // top right corner: the labels may not cover the curve, nor each other.
  const std::vector<LabelSegment> curve = {{0, 300, 300, 100}, {300, 100, 400, 40}};
  std::vector<LabelRect> placed;
  const float ys[] = {60, 66, 140};
  for (float y : ys) {
    const LabelRect r = place_line_label(y, 120, 14, 0, 400, 0, 300, placed, curve);
    for (const LabelSegment& s : curve) EXPECT_FALSE(segment_crosses(s, r)) << "label at y " << y;
    for (const LabelRect& q : placed) EXPECT_FALSE(rects_overlap(r, q)) << "label at y " << y;
    EXPECT_TRUE(r.y1 <= y + 0.5f || r.y0 >= y - 0.5f);  // touches its line from above or below
    EXPECT_GE(r.x0, 0);
    EXPECT_LE(r.x1, 400);
    placed.push_back(r);
  }
}

}  // namespace
}  // namespace ds::gui
