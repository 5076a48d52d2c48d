// Builder: buttons that write Python. Each action produces the equivalent line (layers, parameters,
// buffers, plain attributes, aliases, .to / .cuda / .cpu / .half / .pin_memory with non_blocking),
// which the app appends to the editor script and runs through the interpreter.
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

class BuilderView {
 public:
  void draw_contents(const Snapshot& snap, UiState& ui, Commands& cmds);

 private:
  void emit(UiState& ui, Commands& cmds, BuildKind kind, BuildArgs args);
  int layer_ = 0;
  std::string last_line_;
};

}  // namespace ds::gui
