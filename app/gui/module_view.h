// Module tree: every module with its parameters, buffers and plain tensor attributes, device badges,
// and stragglers (tensors not on their module's device) flagged.
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

class ModuleView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
};

}  // namespace ds::gui
