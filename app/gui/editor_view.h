// Script editor: Run / Step / Step back / Reset / Stop, line numbers, the next statement marked, and the
// failing line highlighted with the error beneath.
#pragma once

#include <imgui.h>

#include <string>

#include "gui/ui_state.h"

namespace ds::gui {

class EditorView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);

 private:
  void toolbar(UiState& ui, Commands& cmds);
  void draw_editable(UiState& ui, ImVec2 avail, float banner_h);  // gutter and ImGui's multi-line input
  void draw_error_banner(const UiState& ui, const std::string& last, float wrap, float banner_h);
  int edit_count_ = 0;
  bool editing_ = false;  // presenter mode: the editable text is shown (after a click), not the wrapped view
};

}  // namespace ds::gui
