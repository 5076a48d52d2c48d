// Names graph, Python Tutor style: names on the left with arrows to the objects they refer to, objects
// to the tensors and modules they hold. What changed in the last step is outlined. Pan by dragging,
// zoom with the wheel; hovering a tensor points at its block in the memory panes.
#pragma once

#include "gui/model/graph_layout.h"
#include "gui/ui_state.h"

namespace ds::gui {

class NamesView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  const GraphLayout& layout() const { return layout_; }

 private:
  GraphLayout layout_;
  GraphLayoutOptions options_;
  uint64_t version_ = ~0ull;
};

}  // namespace ds::gui
