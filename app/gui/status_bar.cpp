// The status bar window (no decoration, pinned to the bottom of the display).
#include "gui/status_bar.h"

#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {

void StatusBar::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - kHeight));
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x, kHeight));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(10, 5));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("##status", nullptr, flags);
  ImGui::PopStyleVar(3);
  // No fill (the clear colour is the background): a line separates it from the windows above.
  ImGui::GetWindowDrawList()->AddLine(ImGui::GetWindowPos(), ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y),
                                      theme::kPaneBorder);

  // Backend.
  const ImU32 dot = ui.running ? theme::kWarning : theme::kOk;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  dl->AddCircleFilled(ImVec2(p.x + 5, p.y + ImGui::GetTextLineHeight() * 0.5f), 4.5f, dot);
  ImGui::Dummy(ImVec2(12, 1));
  ImGui::SameLine();
  ImGui::Text("%s", snap.backend == "cuda" ? "CUDA" : snap.backend.empty() ? "no backend" : "simulated CUDA");
  if (snap.simulated) {
    ImGui::SameLine(0, 6);
    simulated_badge();
  }
  if (!snap.link.empty()) {
    ImGui::SameLine(0, 10);
    ImGui::TextDisabled("link %s", snap.link.c_str());
  }
  // Places.
  for (const PlaceInfo& pl : snap.places) {
    if (pl.place.kind == MemoryKind::Pageable) continue;
    ImGui::SameLine(0, 10);
    ImGui::TextDisabled("|");
    ImGui::SameLine(0, 10);
    const std::string name = pl.place.kind == MemoryKind::Pinned ? "pinned" : pl.label;
    badge(name.c_str(), place_color(pl.place));
    ImGui::SameLine(0, 6);
    if (pl.place.kind == MemoryKind::Device)
      ImGui::Text("%s / %s / %s", fmt_bytes(pl.allocated).c_str(), fmt_bytes(pl.reserved).c_str(), fmt_bytes(pl.capacity).c_str());
    else
      ImGui::Text("%s", fmt_bytes(pl.allocated).c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(pl.place.kind == MemoryKind::Device ? "%s: allocated / reserved / capacity\n%s" : "%s: allocated\n%s",
                        pl.label.c_str(), pl.detail.c_str());
  }
  // Right side: state and notice.
  std::string right;
  if (ui.running) right = ui.running_what + "\xe2\x80\xa6";
  else if (!ui.loading_path.empty())
    right = "Opening " + ui.loading_path.substr(ui.loading_path.find_last_of('/') + 1) + "\xe2\x80\xa6 " +
            std::to_string(int(ui.loading_fraction * 100)) + "%";
  else if (ImGui::GetTime() < ui.notice_until) right = ui.notice;
  else right = ui.runner_name;
  // Only in the room left of the places (the last item's right edge), shortened if need be.
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  const float room = ImGui::GetWindowContentRegionMax().x - used - 24;
  right = fit_text(ImGui::GetFont(), right, room);
  const float w = ImGui::CalcTextSize(right.c_str()).x;
  const float x = ImGui::GetWindowContentRegionMax().x - w;
  if (!right.empty() && room > 60) {
    ImGui::SameLine(x);
    ImU32 col = theme::kTextDim;
    if (ui.running || !ui.loading_path.empty()) col = theme::kWarning;
    else if (ImGui::GetTime() < ui.notice_until) col = ui.notice_error ? theme::kError : theme::kOk;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(col), "%s", right.c_str());
  }
  (void)cmds;
  ImGui::End();
}

}  // namespace ds::gui
