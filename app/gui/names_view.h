// Names graph, Python Tutor style: names on the left with arrows to the objects they refer to, objects
// to the tensors and modules they hold. What changed in the last step is outlined. Pan by dragging,
// zoom with the wheel; hovering a tensor points at its block in the memory panes.
#pragma once

#include "gui/view_state/graph_layout.h"
#include "gui/ui_state.h"

namespace ds::gui {

class NamesView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  const GraphLayout& layout() const { return layout_; }
  const GraphLayoutOptions& options() const { return options_; }
  float last_zoom() const { return last_zoom_; }
  float last_view_w() const { return last_view_w_; }
  float last_view_h() const { return last_view_h_; }
  // Whether the whole graph was inside the view at the last frame's zoom and pan (the view-model JSON).
  bool last_fits() const {
    return layout_.width * last_zoom_ <= last_view_w_ + 0.5f && layout_.height * last_zoom_ <= last_view_h_ + 0.5f;
  }

 private:
  float last_zoom_ = 1;
  float last_view_w_ = 0, last_view_h_ = 0;
  GraphLayout layout_;
  GraphLayoutOptions options_;
  uint64_t version_ = ~0ull;
};

}  // namespace ds::gui
