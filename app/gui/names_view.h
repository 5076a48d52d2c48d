// Names graph, Python Tutor style: names on the left with arrows to the objects they refer to, objects
// to the tensors and modules they hold. What changed in the last step is outlined. Pan by dragging,
// zoom with the wheel; hovering a tensor points at its block in the memory panes. Real programs fold
// (graph_fold.h): text never goes below 12 px (14 px presenting); containers fold instead, a click
// unfolds one, a search opens the way to what it finds, a click on a storage shows who refers to it.
#pragma once

#include <unordered_set>

#include "gui/view_state/graph_fold.h"
#include "gui/view_state/graph_layout.h"
#include "gui/ui_state.h"

namespace ds::gui {

class NamesView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  const GraphLayout& layout() const { return plan_.layout; }
  const GraphLayoutOptions& options() const { return options_; }
  float last_zoom() const { return last_zoom_; }
  float last_view_w() const { return last_view_w_; }
  float last_view_h() const { return last_view_h_; }
  // Whether the whole graph was inside the view at the last frame's zoom and pan (the view-model JSON).
  bool last_fits() const {
    return layout().width * last_zoom_ <= last_view_w_ + 0.5f && layout().height * last_zoom_ <= last_view_h_ + 0.5f;
  }
  // For the view-model JSON: the smallest text drawn in the graph (px), boxes drawn partly or wholly
  // outside the view, containers drawn folded, names folded into "+N more names".
  float min_text_px() const { return min_text_px_; }
  size_t cut_off() const { return cut_off_; }
  size_t folded() const { return plan_.folded.size(); }
  size_t names_hidden() const { return names_hidden_; }

 private:
  void replan(const Snapshot& snap, float view_w, float view_h, float min_zoom);
  void handle_click(const Snapshot& snap, int box);

  float last_zoom_ = 1;
  float last_view_w_ = 0, last_view_h_ = 0;
  float planned_w_ = -1, planned_h_ = -1, planned_zoom_ = 0;
  float min_text_px_ = 0;
  size_t cut_off_ = 0, names_hidden_ = 0;
  FoldPlan plan_;
  GraphLayoutOptions options_;
  uint64_t version_ = ~0ull;
  bool dirty_ = true;                              // folds or search changed: plan again
  std::unordered_set<uint64_t> user_folded_, user_open_;  // node ids the user folded / unfolded by a click
  std::unordered_set<uint64_t> found_;             // nodes the search matched, and the paths to them
  uint64_t focus_storage_ = 0;                     // a storage box clicked: who refers to it
  char search_[96] = "";
};

}  // namespace ds::gui
