// The default window layout (ImGui 1.86 has no docking): three columns tiled over the work area -
// editor over console | memory over transfers | names over modules.
#pragma once

#include <imgui.h>

namespace ds::gui {

struct WindowRect {
  ImVec2 pos, size;
};

struct DefaultLayout {
  WindowRect editor, console, memory, transfers, names, modules;
};

DefaultLayout default_layout(ImVec2 pos, ImVec2 size);

// An opened snapshot or recording (issue 24 item 7): no editor or console. Memory over time (or the
// transfers) takes the left column's whole height, the memory panes the middle, names over the owners
// table the right. `modules` is the owners table's place.
DefaultLayout file_layout(ImVec2 pos, ImVec2 size);

// Window backgrounds are transparent over a clear colour of the same shade (with a software renderer
// every full-screen layer costs milliseconds). A window that overlaps another one - because the user
// moved it - gets its opaque background back. Call right before the window's Begin().
void opaque_if_overlapping(const char* name, const char* const* windows, int count);

// SetNextWindowPos/Size with `cond` (ImGuiCond_FirstUseEver normally, Always after "Reset layout").
inline void place_next_window(const WindowRect& r, ImGuiCond cond) {
  ImGui::SetNextWindowPos(r.pos, cond);
  ImGui::SetNextWindowSize(r.size, cond);
}

}  // namespace ds::gui
