// Names graph layout, the Builder's Python lines, and the bandwidth model.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/builder_lines.h"
#include "gui/view_state/graph_layout.h"

namespace ds::gui {
namespace {

float fixed_width(const std::string& s) { return float(s.size()) * 7.0f; }

TEST(GraphLayout, NamesFirstThenObjectsByDistanceWithRowsForReferences) {
  ObjectGraph g;
  g.nodes = {{1, ObjectKind::Name, "model", "", 0, false},
             {2, ObjectKind::Module, "Linear(4, 2)", "cuda:0", 0, true},
             {3, ObjectKind::Parameter, "Parameter [2, 4] float32", "cuda:0", 7, false},
             {4, ObjectKind::Parameter, "Parameter [2] float32", "cuda:0", 8, false},
             {5, ObjectKind::Name, "w", "", 0, false}};
  g.edges = {{1, 2, ""}, {2, 3, "weight"}, {2, 4, "bias"}, {5, 3, ""}};
  GraphLayout l = layout_graph(g, fixed_width);
  ASSERT_EQ(l.boxes.size(), 7u);   // 5 nodes and the two parameters' storages
  ASSERT_EQ(l.arrows.size(), 6u);  // 4 references, 2 tensor -> storage
  EXPECT_EQ(l.storages, 2u);
  EXPECT_EQ(l.changed, 1u);
  auto box = [&](uint64_t id) -> const GraphBox& {
    for (const GraphBox& b : l.boxes)
      if (l.boxes.size() && b.node == size_t(id - 1)) return b;
    return l.boxes.front();
  };
  EXPECT_EQ(box(1).column, 0);
  EXPECT_EQ(box(5).column, 0);
  EXPECT_EQ(box(2).column, 1);
  EXPECT_EQ(box(3).column, 2);  // tensors share the column right of the deepest module
  EXPECT_EQ(box(4).column, 2);
  EXPECT_EQ(box(2).rows, 2);    // weight and bias rows
  EXPECT_GT(box(2).x, box(1).x + box(1).w);
  // The module's rows' arrows leave from the module's right edge at their row.
  for (const GraphArrow& a : l.arrows) {
    float x0, y0, x1, y1;
    arrow_points(l, a, GraphLayoutOptions{}, &x0, &y0, &x1, &y1);
    EXPECT_FLOAT_EQ(x0, l.boxes[a.from].x + l.boxes[a.from].w);
    EXPECT_FLOAT_EQ(x1, l.boxes[a.to].x);
    if (a.row >= 0) EXPECT_GT(y0, l.boxes[a.from].y + l.boxes[a.from].header_h);
  }
  EXPECT_EQ(display_label(g.nodes[2]), "[2, 4] f32");
}

TEST(BuilderLines, EachActionIsOneLineOfPython) {
  BuildArgs a;
  a.target = "fc";
  a.a = 128;
  a.b = 10;
  EXPECT_EQ(build_line(BuildKind::Linear, a), "fc = nn.Linear(128, 10)");
  a.bias = false;
  EXPECT_EQ(build_line(BuildKind::Linear, a), "fc = nn.Linear(128, 10, bias=False)");
  a.source = "model";
  a.attr = "scale";
  a.shape = "16";
  EXPECT_EQ(build_line(BuildKind::Parameter, a), "model.scale = nn.Parameter(torch.randn(16))");
  EXPECT_EQ(build_line(BuildKind::Buffer, a), "model.register_buffer(\"scale\", torch.zeros(16))");
  EXPECT_EQ(build_line(BuildKind::PlainAttribute, a), "model.scale = torch.zeros(16)");
  a.in_place = true;
  a.device = "cuda:1";
  a.non_blocking = true;
  EXPECT_EQ(build_line(BuildKind::To, a), "model.to(\"cuda:1\", non_blocking=True)");
  a.in_place = false;
  a.target = "x_gpu";
  a.source = "x";
  EXPECT_EQ(build_line(BuildKind::To, a), "x_gpu = x.to(\"cuda:1\", non_blocking=True)");
  EXPECT_EQ(build_line(BuildKind::PinMemory, a), "x_gpu = x.pin_memory()");
  EXPECT_EQ(build_line(BuildKind::Alias, a), "x_gpu = x");
  a.source = "model[0].weight";
  EXPECT_EQ(build_line(BuildKind::Delete, a), "del model[0].weight");
}

TEST(BuilderLines, BadArgumentsProduceNoLineAndSayWhy) {
  BuildArgs a;
  a.target = "my model";
  a.a = 4;
  a.b = 2;
  std::string why;
  EXPECT_EQ(build_line(BuildKind::Linear, a, &why), "");
  EXPECT_EQ(why, "'my model' is not a Python name");
  a.target = "class";
  EXPECT_EQ(build_line(BuildKind::Linear, a, &why), "");
  a.target = "m";
  a.a = 0;
  EXPECT_EQ(build_line(BuildKind::Linear, a, &why), "");
  EXPECT_EQ(why, "in_features must be positive");
  EXPECT_TRUE(is_reference("model.layers[3].weight"));
  EXPECT_FALSE(is_reference("model..x"));
  EXPECT_FALSE(is_reference("f(x)"));
}

TEST(BandwidthModel, SeriesBinsAndTheLinkCurve) {
  Snapshot s;
  auto add = [&](Place src, Place dst, uint64_t bytes, uint64_t ns) {
    TransferRecord t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.start_ns = 1000;
    t.end_ns = 1000 + ns;
    t.complete = true;
    s.transfers.push_back(t);
  };
  add(Place::pinned(), Place::cuda(0), 1 << 20, 50000);    // ~21 GB/s
  add(Place::pinned(), Place::cuda(0), 1 << 20, 50000);
  add(Place::pageable(), Place::cuda(0), 1 << 20, 100000);
  add(Place::cuda(0), Place::pinned(), 4096, 10000);
  LinkProfile p;
  p.name = "test";
  p.h2d_pinned = {10.0, 25.0};
  BandwidthModel m;
  m.build(s, &p);
  EXPECT_EQ(m.series[size_t(Series::H2DPinned)].count, 2u);
  EXPECT_EQ(m.series[size_t(Series::H2DPinned)].cells.size(), 1u);
  EXPECT_EQ(m.series[size_t(Series::H2DPinned)].cells[0].count, 2u);
  EXPECT_EQ(m.series[size_t(Series::H2DPageable)].count, 1u);
  EXPECT_EQ(m.series[size_t(Series::D2HPinned)].count, 1u);
  EXPECT_NEAR(m.series[size_t(Series::H2DPinned)].peak_gbs, double(1 << 20) / 50000.0, 1e-9);
  ASSERT_TRUE(m.link.known);
  // 25 GB/s with 10 us latency: 1 MiB takes 10 us + 41.9 us.
  EXPECT_NEAR(BandwidthModel::modelled_gbs(m.link.rates[size_t(Series::H2DPinned)], double(1 << 20)),
              double(1 << 20) / (10000.0 + double(1 << 20) / 25.0), 1e-9);
}

}  // namespace
}  // namespace ds::gui

namespace ds::gui {
namespace {

TEST(GraphLayout, DisplayLabelsDropWhatBadgesSay) {
  ObjectNode t{1, ObjectKind::Tensor, "cuda:0 [256, 512] float32", "cuda:0", 3, false};
  EXPECT_EQ(display_label(t), "[256, 512] f32");
  ObjectNode p{2, ObjectKind::Tensor, "cpu pinned [64, 512] float16", "cpu (pinned)", 4, false};
  EXPECT_EQ(display_label(p), "[64, 512] f16");
  ObjectNode q{4, ObjectKind::Parameter, "Parameter cpu [256] float32", "cpu", 5, false};
  EXPECT_EQ(display_label(q), "[256] f32");
  ObjectNode r{5, ObjectKind::Tensor, "tensor cpu pinned [8] float32", "cpu", 6, false};
  EXPECT_EQ(display_label(r), "pinned [8] f32");  // the badge says only cpu: keep "pinned"
  ObjectNode m{3, ObjectKind::Module, "Linear(in_features=512, out_features=256, bias=True)", "cuda:0", 0, false};
  EXPECT_EQ(display_label(m), "Linear(512, 256, True)");
}

}  // namespace
}  // namespace ds::gui
