// The names graph at workshop scale (issue 17 item 6): a storage column where views meet, objects no
// name reaches dropped, plain values written beside their names, barycentre ordering that removes
// crossings, and a zoom that fits the whole graph into the view.
#include <gtest/gtest.h>

#include <random>

#include "gui/view_state/graph_layout.h"

namespace ds::gui {
namespace {

float fixed_width(const std::string& s) { return float(s.size()) * 7.0f; }

ObjectNode node(uint64_t id, ObjectKind kind, const std::string& label, const std::string& device = "", uint64_t storage = 0) {
  ObjectNode n;
  n.id = id, n.kind = kind, n.label = label, n.device = device, n.storage_id = storage;
  return n;
}

size_t count_storage_boxes(const GraphLayout& l) {
  size_t n = 0;
  for (const GraphBox& b : l.boxes) n += b.is_storage();
  return n;
}

TEST(NamesGraphLayout, ViewsOfOneStorageMeetInOneStorageBox) {
  // Lesson 013: `v = base.view(...)`, `d = base.data`, `x = base.detach()` all look at storage 7.
  ObjectGraph g;
  g.nodes = {node(1, ObjectKind::Name, "base"), node(2, ObjectKind::Name, "v"), node(3, ObjectKind::Name, "d"),
             node(4, ObjectKind::Name, "other"), node(11, ObjectKind::Tensor, "tensor cpu [24] float32", "cpu", 7),
             node(12, ObjectKind::Tensor, "tensor cpu [4, 6] float32", "cpu", 7),
             node(13, ObjectKind::Tensor, "tensor cpu [24] float32", "cpu", 7),
             node(14, ObjectKind::Tensor, "tensor cuda:0 [3] float32", "cuda:0", 9)};
  g.edges = {{1, 11, "base"}, {2, 12, "v"}, {3, 13, "d"}, {4, 14, "other"}};
  StorageInfo s7;
  s7.id = 7, s7.place = Place::pageable(), s7.nbytes = 96;
  StorageInfo s9;
  s9.id = 9, s9.place = Place::cuda(0), s9.nbytes = 12;
  const std::vector<StorageInfo> storages = {s7, s9};
  const GraphLayout l = layout_graph(g, fixed_width, {}, &storages);
  EXPECT_EQ(l.storages, 2u);
  ASSERT_EQ(count_storage_boxes(l), 2u);
  EXPECT_EQ(l.columns, 3);  // names, objects, storages
  for (const GraphBox& b : l.boxes) {
    if (!b.is_storage()) continue;
    EXPECT_EQ(b.column, 2);
    if (b.storage_id == 7) {
      EXPECT_EQ(b.tensors, 3);
      EXPECT_EQ(b.label, "96 B  \xc3\x97" "3");  // "x3": three tensors share it
      EXPECT_EQ(b.device, "cpu");
    } else {
      EXPECT_EQ(b.storage_id, 9u);
      EXPECT_EQ(b.tensors, 1);
      EXPECT_EQ(b.device, "cuda:0");
    }
  }
  size_t to_storage = 0;
  for (const GraphArrow& a : l.arrows)
    if (a.edge == kNoNode) {
      ++to_storage;
      EXPECT_TRUE(l.boxes[a.to].is_storage());
      EXPECT_EQ(l.boxes[a.to].storage_id, g.nodes[l.boxes[a.from].node].storage_id);
    }
  EXPECT_EQ(to_storage, 4u);
  EXPECT_EQ(count_crossings(l, {}), 0u);
}

TEST(NamesGraphLayout, ObjectsNoNameReachesAreDroppedAndPlainValuesJoinTheirNames) {
  ObjectGraph g;
  g.nodes = {node(1, ObjectKind::Name, "lr"), node(2, ObjectKind::Other, "0.1"), node(3, ObjectKind::Name, "t"),
             node(4, ObjectKind::Tensor, "tensor cpu [10] float32", "cpu", 5),
             // An old tensor and the list that held it, from an earlier step: no name reaches them.
             node(6, ObjectKind::List, "list[1]"), node(7, ObjectKind::Tensor, "tensor cpu [1000] float32", "cpu", 8)};
  g.edges = {{1, 2, "lr"}, {3, 4, "t"}, {6, 7, "[0]"}};
  const GraphLayout l = layout_graph(g, fixed_width);
  EXPECT_EQ(l.unreachable, 2u);
  for (const GraphBox& b : l.boxes) {
    if (b.is_storage()) {
      EXPECT_EQ(b.storage_id, 5u);  // the old tensor's storage 8 is not drawn either
      continue;
    }
    EXPECT_NE(g.nodes[b.node].id, 6u);
    EXPECT_NE(g.nodes[b.node].id, 7u);
    EXPECT_NE(g.nodes[b.node].id, 2u);  // 0.1 is written into the name's box
    if (g.nodes[b.node].id == 1) {
      EXPECT_EQ(b.label, "lr = 0.1");
    }
    if (g.nodes[b.node].id == 3) {
      EXPECT_EQ(b.label, "t");
    }
  }
  EXPECT_EQ(l.boxes.size(), 4u);  // lr, t, the tensor, its storage
  EXPECT_EQ(l.arrows.size(), 2u);
}

// A workshop-sized script: 40 names, each bound to a new tensor (a third of them views of a recent
// tensor's storage), a list of three new tensors, an earlier tensor again (an alias), or a plain value.
ObjectGraph busy_graph(unsigned seed) {
  std::mt19937 rng(seed);
  ObjectGraph g;
  uint64_t next_id = 100, next_storage = 1;
  std::vector<uint64_t> tensors, storage_of;
  auto tensor = [&](uint64_t storage) {
    g.nodes.push_back(node(next_id, ObjectKind::Tensor, "tensor cpu [4] float32", "cpu", storage));
    tensors.push_back(next_id), storage_of.push_back(storage);
    return next_id++;
  };
  auto fresh_or_view = [&] {
    // Views are taken of something made just before (`v = base.view(...)` follows `base = ...`).
    if (!storage_of.empty() && rng() % 3 == 0) return tensor(storage_of[storage_of.size() - 1 - rng() % std::min<size_t>(3, storage_of.size())]);
    return tensor(next_storage++);
  };
  for (int i = 0; i < 40; ++i) {
    const uint64_t name = next_id++;
    g.nodes.push_back(node(name, ObjectKind::Name, "name" + std::to_string(i)));
    const unsigned pick = rng() % 8;
    if (pick < 4) {
      g.edges.push_back({name, fresh_or_view(), ""});
    } else if (pick == 4) {
      const uint64_t list = next_id++;
      g.nodes.push_back(node(list, ObjectKind::List, "list[3]"));
      g.edges.push_back({name, list, ""});
      for (int k = 0; k < 3; ++k) g.edges.push_back({list, fresh_or_view(), "[" + std::to_string(k) + "]"});
    } else if (pick == 5 && !tensors.empty()) {
      g.edges.push_back({name, tensors[rng() % tensors.size()], ""});
    } else {
      g.nodes.push_back(node(next_id, ObjectKind::Other, std::to_string(i)));
      g.edges.push_back({name, next_id++, ""});
    }
  }
  return g;
}

TEST(NamesGraphLayout, BarycentreOrderingRemovesCrossings) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const ObjectGraph g = busy_graph(seed);
    GraphLayoutOptions found_order;
    found_order.order_sweeps = 0;
    const size_t before = count_crossings(layout_graph(g, fixed_width, found_order), found_order);
    const GraphLayoutOptions o;
    const GraphLayout l = layout_graph(g, fixed_width, o);
    const size_t after = count_crossings(l, o);
    EXPECT_LT(after, before) << "seed " << seed;
    EXPECT_LE(double(after), 0.8 * double(before)) << "seed " << seed << ": " << before << " -> " << after;
    // Names keep the script's order, top to bottom.
    float last_y = -1;
    for (const GraphBox& b : l.boxes)
      if (!b.is_storage() && g.nodes[b.node].kind == ObjectKind::Name) {
        EXPECT_GT(b.y, last_y);
        last_y = b.y;
      }
    // No two boxes of a column overlap.
    for (size_t i = 0; i < l.boxes.size(); ++i)
      for (size_t j = i + 1; j < l.boxes.size(); ++j)
        if (l.boxes[i].column == l.boxes[j].column) {
          const GraphBox &a = l.boxes[i], &b = l.boxes[j];
          EXPECT_TRUE(a.y + a.h <= b.y || b.y + b.h <= a.y) << "boxes " << i << " and " << j;
        }
  }
}

