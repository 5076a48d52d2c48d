// Frame, grid and labels of the log-log bandwidth plots (Transfers > Bandwidth, Bench).
#include "gui/loglog_plot.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "gui/view_state/plot_axes.h"
#include "gui/theme.h"

namespace ds::gui {
bool begin_loglog_plot(const char* id, ImVec2 size, LogLogPlot* plot) {
  LogLogPlot& P = *plot;
  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  P.hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = 64, bottom = 22, top = 6, right = 10;
  P.p0 = ImVec2(c0.x + left, c0.y + top);
  P.p1 = ImVec2(c0.x + size.x - right, c0.y + size.y - bottom);
  if (P.p1.x - P.p0.x < 40 || P.p1.y - P.p0.y < 40) return false;
  dl->AddRectFilled(P.p0, P.p1, IM_COL32(0x14, 0x17, 0x1d, 0xff), 3);
  ImFont* fs = fonts().small;
  // Sizes at powers of two in the app's binary units (KiB, MiB), as far apart as their labels need.
  const float label_w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, "512 KiB").x + 14;
  for (const AxisTick& t : binary_size_ticks(P.x_min, P.x_max, P.p1.x - P.p0.x, label_w)) {
    const float x = P.X(t.value);
    dl->AddLine(ImVec2(x, P.p0.y), ImVec2(x, P.p1.y), IM_COL32(0xff, 0xff, 0xff, 0x12));
    const float w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, t.label.c_str()).x;
    dl->AddText(fs, fs->FontSize, ImVec2(std::clamp(x - w * 0.5f, P.p0.x - 20, P.p1.x - w + 8), P.p1.y + 4), theme::kTextDim,
                t.label.c_str());
  }
  for (int d = int(std::ceil(P.y_min)); d <= int(P.y_max); ++d) {
    const float y = P.Y(d);
    dl->AddLine(ImVec2(P.p0.x, y), ImVec2(P.p1.x, y), IM_COL32(0xff, 0xff, 0xff, 0x12));
    char buf[32];
    if (d >= 3) std::snprintf(buf, sizeof buf, "%.0f TB/s", std::pow(10.0, d - 3));
    else if (d >= 0) std::snprintf(buf, sizeof buf, "%.0f GB/s", std::pow(10.0, d));
    else std::snprintf(buf, sizeof buf, "%.0f MB/s", std::pow(10.0, d + 3));
    const float w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, buf).x;
    dl->AddText(fs, fs->FontSize, ImVec2(P.p0.x - w - 6, y - fs->FontSize * 0.5f), theme::kTextDim, buf);
  }
  dl->PushClipRect(P.p0, P.p1, true);
  return true;
}

void end_loglog_plot(const LogLogPlot& P, const char* empty_message, bool tooltip_taken) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PopClipRect();
  dl->AddRect(P.p0, P.p1, theme::kPaneBorder, 3);
  if (empty_message) {
    const ImVec2 ts = ImGui::CalcTextSize(empty_message);
    dl->AddText(ImVec2((P.p0.x + P.p1.x - ts.x) * 0.5f, (P.p0.y + P.p1.y - ts.y) * 0.5f), theme::kTextDim, empty_message);
  }
  if (P.hovered && !tooltip_taken) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (P.inside(m))
      ImGui::SetTooltip("%s at %s", fmt_bytes(uint64_t(std::pow(10.0, P.lx_at(m.x)))).c_str(),
                        fmt_rate(std::pow(10.0, P.ly_at(m.y))).c_str());
  }
}

void draw_plot_marker(ImDrawList* dl, ImVec2 c, int marker, ImU32 col, float r) {
  const ImU32 outline = IM_COL32(0x10, 0x12, 0x16, 0xff);
  switch (marker) {
    case 0:
      dl->AddCircleFilled(c, r + 1, outline, 12);
      dl->AddCircleFilled(c, r, col, 12);
      break;
    case 1:
      dl->AddRectFilled(ImVec2(c.x - r - 1, c.y - r - 1), ImVec2(c.x + r + 1, c.y + r + 1), outline);
      dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), col);
      break;
    case 2:
      dl->AddTriangleFilled(ImVec2(c.x, c.y - r - 2), ImVec2(c.x + r + 2, c.y + r + 1), ImVec2(c.x - r - 2, c.y + r + 1), outline);
      dl->AddTriangleFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y + r), ImVec2(c.x - r, c.y + r), col);
      break;
    case 3:
      dl->AddQuadFilled(ImVec2(c.x, c.y - r - 2), ImVec2(c.x + r + 2, c.y), ImVec2(c.x, c.y + r + 2), ImVec2(c.x - r - 2, c.y), outline);
      dl->AddQuadFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), col);
      break;
    case 4:
      dl->AddTriangleFilled(ImVec2(c.x - r - 2, c.y - r - 1), ImVec2(c.x + r + 2, c.y - r - 1), ImVec2(c.x, c.y + r + 2), outline);
      dl->AddTriangleFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y - r), ImVec2(c.x, c.y + r), col);
      break;
    default:
      dl->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), col, 2.5f);
      dl->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), col, 2.5f);
      break;
  }
}


}  // namespace ds::gui
