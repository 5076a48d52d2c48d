// Layered layout of the object graph: breadth-first columns, a storage column, barycentre ordering.
#include "gui/view_state/graph_layout.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <deque>
#include <numeric>
#include <unordered_map>

#include "core/format.h"
#include "gui/view_state/size_text.h"

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

namespace {

constexpr float kBadgeGap = kGraphBadgeGap, kBadgePad = kGraphBadgePad;

bool is_tensor_kind(ObjectKind k) { return k == ObjectKind::Parameter || k == ObjectKind::Buffer || k == ObjectKind::Tensor; }

// The badge text of a storage's place, in the words the memory panes use (short: the column is narrow).
std::string place_badge(Place p) {
  if (p.kind == MemoryKind::Pinned) return "pinned";
  if (p.is_host()) return "cpu";
  return p.str();
}

float arrow_start_y(const GraphBox& f, int row, float line_height) {
  if (row >= 0) return f.y + f.header_h + (float(row) + 0.5f) * line_height;
  return f.y + (f.rows ? f.header_h * 0.5f : f.h * 0.5f);
}

float arrow_end_offset(const GraphBox& t, float line_height) { return std::min(t.header_h * 0.5f, line_height * 0.5f + 5); }

}  // namespace

GraphLayout layout_graph(const ObjectGraph& g, const std::function<float(const std::string&)>& text_width,
                         const GraphLayoutOptions& o, const std::vector<StorageInfo>* storages) {
  GraphLayout out;
  std::unordered_map<uint64_t, size_t> node_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) node_of.emplace(g.nodes[i].id, i);
  std::vector<std::vector<size_t>> children(g.nodes.size());
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto f = node_of.find(g.edges[e].from), t = node_of.find(g.edges[e].to);
    if (f != node_of.end() && t != node_of.end()) children[f->second].push_back(e);
  }

  // Columns by breadth-first distance from the names (in the order the script made them). Objects no
  // name reaches (left over from an earlier step, or only reachable from such) are not drawn.
  std::vector<int> column(g.nodes.size(), -1);
  std::vector<size_t> order;  // discovery order
  std::deque<size_t> queue;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == ObjectKind::Name) {
      column[i] = 0;
      queue.push_back(i);
    }
  while (!queue.empty()) {
    const size_t n = queue.front();
    queue.pop_front();
    order.push_back(n);
    for (size_t e : children[n]) {
      const size_t c = node_of[g.edges[e].to];
      if (column[c] >= 0) continue;
      column[c] = column[n] + 1;
      queue.push_back(c);
    }
  }
  out.unreachable = g.nodes.size() - order.size();
  // All tensors share the column right of the deepest container or module, so that the storage
  // column beside it orders like a two-layer graph (few crossings), and a tensor looks the same
  // wherever it is held from.
  // (A container that refers to nothing drawn - a folded one - does not push the tensors right.)
  int tensor_column = 1;
  for (size_t n : order)
    if (!is_tensor_kind(g.nodes[n].kind) && g.nodes[n].kind != ObjectKind::Name && !children[n].empty())
      tensor_column = std::max(tensor_column, column[n] + 1);
  for (size_t n : order)
    if (is_tensor_kind(g.nodes[n].kind)) column[n] = tensor_column;

  // Plain values (`lr = 0.1`, `name = "busy"`, an object holding nothing worth an arrow) that only
  // names refer to are written into the name's box, as Python Tutor writes ints into the frame.
  std::vector<int> parents(g.nodes.size(), 0), name_parents(g.nodes.size(), 0);
  for (size_t n : order)
    for (size_t e : children[n]) {
      const size_t c = node_of[g.edges[e].to];
      parents[c]++;
      name_parents[c] += g.nodes[n].kind == ObjectKind::Name;
    }
  auto inlined = [&](size_t n) {
    return g.nodes[n].kind == ObjectKind::Other && children[n].empty() && parents[n] > 0 && parents[n] == name_parents[n];
  };
  std::vector<std::string> name_label(g.nodes.size());
  for (size_t n : order)
    if (g.nodes[n].kind == ObjectKind::Name) {
      name_label[n] = g.nodes[n].label;
      for (size_t e : children[n])
        if (inlined(node_of[g.edges[e].to])) name_label[n] += " = " + g.nodes[node_of[g.edges[e].to]].label;
    }
  order.erase(std::remove_if(order.begin(), order.end(), inlined), order.end());

  // Box sizes: a header (label, and the device badge line) and one row per outgoing reference.
  std::vector<size_t> box_of(g.nodes.size(), kNoNode);
  std::vector<int> row_of_edge(g.edges.size(), -1);
  out.boxes.reserve(order.size());
  for (size_t n : order) {
    const ObjectNode& node = g.nodes[n];
    GraphBox b;
    b.node = n;
    b.storage_id = node.storage_id;
    b.column = column[n];
    const bool is_name = node.kind == ObjectKind::Name;
    b.rows = is_name ? 0 : int(children[n].size());
    if (is_name) b.label = name_label[n];
    // One header line: the label, then the device badge beside it (a second line would double the
    // height of every tensor, and height is what a busy script runs out of). A folded container's label
    // has a second line (what it holds), the badge beside its last line.
    const std::string text = is_name ? b.label : display_label(node);
    float w = 0, last = 0;
    int lines = 0;
    for (size_t from = 0; from <= text.size(); ++lines) {
      size_t nl = text.find('\n', from);
      if (nl == std::string::npos) nl = text.size();
      last = text_width(text.substr(from, nl - from));
      w = std::max(w, last);
      from = nl + 1;
    }
    if (!node.device.empty()) w = std::max(w, last + kBadgeGap + text_width(node.device) + kBadgePad);
    for (size_t k = 0; k < children[n].size(); ++k) {
      row_of_edge[children[n][k]] = is_name ? -1 : int(k);
      if (!is_name) w = std::max(w, text_width(g.edges[children[n][k]].label) + 24);
    }
    b.w = w + 2 * o.pad_x;
    if (o.max_box_w > 0) b.w = std::min(b.w, o.max_box_w);
    b.header_h = float(lines) * o.line_height + 2;  // one line, tight: 30 tensors must fit a pane at a legible zoom
    b.h = b.header_h + float(b.rows) * o.line_height + (b.rows ? 4 : 0);
    box_of[n] = out.boxes.size();
    out.boxes.push_back(b);
    out.changed += node.changed;
    out.columns = std::max(out.columns, b.column + 1);
  }
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto f = node_of.find(g.edges[e].from), t = node_of.find(g.edges[e].to);
    if (f == node_of.end() || t == node_of.end() || box_of[f->second] == kNoNode || box_of[t->second] == kNoNode) continue;
    out.arrows.push_back({box_of[f->second], box_of[t->second], e, row_of_edge[e]});
  }

  // The storage column: one box per storage the drawn tensors look at, so that views, `.data` and
  // `.detach()` of one storage visibly meet (and a moved parameter visibly left its old storage).
  if (o.storage_layer) {
    std::unordered_map<uint64_t, const StorageInfo*> info;
    if (storages)
      for (const StorageInfo& s : *storages) info.emplace(s.id, &s);
    std::unordered_map<uint64_t, size_t> storage_box;
    const int scol = out.columns;
    const size_t object_boxes = out.boxes.size();
    for (size_t bi = 0; bi < object_boxes; ++bi) {
      const ObjectNode& node = g.nodes[out.boxes[bi].node];
      if (!is_tensor_kind(node.kind) || node.storage_id == 0) continue;
      auto [it, added] = storage_box.emplace(node.storage_id, out.boxes.size());
      if (added) {
        GraphBox s;
        s.storage_id = node.storage_id;
        s.column = scol;
        auto known = info.find(node.storage_id);
        if (known != info.end()) {
          // PyTorch's wording ("1024 bytes", "2.00 KiB"), with "B" for bytes: the column is narrow.
          const uint64_t nbytes = known->second->nbytes;
          s.label = nbytes < 1024 ? std::to_string(nbytes) + " B" : size_text(nbytes);  // compact in a graph box
          s.device = place_badge(known->second->place);
        } else {
          s.label = "storage";
          s.device = node.device;
        }
        s.w = text_width(s.label) + (s.device.empty() ? 0.0f : kBadgeGap + text_width(s.device) + kBadgePad) + 2 * o.pad_x;
        if (o.max_box_w > 0) s.w = std::min(s.w, o.max_box_w);
        s.header_h = s.h = o.line_height + 2;
        out.boxes.push_back(s);
      }
      out.boxes[it->second].tensors++;
      out.arrows.push_back({bi, it->second, kNoNode, -1});
    }
    // A shared storage says how many tensors look at it ("96 bytes x3"): the point of lesson 013.
    for (size_t bi = object_boxes; bi < out.boxes.size(); ++bi) {
      GraphBox& s = out.boxes[bi];
      if (s.tensors < 2) continue;
      const std::string times = "  \xc3\x97" + std::to_string(s.tensors);
      s.w += text_width(s.label + times) - text_width(s.label);
      if (o.max_box_w > 0) s.w = std::min(s.w, o.max_box_w);
      s.label += times;
    }
    out.storages = storage_box.size();
    if (out.storages) out.columns = scol + 1;
  }

  const int columns = out.columns;
  std::vector<std::vector<size_t>> cols(size_t(std::max(columns, 0)));
  for (size_t b = 0; b < out.boxes.size(); ++b) cols[size_t(out.boxes[b].column)].push_back(b);
  std::vector<std::vector<size_t>> incoming(out.boxes.size()), outgoing(out.boxes.size());
  for (size_t a = 0; a < out.arrows.size(); ++a) {
    incoming[out.arrows[a].to].push_back(a);
    outgoing[out.arrows[a].from].push_back(a);
  }
  auto gap_after = [&](const GraphBox& b) {
    return !b.is_storage() && g.nodes[b.node].kind == ObjectKind::Name ? o.name_gap : o.row_gap;
  };
  auto stack = [&](int c) {
    float y = 0;
    for (size_t b : cols[size_t(c)]) {
      out.boxes[b].y = y;
      y += out.boxes[b].h + gap_after(out.boxes[b]);
    }
  };
  // Where a box's header would like to be: level with the rows (or names) that point at it from the
  // left (down), or with what its own rows point at on the right (up). NaN when nothing does.
  auto wish_from_left = [&](size_t b) {
    double sum = 0;
    int n = 0;
    for (size_t a : incoming[b]) {
      const GraphArrow& ar = out.arrows[a];
      if (out.boxes[ar.from].column >= out.boxes[b].column) continue;
      sum += arrow_start_y(out.boxes[ar.from], ar.row, o.line_height) - arrow_end_offset(out.boxes[b], o.line_height);
      ++n;
    }
    return n ? float(sum / n) : std::nanf("");
  };
  // A column's boxes in their order, each as close as it can be to where its arrows come from (least
  // squares, boxes never overlapping: pool-adjacent-violators over runs of touching boxes), no box
  // above the top. The names (column 0) just stack.
  auto place = [&](int c) {
    if (c == 0) return stack(c);
    struct Run {
      size_t first;  // index into the column
      double sum;    // of (wish - offset within the run)
      int count;
      float height;  // boxes and gaps
      double y() const { return sum / count; }
    };
    const std::vector<size_t>& col = cols[size_t(c)];
    std::vector<Run> runs;
    float fallback = 0;  // a box nothing points at from the left stays below the one above it
    for (size_t k = 0; k < col.size(); ++k) {
      const GraphBox& box = out.boxes[col[k]];
      const float wish = wish_from_left(col[k]);
      Run r{k, std::isnan(wish) ? fallback : wish, 1, box.h + gap_after(box)};
      while (!runs.empty() && runs.back().y() + runs.back().height > r.y()) {
        Run& p = runs.back();
        r = Run{p.first, p.sum + r.sum - double(r.count) * p.height, p.count + r.count, p.height + r.height};
        runs.pop_back();
      }
      runs.push_back(r);
      fallback = float(runs.back().y() + runs.back().height);
    }
    float next_y = 0;
    for (size_t ri = 0; ri < runs.size(); ++ri) {
      const size_t end = ri + 1 < runs.size() ? runs[ri + 1].first : col.size();
      float y = std::max(next_y, float(runs[ri].y()));
      for (size_t k = runs[ri].first; k < end; ++k) {
        out.boxes[col[k]].y = y;
        y += out.boxes[col[k]].h + gap_after(out.boxes[col[k]]);
      }
      next_y = y;
    }
  };
  auto wish_from_right = [&](size_t b) {
    double sum = 0;
    int n = 0;
    for (size_t a : outgoing[b]) {
      const GraphArrow& ar = out.arrows[a];
      const GraphBox& t = out.boxes[ar.to];
      if (t.column <= out.boxes[b].column) continue;
      sum += t.y + arrow_end_offset(t, o.line_height) - (arrow_start_y(out.boxes[b], ar.row, o.line_height) - out.boxes[b].y);
      ++n;
    }
    return n ? float(sum / n) : std::nanf("");
  };
  // The median of where a box's left neighbours' arrows start: with arrows from far apart (a storage
  // shared by tensors all over the column) the median crosses fewer arrows than the mean.
  auto median_from_left = [&](size_t b) {
    std::vector<float> ys;
    for (size_t a : incoming[b]) {
      const GraphArrow& ar = out.arrows[a];
      if (out.boxes[ar.from].column < out.boxes[b].column) ys.push_back(arrow_start_y(out.boxes[ar.from], ar.row, o.line_height));
    }
    if (ys.empty()) return std::nanf("");
    std::sort(ys.begin(), ys.end());
    const size_t m = ys.size() / 2;
    return (ys.size() % 2 ? ys[m] : 0.5f * (ys[m - 1] + ys[m])) - arrow_end_offset(out.boxes[b], o.line_height);
  };
  auto sort_column = [&](int c, bool from_left) {
    std::vector<std::pair<float, size_t>> keyed;
    for (size_t b : cols[size_t(c)]) {
      // Down: the left neighbours decide. Up: both sides, so that going up never undoes what the
      // names (which never move) asked of the first columns.
      const float left = median_from_left(b), right = from_left ? std::nanf("") : wish_from_right(b);
      float key = out.boxes[b].y;
      if (!std::isnan(left) && !std::isnan(right)) key = 0.5f * (left + right);
      else if (!std::isnan(left)) key = left;
      else if (!std::isnan(right)) key = right;
      keyed.emplace_back(key, b);
    }
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (size_t i = 0; i < keyed.size(); ++i) cols[size_t(c)][i] = keyed[i].second;
    place(c);
  };
  for (int c = 0; c < columns; ++c) place(c);

  // Barycentre sweeps; the names (column 0) keep the script's order. Keep the best order seen.
  const bool count = out.arrows.size() <= 4000;  // counting is quadratic per column pair
  size_t best = count ? count_crossings(out, o) : 0;
  std::vector<std::vector<size_t>> best_cols = cols;
  auto keep_if_better = [&] {
    const size_t now = count_crossings(out, o);
    if (now < best) best = now, best_cols = cols;
  };
  for (int sweep = 0; sweep < o.order_sweeps && (best > 0 || !count); ++sweep) {
    for (int c = 1; c < columns; ++c) sort_column(c, true);
    if (count) keep_if_better();
    for (int c = columns - 2; c >= 1; --c) sort_column(c, false);
    if (count) keep_if_better();
    else best_cols = cols;
  }
  cols = best_cols;

  // Final rows: each box level with what points at it from the left as far as the boxes around it
  // allow (place), then no column taller than the tallest column stacked tight, so that aligning
  // never makes the graph taller; names stack tightly, like the variables of a frame.
  float tallest = 0;
  for (int c = 0; c < columns; ++c) {
    stack(c);
    if (!cols[size_t(c)].empty()) {
      const GraphBox& last = out.boxes[cols[size_t(c)].back()];
      tallest = std::max(tallest, last.y + last.h);
    }
  }
  for (int c = 1; c < columns; ++c) {
    place(c);
    float limit = tallest;
    for (size_t k = cols[size_t(c)].size(); k-- > 0;) {
      GraphBox& box = out.boxes[cols[size_t(c)][k]];
      box.y = std::max(0.0f, std::min(box.y, limit - box.h));
      limit = box.y - gap_after(box);
    }
  }
  std::vector<float> col_width(size_t(std::max(columns, 0)), 0);
  for (const GraphBox& b : out.boxes) col_width[size_t(b.column)] = std::max(col_width[size_t(b.column)], b.w);
  std::vector<float> col_x(size_t(std::max(columns, 0)), 0);
  for (int c = 1; c < columns; ++c) col_x[size_t(c)] = col_x[size_t(c - 1)] + col_width[size_t(c - 1)] + o.column_gap;
  for (GraphBox& b : out.boxes) {
    b.x = col_x[size_t(b.column)];
    out.width = std::max(out.width, b.x + b.w);
    out.height = std::max(out.height, b.y + b.h);
  }
  return out;
}

