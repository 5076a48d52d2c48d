// Presenter mode's window side: fonts rebuilt larger (crisp, not stretched) and the window maximised while
// it is on; back to normal when it is off. Called before each ImGui frame starts.
#pragma once

struct GLFWwindow;

namespace ds::gui {

inline constexpr float kPresenterFontScale = 1.75f;

// `headless`: a fixed-size offscreen render (no window to maximise).
void sync_presenter_mode(GLFWwindow* window, bool presenter, bool headless);

}  // namespace ds::gui
