// Python Tutor-style layout of the names graph: names in the first column, then objects by their
// distance from a name; children placed beside their first parent to keep arrows short.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "trace/snapshot.h"

namespace ds::gui {

// Objects that hold references (modules, lists) list them as rows, Python Tutor style; each row's
// arrow starts at that row.
struct GraphBox {
  size_t node = 0;  // index into ObjectGraph::nodes
  int column = 0;
  float x = 0, y = 0, w = 0, h = 0;
  float header_h = 0;  // label (and device) lines; rows follow
  int rows = 0;        // outgoing references
};

struct GraphArrow {
  size_t from = 0, to = 0;  // box indices
  size_t edge = 0;          // index into ObjectGraph::edges
  int row = -1;             // row of `from` the arrow leaves from; -1: from the box itself (names)
};

struct GraphLayout {
  std::vector<GraphBox> boxes;
  std::vector<GraphArrow> arrows;
  float width = 0, height = 0;
  size_t changed = 0;  // boxes whose node changed in the last step
};

struct GraphLayoutOptions {
  float column_gap = 70;
  float row_gap = 10;
  float pad_x = 10;
  float line_height = 17;
  float name_gap = 3;  // between the names of the frame
};

// Where the arrow of `a` starts (right edge of its row) and ends (left edge of the target's header).
void arrow_points(const GraphLayout& l, const GraphArrow& a, const GraphLayoutOptions& o, float* x0, float* y0, float* x1, float* y1);

// A node's label as the graph shows it: dtypes shortened (float32 -> f32), and the kind word dropped
// for tensors, whose box colour already says parameter / buffer / tensor.
std::string display_label(const ObjectNode& node);

// `text_width` measures a label in pixels (the view passes the font's; tests pass a fixed width).
GraphLayout layout_graph(const ObjectGraph& graph, const std::function<float(const std::string&)>& text_width,
                         const GraphLayoutOptions& options = {});

}  // namespace ds::gui
