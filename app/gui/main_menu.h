// Menu bar (File / Run / View / Help) with keyboard shortcuts, the path prompt used by the File
// actions (ImGui 1.86 has no native file dialog), and the About / Shortcuts windows.
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

class MainMenu {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);  // the menu bar and its shortcuts
  // The path prompt and the About / Shortcuts windows: drawn after the tiled views, so they float in front
  // of them even when opened before any click (--show shortcuts).
  void draw_floating(UiState& ui, Commands& cmds);

 private:
  void dialog(UiState& ui, Commands& cmds);
  void open_dialog(UiState& ui, FileDialog kind, const std::string& default_name);
};

}  // namespace ds::gui
