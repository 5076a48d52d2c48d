// Key codes for shortcuts. ImGui 1.86 indexes io.KeysDown by the platform backend's codes, which for
// the GLFW backend are GLFW_KEY_* values.
#pragma once

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <imgui.h>

namespace ds::gui::keys {

inline bool pressed(int glfw_key, bool repeat = false) { return ImGui::IsKeyPressed(glfw_key, repeat); }
inline bool ctrl() { return ImGui::GetIO().KeyCtrl; }
inline bool shift() { return ImGui::GetIO().KeyShift; }

}  // namespace ds::gui::keys
