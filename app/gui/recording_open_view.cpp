// The loading strip and the open-error modal (recording_open_view.h).
#include "gui/recording_open_view.h"

#include <imgui.h>

#include <algorithm>

#include "gui/keys.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr const char* kErrorTitle = "Cannot open the recording";

std::string file_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

}  // namespace

void draw_loading_strip(const UiState& ui, Commands& cmds) {
  if (ui.loading_path.empty()) return;
  badge("OPENING", theme::kWarning);
  ImGui::SameLine();
  ImGui::TextUnformatted(file_name(ui.loading_path).c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ui.loading_path.c_str());
  ImGui::SameLine();
  // The loader reads the whole file, then parses it: say which, with bytes of the file's size.
  const bool parsing = ui.loading_total > 0 && ui.loading_read >= ui.loading_total;
  const std::string what = ui.loading_total == 0 ? std::string("starting")
                           : parsing ? "parsing " + fmt_bytes(ui.loading_done) + " of " + fmt_bytes(ui.loading_total)
                                     : "reading " + fmt_bytes(ui.loading_read) + " of " + fmt_bytes(ui.loading_total);
  const float cancel_w = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2;
  const float bar_w = ImGui::GetContentRegionAvail().x - cancel_w - ImGui::GetStyle().ItemSpacing.x;
  ImGui::ProgressBar(float(ui.loading_fraction), ImVec2(std::max(bar_w, 60.0f), 0), what.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) cmds.push(Commands::Kind::CancelOpenTrace);
  ImGui::Separator();
}

void draw_open_error(UiState& ui) {
  if (ui.open_error.empty()) return;
  if (!ImGui::IsPopupOpen(kErrorTitle)) ImGui::OpenPopup(kErrorTitle);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(380, 0), ImVec2(std::max(380.0f, vp->Size.x * 0.6f), vp->Size.y * 0.8f));
  if (!ImGui::BeginPopupModal(kErrorTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) return;
  ImGui::PushTextWrapPos(std::max(380.0f, vp->Size.x * 0.55f));
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", ui.open_error.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  ImGui::TextDisabled(!ui.recording_path.empty() ? "The window still shows the recording %s." : "The window still shows the live session.",
                      file_name(ui.recording_path).c_str());
  ImGui::Spacing();
  if (ImGui::Button("OK", ImVec2(120, 0)) || keys::pressed(GLFW_KEY_ENTER) || keys::pressed(GLFW_KEY_ESCAPE)) {
    ui.open_error.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace ds::gui