float label_room(const GraphLayoutOptions& o, float box_w, float badge_w) {
  return box_w - 2 * o.pad_x - (badge_w > 0 ? kBadgeGap + badge_w + kBadgePad : 0.0f);
}

void arrow_points(const GraphLayout& l, const GraphArrow& a, const GraphLayoutOptions& o, float* x0, float* y0, float* x1, float* y1) {
  const GraphBox& f = l.boxes[a.from];
  const GraphBox& t = l.boxes[a.to];
  *x0 = f.x + f.w;
  *y0 = arrow_start_y(f, a.row, o.line_height);
  *x1 = t.x;
  *y1 = t.y + arrow_end_offset(t, o.line_height);
}

size_t count_crossings(const GraphLayout& l, const GraphLayoutOptions& o) {
  // Arrows grouped by (from column, to column); two in one group cross when their ends swap order.
  std::unordered_map<uint64_t, std::vector<std::pair<float, float>>> groups;
  for (const GraphArrow& a : l.arrows) {
    const GraphBox& f = l.boxes[a.from];
    const GraphBox& t = l.boxes[a.to];
    groups[uint64_t(uint32_t(f.column)) << 32 | uint32_t(t.column)].emplace_back(
        arrow_start_y(f, a.row, o.line_height), t.y + arrow_end_offset(t, o.line_height));
  }
  size_t n = 0;
  for (auto& [key, ends] : groups) {
    if (int(key & 0xffffffffu) <= int(key >> 32)) continue;  // within a column, or backwards: no order to swap
    for (size_t i = 0; i < ends.size(); ++i)
      for (size_t j = i + 1; j < ends.size(); ++j)
        n += (ends[i].first - ends[j].first) * (ends[i].second - ends[j].second) < 0;
  }
  return n;
}

float fit_zoom(float width, float height, float view_w, float view_h, float min_zoom) {
  if (width <= 0 || height <= 0 || view_w <= 0 || view_h <= 0) return 1;
  return std::clamp(std::min(view_w / width, view_h / height), min_zoom, 1.0f);
}

}  // namespace ds::gui
