// One frame of the app (new ImGui frame, all views, render), shared by the interactive loop, headless
// screenshots and the frame benchmark; plus the display check and the initial script.
#pragma once

#include <string>

struct GLFWwindow;

namespace ds::gui {

class App;
struct GuiOptions;

// `fixed_w/h` > 0: render at exactly that size (offscreen target), with no mouse.
void draw_frame(GLFWwindow* window, App& app, int fixed_w = 0, int fixed_h = 0, float mouse_x = -1, float mouse_y = -1);

// -1 when a display is there; else re-runs the command under xvfb-run (headless modes) or prints
// one line saying how to get a display, and returns the exit code.
int ensure_display(const GuiOptions& options, bool headless, const std::string& glfw_error);

// Loads --script (or the starter, stepped to its "Step from here" line) and runs what was asked.
// Returns false (after printing why) when the script cannot be read. For --steps N screenshots the
// last step is left to render_screenshot(), so that it is drawn moving from the picture before it.
bool load_initial_script(App& app, const GuiOptions& options);

int render_screenshot(GLFWwindow* window, App& app, const GuiOptions& options);

}  // namespace ds::gui
