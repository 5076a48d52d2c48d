// Status bar along the bottom: backend (and SIMULATED), link, per device allocated / reserved /
// capacity, pinned memory, what is running, and the last notice.
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

class StatusBar {
 public:
  static constexpr float kHeight = 28;
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
};

}  // namespace ds::gui
