// Script editor: Run / Step / Step back / Reset / Stop, line numbers, the next statement marked, and the
// failing line highlighted with the error beneath.
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

class EditorView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);

 private:
  void toolbar(UiState& ui, Commands& cmds);
  int edit_count_ = 0;
};

}  // namespace ds::gui
