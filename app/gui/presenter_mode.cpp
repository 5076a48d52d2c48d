// Rebuilds the font atlas at presenter size and back; the style is reset first so sizes do not compound.
#include "gui/presenter_mode.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gui/theme.h"

namespace ds::gui {
namespace {

bool g_applied = false;    // presenter fonts are in the atlas
float g_base_scale = 0;    // the scale apply_theme() had at startup (HiDPI)

void rebuild_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImGui::GetStyle() = ImGuiStyle();
  apply_theme(scale);
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

}  // namespace

void sync_presenter_mode(GLFWwindow* window, bool presenter, bool headless) {
  if (presenter == g_applied) return;
  if (g_base_scale <= 0) {
    // The size apply_theme() asked for (FontSize itself is only set once the atlas is built).
    const ImFont* f = fonts().ui;
    const float size = f && f->ConfigData ? f->ConfigData->SizePixels : 0.0f;
    g_base_scale = size > 0 ? size / (fonts().dejavu ? 15.0f : 13.0f) : 1.0f;
  }
  rebuild_fonts(presenter ? g_base_scale * kPresenterFontScale : g_base_scale);
  g_applied = presenter;
  if (!headless && window) {
    if (presenter) glfwMaximizeWindow(window);
    else glfwRestoreWindow(window);
  }
}

}  // namespace ds::gui
