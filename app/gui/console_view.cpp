// Console log and prompt.
#include "gui/console_view.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/keys.h"
#include "gui/theme.h"

namespace ds::gui {

void console_add(UiState& ui, ConsoleLine::Kind kind, const std::string& text) {
  // One entry per line so that the clipper can skip what is off screen.
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start || end < text.size()) ui.console.push_back({kind, text.substr(start, end - start)});
    if (end == text.size()) break;
    start = end + 1;
  }
  if (ui.console.size() > 20000) ui.console.erase(ui.console.begin(), ui.console.begin() + 5000);
  ui.console_scroll = true;
}

void console_clear(UiState& ui) { ui.console.clear(); }

void ConsoleView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Console", &ui.show_console)) {
    ImGui::End();
    return;
  }
  draw_contents(ui, cmds);
  (void)snap;
  ImGui::End();
}

void ConsoleView::draw_contents(UiState& ui, Commands& cmds) {
  ImGui::PushFont(fonts().mono);
  const float input_h = ImGui::GetFrameHeightWithSpacing() + 2;
  ImGui::BeginChild("##log", ImVec2(0, -input_h), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(int(ui.console.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ConsoleLine& l = ui.console[size_t(i)];
      ImU32 col = theme::kText;
      if (l.kind == ConsoleLine::Kind::Error) col = lighten(theme::kError, 0.2f);
      else if (l.kind == ConsoleLine::Kind::Input) col = lighten(theme::kAccent, 0.3f);
      else if (l.kind == ConsoleLine::Kind::Info) col = theme::kTextDim;
      ImGui::PushStyleColor(ImGuiCol_Text, col);
      ImGui::TextUnformatted(l.text.c_str());
      ImGui::PopStyleColor();
    }
  if (ui.console_scroll) {
    ImGui::SetScrollHereY(1.0f);
    ui.console_scroll = false;
  }
  if (ImGui::BeginPopupContextWindow()) {
    if (ImGui::MenuItem("Clear")) console_clear(ui);
    ImGui::EndPopup();
  }
  ImGui::EndChild();

  // The prompt.
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccent), ">>>");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  struct History {
    static int callback(ImGuiInputTextCallbackData* data) {
      UiState& ui = *static_cast<UiState*>(data->UserData);
      if (data->EventFlag != ImGuiInputTextFlags_CallbackHistory || ui.history.empty()) return 0;
      const int n = int(ui.history.size());
      if (data->EventKey == ImGuiKey_UpArrow) ui.history_pos = ui.history_pos < 0 ? n - 1 : std::max(0, ui.history_pos - 1);
      else if (data->EventKey == ImGuiKey_DownArrow) ui.history_pos = ui.history_pos < 0 || ui.history_pos + 1 >= n ? -1 : ui.history_pos + 1;
      data->DeleteChars(0, data->BufTextLen);
      if (ui.history_pos >= 0) data->InsertChars(0, ui.history[size_t(ui.history_pos)].c_str());
      return 0;
    }
  };
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackHistory;
  if (ImGui::InputTextWithHint("##prompt", ui.running ? "running\xe2\x80\xa6" : "a Python line, Enter runs it",
                               &ui.console_input, flags, &History::callback, &ui)) {
    if (!ui.console_input.empty() && !ui.running) {
      cmds.push(Commands::Kind::RunLine, ui.console_input);
      if (ui.history.empty() || ui.history.back() != ui.console_input) ui.history.push_back(ui.console_input);
      ui.history_pos = -1;
      ui.console_input.clear();
    }
    ImGui::SetKeyboardFocusHere(-1);
  }
  ImGui::PopFont();
}

}  // namespace ds::gui
