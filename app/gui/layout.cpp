// Proportions of the default layout; columns keep sensible minimum widths on small windows.
#include "gui/layout.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

namespace ds::gui {

DefaultLayout default_layout(ImVec2 pos, ImVec2 size) {
  const float gap = 4;
  const float w = size.x - 2 * gap, h = size.y - gap;
  float left = std::max(300.0f, std::floor(w * 0.265f));
  float right = std::max(280.0f, std::floor(w * 0.295f));
  float middle = w - left - right - 2 * gap;
  if (middle < 360) {  // narrow window: give the middle (memory) what the sides can spare
    const float need = 360 - middle;
    left -= need * 0.5f;
    right -= need * 0.5f;
    middle = 360;
  }
  const float x0 = pos.x + gap, x1 = x0 + left + gap, x2 = x1 + middle + gap;
  const float y0 = pos.y + gap;
  auto split = [&](float x, float width, float frac, WindowRect& top, WindowRect& bottom) {
    const float th = std::floor((h - gap) * frac);
    top = {ImVec2(x, y0), ImVec2(width, th)};
    bottom = {ImVec2(x, y0 + th + gap), ImVec2(width, h - gap - th)};
  };
  DefaultLayout l;
  split(x0, left, 0.56f, l.editor, l.console);
  split(x1, middle, 0.60f, l.memory, l.transfers);
  split(x2, right, 0.55f, l.names, l.modules);
  return l;
}

DefaultLayout file_layout(ImVec2 pos, ImVec2 size) {
  const float gap = 4;
  const float w = size.x - 2 * gap, h = size.y - gap;
  const float left = std::max(360.0f, std::floor(w * 0.38f));
  const float right = std::max(300.0f, std::floor(w * 0.28f));
  const float middle = std::max(320.0f, w - left - right - 2 * gap);
  const float x0 = pos.x + gap, x1 = x0 + left + gap, x2 = x1 + middle + gap;
  const float y0 = pos.y + gap;
  DefaultLayout l;
  l.transfers = {ImVec2(x0, y0), ImVec2(left, h - gap)};
  l.memory = {ImVec2(x1, y0), ImVec2(middle, h - gap)};
  const float names_h = std::floor((h - 2 * gap) * 0.42f);
  l.names = {ImVec2(x2, y0), ImVec2(right, names_h)};
  l.modules = {ImVec2(x2, y0 + names_h + gap), ImVec2(right, h - 2 * gap - names_h)};
  l.editor = l.console = {ImVec2(x0, y0), ImVec2(0, 0)};  // not shown
  return l;
}

void opaque_if_overlapping(const char* name, const char* const* windows, int count) {
  const ImGuiWindow* me = ImGui::FindWindowByName(name);
  if (!me || !me->WasActive) return;
  const ImRect mine(ImVec2(me->Pos.x + 1, me->Pos.y + 1), ImVec2(me->Pos.x + me->Size.x - 1, me->Pos.y + me->Size.y - 1));
  for (int i = 0; i < count; ++i) {
    const ImGuiWindow* other = ImGui::FindWindowByName(windows[i]);
    if (!other || other == me || !other->WasActive) continue;
    if (mine.Overlaps(ImRect(other->Pos, ImVec2(other->Pos.x + other->Size.x, other->Pos.y + other->Size.y)))) {
      ImGui::SetNextWindowBgAlpha(1.0f);
      return;
    }
  }
}

}  // namespace ds::gui
