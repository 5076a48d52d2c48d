// Console: the output and tracebacks of runs, and a Python prompt that runs lines in the script's
// namespace (with history on Up/Down). Data methods (console_add) are apart from drawing.
#pragma once

#include <string>

#include "gui/ui_state.h"

namespace ds::gui {

void console_add(UiState& ui, ConsoleLine::Kind kind, const std::string& text);
void console_clear(UiState& ui);

class ConsoleView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  void draw_contents(UiState& ui, Commands& cmds);  // inside another window (tabs)
};

}  // namespace ds::gui
