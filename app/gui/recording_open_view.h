// What the window shows while a recording opens on the loader's thread (App::poll_loader fills
// UiState::loading_*): a strip with a progress bar and a Cancel button at the top of the Transfers
// window, and a modal with the loader's message when the file cannot be opened (the view keeps what
// it showed before).
#pragma once

#include "gui/ui_state.h"

namespace ds::gui {

// In the Transfers window, above its header; nothing when no recording is loading.
void draw_loading_strip(const UiState& ui, Commands& cmds);
// "Cannot open the recording" with ui.open_error, until OK (Enter, Esc) closes it.
void draw_open_error(UiState& ui);

}  // namespace ds::gui
