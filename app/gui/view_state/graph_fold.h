// Folding the names graph so that real programs stay readable (issue 24 item 2): a module, optimizer or
// container can stand folded as one box that sums up what it holds - `model` -> "Sequential · 10 tensors ·
// 3.2 MiB" on cuda:0 - instead of shrinking the text. The view folds the largest containers first until
// the graph fits its pane at a readable zoom; a click unfolds or folds one; a search unfolds the way to
// what it finds. Folding is a transform of the ObjectGraph, so the layout (graph_layout.h) is unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "gui/view_state/graph_layout.h"
#include "trace/snapshot.h"

namespace ds::gui {

// What a folded box says about the objects under it (reached through it, not through a name).
struct FoldSummary {
  size_t tensors = 0;                 // distinct tensor objects
  uint64_t bytes = 0;                 // distinct storages' bytes (when the storages are known)
  std::vector<std::string> devices;   // distinct, in the order met
};

// Whether a node can fold: something that holds references (a module, an optimizer, a list, dict or
// tuple, a plain object with attributes worth an arrow).
bool foldable(const ObjectGraph& g, size_t node, const std::vector<std::vector<size_t>>& children);

// Edges out of each node (indices into g.edges), for the functions below.
std::vector<std::vector<size_t>> out_edges(const ObjectGraph& g);

FoldSummary summarize(const ObjectGraph& g, size_t node, const std::vector<std::vector<size_t>>& children,
                      const std::vector<StorageInfo>* storages);

// "▸ Sequential\n10 tensors, 3.2 MiB" (the devices go in the box's badge: one device, or "2 devices").
std::string folded_label(const ObjectNode& node, const FoldSummary& s);

// The graph with the nodes whose ids are in `folded` drawn as one box each: their label says what they
// hold and their references are left out (what only they reached is not drawn).
ObjectGraph fold_graph(const ObjectGraph& g, const std::unordered_set<uint64_t>& folded, const std::vector<StorageInfo>* storages);

// Keeps the first `keep` names of the frame and folds the rest into one name box "+N more names".
ObjectGraph limit_names(const ObjectGraph& g, size_t keep);

struct FoldPlan {
  std::unordered_set<uint64_t> folded;  // node ids
  size_t names_kept = SIZE_MAX;         // < the names' count: the rest folded into "+N more names"
  GraphLayout layout;
  ObjectGraph graph;                    // what `layout` lays out
  bool fits = false;                    // `layout` fits the view at the readable zoom
};

// Folds until `fits(layout)`: first the containers the user folded, never those the user (or a search,
// through `keep_open`) unfolded; then the foldable node that hides the most boxes, one at a time; then
// fewer names. `layout_of` lays a graph out (the view's fonts and options).
FoldPlan plan_folds(const ObjectGraph& g, const std::vector<StorageInfo>* storages, const std::unordered_set<uint64_t>& user_folded,
                    const std::unordered_set<uint64_t>& keep_open, const std::function<GraphLayout(const ObjectGraph&)>& layout_of,
                    const std::function<bool(const GraphLayout&)>& fits);

// The ids of the nodes on every path from a name to the nodes for which `match` is true (the nodes
// themselves included): what a search must keep open to show them.
std::unordered_set<uint64_t> paths_to(const ObjectGraph& g, const std::function<bool(size_t node)>& match);

}  // namespace ds::gui
