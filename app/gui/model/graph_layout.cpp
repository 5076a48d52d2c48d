// Layered layout of the object graph (breadth-first columns, parent-aligned rows).
#include "gui/model/graph_layout.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <deque>
#include <unordered_map>

namespace ds::gui {

std::string display_label(const ObjectNode& node) {
  std::string s = node.label;
  if (node.kind == ObjectKind::Parameter || node.kind == ObjectKind::Buffer || node.kind == ObjectKind::Tensor)
    for (const char* word : {"Parameter ", "parameter ", "buffer ", "tensor "})
      if (s.rfind(word, 0) == 0) s = s.substr(std::char_traits<char>::length(word));
  // The device has its own badge: drop it from the front of the label ("cuda:0 [256] float32"), and
  // "pinned" too when the badge says so.
  const std::string dev = node.device.substr(0, node.device.find(' '));
  if (!dev.empty() && s.size() > dev.size() + 1 && s.compare(0, dev.size(), dev) == 0 && s[dev.size()] == ' ') {
    s = s.substr(dev.size() + 1);
    if (node.device.find("pinned") != std::string::npos && s.rfind("pinned ", 0) == 0) s = s.substr(7);
  }
  // Module reprs keep their figures, not their keywords: Linear(in_features=4, out_features=2) -> Linear(4, 2).
  if (node.kind == ObjectKind::Module)
    for (size_t eq = s.find('='); eq != std::string::npos; eq = s.find('=')) {
      size_t b = eq;
      while (b > 0 && (std::isalnum(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '_')) --b;
      s.erase(b, eq + 1 - b);
    }
  static const char* dtypes[][2] = {{"bfloat16", "bf16"}, {"float32", "f32"}, {"float16", "f16"}, {"float64", "f64"},
                                    {"int64", "i64"},     {"int32", "i32"},   {"int16", "i16"},   {"uint8", "u8"}};
  for (auto& d : dtypes)
    for (size_t at = s.find(d[0]); at != std::string::npos; at = s.find(d[0], at)) s.replace(at, std::strlen(d[0]), d[1]);
  return s;
}

GraphLayout layout_graph(const ObjectGraph& g, const std::function<float(const std::string&)>& text_width,
                         const GraphLayoutOptions& o) {
  GraphLayout out;
  std::unordered_map<uint64_t, size_t> node_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) node_of.emplace(g.nodes[i].id, i);
  std::vector<std::vector<size_t>> children(g.nodes.size());
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto f = node_of.find(g.edges[e].from), t = node_of.find(g.edges[e].to);
    if (f != node_of.end() && t != node_of.end()) children[f->second].push_back(e);
  }

  // Columns by breadth-first distance from the names (in the order the script made them).
  std::vector<int> column(g.nodes.size(), -1);
  std::vector<size_t> parent(g.nodes.size(), SIZE_MAX);
  std::vector<size_t> order;  // discovery order
  std::deque<size_t> queue;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == ObjectKind::Name) {
      column[i] = 0;
      queue.push_back(i);
    }
  // Objects no name reaches still get drawn, after the rest.
  auto drain = [&] {
    while (!queue.empty()) {
      const size_t n = queue.front();
      queue.pop_front();
      order.push_back(n);
      for (size_t e : children[n]) {
        const size_t c = node_of[g.edges[e].to];
        if (column[c] >= 0) continue;
        column[c] = column[n] + 1;
        parent[c] = n;
        queue.push_back(c);
      }
    }
  };
  drain();
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (column[i] < 0) {
      column[i] = 1;
      queue.push_back(i);
      drain();
    }

  // Box sizes: a header (label, and the device badge line) and one row per outgoing reference.
  int columns = 0;
  for (int c : column) columns = std::max(columns, c + 1);
  std::vector<float> col_width(size_t(columns), 0);
  std::vector<size_t> box_of(g.nodes.size());
  std::vector<int> row_of_edge(g.edges.size(), -1);
  out.boxes.reserve(g.nodes.size());
  for (size_t n : order) {
    const ObjectNode& node = g.nodes[n];
    GraphBox b;
    b.node = n;
    b.column = column[n];
    const bool is_name = node.kind == ObjectKind::Name;
    b.rows = is_name ? 0 : int(children[n].size());
    float w = text_width(display_label(node));
    if (!node.device.empty()) w = std::max(w, text_width(node.device) + 16);
    for (size_t k = 0; k < children[n].size(); ++k) {
      row_of_edge[children[n][k]] = is_name ? -1 : int(k);
      if (!is_name) w = std::max(w, text_width(g.edges[children[n][k]].label) + 24);
    }
    b.w = w + 2 * o.pad_x;
    b.header_h = is_name ? o.line_height + 2 : (node.device.empty() ? 1 : 2) * o.line_height + 8;
    b.h = b.header_h + float(b.rows) * o.line_height + (b.rows ? 4 : 0);
    col_width[size_t(b.column)] = std::max(col_width[size_t(b.column)], b.w);
    box_of[n] = out.boxes.size();
    out.boxes.push_back(b);
    out.changed += node.changed;
  }
  std::vector<float> col_x(size_t(columns), 0);
  for (int c = 1; c < columns; ++c) col_x[size_t(c)] = col_x[size_t(c - 1)] + col_width[size_t(c - 1)] + o.column_gap;

  // Rows: each box level with the row (or name) that first refers to it, below the previous box of
  // its column. Names stack tightly, like the variables of a frame.
  std::vector<float> next_y(size_t(columns), 0);
  std::vector<size_t> parent_edge(g.nodes.size(), SIZE_MAX);
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto t = node_of.find(g.edges[e].to), f = node_of.find(g.edges[e].from);
    if (t != node_of.end() && f != node_of.end() && parent[t->second] == f->second && parent_edge[t->second] == SIZE_MAX)
      parent_edge[t->second] = e;
  }
  for (GraphBox& b : out.boxes) {
    float y = next_y[size_t(b.column)];
    if (parent[b.node] != SIZE_MAX) {
      const GraphBox& p = out.boxes[box_of[parent[b.node]]];
      const int row = parent_edge[b.node] == SIZE_MAX ? -1 : row_of_edge[parent_edge[b.node]];
      y = std::max(y, row < 0 ? p.y : p.y + p.header_h + float(row) * o.line_height - 4);
    }
    b.x = col_x[size_t(b.column)];
    b.y = y;
    const bool is_name = g.nodes[b.node].kind == ObjectKind::Name;
    next_y[size_t(b.column)] = y + b.h + (is_name ? o.name_gap : o.row_gap);
    out.width = std::max(out.width, b.x + b.w);
    out.height = std::max(out.height, b.y + b.h);
  }
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto f = node_of.find(g.edges[e].from), t = node_of.find(g.edges[e].to);
    if (f != node_of.end() && t != node_of.end()) out.arrows.push_back({box_of[f->second], box_of[t->second], e, row_of_edge[e]});
  }
  return out;
}

void arrow_points(const GraphLayout& l, const GraphArrow& a, const GraphLayoutOptions& o, float* x0, float* y0, float* x1, float* y1) {
  const GraphBox& f = l.boxes[a.from];
  const GraphBox& t = l.boxes[a.to];
  *x0 = f.x + f.w;
  *y0 = a.row < 0 ? f.y + f.h * 0.5f : f.y + f.header_h + (float(a.row) + 0.5f) * o.line_height;
  *x1 = t.x;
  *y1 = t.y + std::min(t.header_h * 0.5f, o.line_height * 0.5f + 5);
}

}  // namespace ds::gui