TEST(NamesGraphLayout, FitZoomKeepsTheWholeGraphInViewWithinLegibleBounds) {
  EXPECT_FLOAT_EQ(fit_zoom(300, 200, 600, 400), 1.0f);  // never magnified
  EXPECT_FLOAT_EQ(fit_zoom(1200, 400, 600, 400), 0.5f);
  EXPECT_FLOAT_EQ(fit_zoom(600, 1000, 600, 400), 0.5f);  // the height counts as much as the width
  EXPECT_FLOAT_EQ(fit_zoom(6000, 400, 600, 400), 0.5f);  // beyond legibility the user pans
  // Aligning boxes with their arrows never makes the busy graph taller than its tallest column
  // stacked tight, nor wider than its columns: it fits a 1280 x 720 projector's names pane.
  const ObjectGraph g = busy_graph(1);
  const GraphLayout l = layout_graph(g, fixed_width);
  float tallest = 0;
  std::vector<float> column_h(size_t(l.columns), 0);
  const GraphLayoutOptions o;
  for (const GraphBox& b : l.boxes) {
    const bool name = !b.is_storage() && g.nodes[b.node].kind == ObjectKind::Name;
    column_h[size_t(b.column)] += b.h + (name ? o.name_gap : o.row_gap);
  }
  for (float h : column_h) tallest = std::max(tallest, h);
  EXPECT_LE(l.height, tallest);
  const float z = fit_zoom(l.width, l.height, 1240, 600);
  EXPECT_LE(l.width * z, 1240.5f);
  EXPECT_LE(l.height * z, 600.5f) << "layout " << l.width << " x " << l.height;
}

}  // namespace
}  // namespace ds::gui
