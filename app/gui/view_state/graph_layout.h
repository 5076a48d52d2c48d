// Layered layout of the names graph, readable at workshop scale (30+ names): names in the first
// column, objects in columns by their distance from a name, and a storage column on the right where
// tensors that share a storage (views, `.data`, `.detach()`) meet in one box. Objects no name reaches
// are dropped. Within a column boxes are ordered by the barycentre of their neighbours (sweeps down and
// up, Sugiyama style), which keeps arrows from crossing; the names keep the script's order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "trace/snapshot.h"

namespace ds::gui {

inline constexpr size_t kNoNode = SIZE_MAX;

// Objects that hold references (modules, lists) list them as rows, Python Tutor style; each row's
// arrow starts at that row. A storage box has no node: it stands for the bytes tensors look at.
struct GraphBox {
  size_t node = kNoNode;  // index into ObjectGraph::nodes; kNoNode for a storage box
  uint64_t storage_id = 0;
  int column = 0;
  float x = 0, y = 0, w = 0, h = 0;
  float header_h = 0;  // label (and device) lines; rows follow
  int rows = 0;        // outgoing references
  // Names: "lr = 0.1" when the value is written in the box. Storage boxes: "4.00 KiB", its place
  // ("cuda:0", "cpu (pinned)"), and how many tensors point at it.
  std::string label, device;
  int tensors = 0;
  bool is_storage() const { return node == kNoNode; }
};

struct GraphArrow {
  size_t from = 0, to = 0;  // box indices
  size_t edge = kNoNode;    // index into ObjectGraph::edges; kNoNode for tensor -> storage
  int row = -1;             // row of `from` the arrow leaves from; -1: from the box itself
};

struct GraphLayout {
  std::vector<GraphBox> boxes;
  std::vector<GraphArrow> arrows;
  float width = 0, height = 0;
  int columns = 0;
  size_t changed = 0;      // boxes whose node changed in the last step
  size_t storages = 0;     // storage boxes
  size_t unreachable = 0;  // nodes no name reaches (not drawn)
};

struct GraphLayoutOptions {
  float column_gap = 70;
  float row_gap = 6;
  float pad_x = 10;
  float line_height = 17;
  float name_gap = 3;  // between the names of the frame
  bool storage_layer = true;
  // Widest a box may be (0: no limit); a longer label is cut where it is drawn (label_room) and shown whole
  // on hover. The names view sets it from its width so that the columns fit at a readable zoom.
  float max_box_w = 0;
  int order_sweeps = 4;  // barycentre sweeps (down and up); 0 keeps the order objects were found in
};

// Where the arrow of `a` starts (right edge of its row) and ends (left edge of the target's header).
void arrow_points(const GraphLayout& l, const GraphArrow& a, const GraphLayoutOptions& o, float* x0, float* y0, float* x1, float* y1);

// Pairs of arrows between the same two columns whose ends are in opposite orders (they cross).
size_t count_crossings(const GraphLayout& l, const GraphLayoutOptions& o);

// A node's label as the graph shows it: dtypes shortened (float32 -> f32), and the kind word dropped
// for tensors, whose box colour already says parameter / buffer / tensor.
std::string display_label(const ObjectNode& node);

// A label may hold lines ("\n"): a folded container says what it holds on a second line. The width the
// label's widest line has in a box of width `box_w`, beside a device badge `badge_w` wide (0: none).
float label_room(const GraphLayoutOptions& o, float box_w, float badge_w);
inline constexpr float kGraphBadgeGap = 8, kGraphBadgePad = 10;  // between a label and its badge; the badge's padding

// `text_width` measures a label in pixels (the view passes the font's; tests pass a fixed width).
// `storages` (the snapshot's live storages) give the storage boxes their size and place.
GraphLayout layout_graph(const ObjectGraph& graph, const std::function<float(const std::string&)>& text_width,
                         const GraphLayoutOptions& options = {}, const std::vector<StorageInfo>* storages = nullptr);

// The zoom that fits a `width` x `height` layout into a view: never magnified past 1, never below
// `min_zoom` (below that text is unreadable; the user pans instead).
float fit_zoom(float width, float height, float view_w, float view_h, float min_zoom = 0.5f);

}  // namespace ds::gui
