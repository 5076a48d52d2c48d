// The editor window: toolbar, gutter with line numbers and markers, the multi-line text, error banner.
#include "gui/editor_view.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>

#include "gui/keys.h"
#include "gui/view_state/script_statements.h"
#include "gui/theme.h"
#include "gui/wrapped_code_view.h"
#include "render/embedded_files.h"

namespace ds::gui {
namespace {

bool tool_button(const char* label, const char* tip, bool enabled, ImU32 accent = 0) {
  if (!enabled) ImGui::BeginDisabled();
  if (accent) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(with_alpha(accent, 0.55f)));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::ColorConvertU32ToFloat4(with_alpha(accent, 0.8f)));
  }
  const bool clicked = ImGui::Button(label);
  if (accent) ImGui::PopStyleColor(2);
  if (!enabled) ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
  return clicked;
}

}  // namespace

void EditorView::toolbar(UiState& ui, Commands& cmds) {
  const bool idle = !ui.running;
  if (tool_button("\xe2\x96\xb6 Run", "Reset, then run the whole script (F5)", idle, theme::kOk)) cmds.push(Commands::Kind::RunScript);
  ImGui::SameLine(0, 4);
  if (tool_button("\xe2\x86\xb7 Step", "Run the next statement (F10)", idle && ui.current_line > 0, theme::kAccent))
    cmds.push(Commands::Kind::Step);
  ImGui::SameLine(0, 4);
  if (tool_button("\xe2\x86\xb6 Back", "Step back one statement (Shift+F10): replays the script up to there", idle && ui.statements_done > 0))
    cmds.push(Commands::Kind::StepBack);
  ImGui::SameLine(0, 4);
  if (tool_button("\xe2\x86\xba Reset", "A fresh interpreter: no names, no memory, no transfers (Ctrl+R)", idle))
    cmds.push(Commands::Kind::Reset);
  ImGui::SameLine(0, 4);
  if (tool_button("\xe2\x96\xa0 Stop", "Interrupt the running code (Ctrl+C while it runs)", !idle, theme::kError))
    cmds.push(Commands::Kind::Stop);
  // The status goes on the toolbar's line when it fits there (presenter mode's big buttons leave less room).
  std::string status;
  if (!ui.running && ui.statement_count > 0)
    status = ui.current_line > 0 ? "next: line " + std::to_string(ui.current_line) + "  (" + std::to_string(ui.statements_done + 1) + "/" +
                                       std::to_string(ui.statement_count) + ")"
                                 : "done (" + std::to_string(ui.statement_count) + "/" + std::to_string(ui.statement_count) + ")";
  ImGui::SameLine(0, 12);
  if (!status.empty() && ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(status.c_str()).x) ImGui::NewLine();
  if (ui.running) {
    const float t = float(ImGui::GetTime() - ui.running_since);
    const char spin[] = "|/-\\";
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "%c %s\xe2\x80\xa6 %.1f s", spin[int(t * 8) % 4],
                       ui.running_what.c_str(), t);
  } else if (!status.empty()) {
    ImGui::TextDisabled("%s", status.c_str());
  }

  // Shortcuts (ignored while typing in another window's text field does not matter: they are F-keys).
  if (idle && keys::pressed(GLFW_KEY_F5)) cmds.push(Commands::Kind::RunScript);
  if (idle && keys::pressed(GLFW_KEY_F10, true)) cmds.push(keys::shift() ? Commands::Kind::StepBack : Commands::Kind::Step);
  if (idle && keys::ctrl() && keys::pressed(GLFW_KEY_R)) cmds.push(Commands::Kind::Reset);
}

void EditorView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  std::string title = "Editor";
  if (!ui.script_path.empty()) title += " \xe2\x80\x94 " + ui.script_path.substr(ui.script_path.find_last_of('/') + 1);
  else title += ui.script == render::embedded_file("starter.py") ? " \xe2\x80\x94 starter.py (example)" : " \xe2\x80\x94 untitled";  // not saved yet: Save asks where
  if (ui.script_dirty) title += " \xe2\x97\x8f";
  title += "###Editor";
  if (!ImGui::Begin(title.c_str(), &ui.show_editor)) {
    ImGui::End();
    return;
  }
  toolbar(ui, cmds);

  // Error banner: the exception's last line, with the line number; the traceback is in the console.
  // Error banner: the exception's last line (wrapped) and where it happened.
  std::string last = ui.error_traceback;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  last = last.substr(last.find_last_of('\n') == std::string::npos ? 0 : last.find_last_of('\n') + 1);
  const float wrap = ImGui::GetContentRegionAvail().x - 16;
  const float banner_h = last.empty() ? 0
                         : ImGui::CalcTextSize(last.c_str(), nullptr, false, wrap).y + 12 +
                               (ui.error_line > 0 ? ImGui::GetTextLineHeightWithSpacing() : 0);
  ImGui::Separator();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::PushFont(fonts().mono);
  // Presenter mode: the code wrapped to the pane until it is clicked (a multi-line input cannot wrap).
  if (ui.presenter && !editing_ && !ui.focus_editor) {
    WrappedCodeMarks marks;
    if (ui.current_line > 0 && !ui.running)
      for (const Statement& s : split_statements(ui.script))
        if (s.first_line == ui.current_line) marks.next_first = s.first_line, marks.next_last = s.last_line;
    marks.error_line = ui.error_line;
    bool clicked = false;
    ui.editor_wrapped_rows = draw_wrapped_script(ui.script, marks, avail.x, avail.y - banner_h, &clicked);
    if (clicked) editing_ = ui.focus_editor = true;
  } else {
    ui.editor_wrapped_rows = -1;
    draw_editable(ui, avail, banner_h);
  }
  ImGui::PopFont();
  draw_error_banner(ui, last, wrap, banner_h);
  (void)snap;
  ImGui::End();
}

void EditorView::draw_editable(UiState& ui, ImVec2 avail, float banner_h) {
  const float lh = ImGui::GetFontSize();
  const std::vector<std::string> lines = split_lines(ui.script);
  const int line_count = std::max<int>(1, int(lines.size()) + (ui.script.empty() || ui.script.back() == '\n' ? 1 : 0));
  const float gutter = ImGui::CalcTextSize("0000").x + 22;
  ImGui::BeginChild("##editor_scroll", ImVec2(avail.x, avail.y - banner_h), false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float pad_y = ImGui::GetStyle().FramePadding.y;
  const float text_h = std::max(ImGui::GetContentRegionAvail().y, float(line_count + 2) * lh + 2 * pad_y);
  float longest = 0;
  for (const std::string& l : lines) longest = std::max(longest, ImGui::CalcTextSize(l.c_str()).x);
  const float text_w = std::max(ImGui::GetContentRegionAvail().x - gutter, longest + 40);

  // Behind the text: the statement Step runs next (blue) and the failing line (red).
  const std::vector<Statement> statements = split_statements(ui.script);
  auto band = [&](int first, int last, ImU32 col) {
    const float y0 = origin.y + pad_y + float(first - 1) * lh, y1 = origin.y + pad_y + float(last) * lh;
    dl->AddRectFilled(ImVec2(origin.x + gutter - 4, y0), ImVec2(origin.x + gutter + text_w, y1), col);
  };
  int marker_line = 0;
  if (ui.current_line > 0 && !ui.running)
    for (const Statement& s : statements)
      if (s.first_line == ui.current_line) {
        band(s.first_line, s.last_line, IM_COL32(0x2a, 0x4a, 0x78, 0x80));
        marker_line = s.first_line;
      }
  if (ui.error_line > 0) band(ui.error_line, ui.error_line, IM_COL32(0x8a, 0x22, 0x22, 0x90));
  // Gutter: line numbers, the next-statement arrow, the error dot.
  dl->AddRectFilled(origin, ImVec2(origin.x + gutter - 6, origin.y + text_h), IM_COL32(0x14, 0x17, 0x1d, 0xff));
  const float scroll_y = ImGui::GetScrollY(), view_h = ImGui::GetWindowHeight();
  for (int i = 1; i <= line_count; ++i) {
    const float y = origin.y + pad_y + float(i - 1) * lh;
    if (y + lh < origin.y + scroll_y - lh || y > origin.y + scroll_y + view_h + lh) continue;
    char num[16];
    std::snprintf(num, sizeof num, "%d", i);
    const float w = ImGui::CalcTextSize(num).x;
    const bool special = i == marker_line || i == ui.error_line;
    dl->AddText(ImVec2(origin.x + gutter - 14 - w, y), special ? theme::kText : theme::kTextDim, num);
    if (i == marker_line) {
      const float cy = y + lh * 0.5f;
      dl->AddTriangleFilled(ImVec2(origin.x + 3, cy - 5), ImVec2(origin.x + 3, cy + 5), ImVec2(origin.x + 11, cy), theme::kAccent);
    }
    if (i == ui.error_line) dl->AddCircleFilled(ImVec2(origin.x + 7, y + lh * 0.5f), 4.5f, theme::kError);
  }

  ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter, origin.y));
  ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  ImGuiInputTextFlags flags = ImGuiInputTextFlags_AllowTabInput;
  if (ui.running) flags |= ImGuiInputTextFlags_ReadOnly;
  if (ui.focus_editor) {
    ImGui::SetKeyboardFocusHere();
    ui.focus_editor = false;
  }
  if (ImGui::InputTextMultiline("##script", &ui.script, ImVec2(text_w, text_h), flags | ImGuiInputTextFlags_NoHorizontalScroll)) {
    ui.script_dirty = true;
    // Editing the failing line clears its mark; the cursor may change after the next Step.
    ui.error_line = 0;
    ++edit_count_;
  }
  if (ImGui::IsItemDeactivated()) editing_ = false;  // presenter mode: back to the wrapped view
  ImGui::PopStyleColor();
  ImGui::EndChild();
}

void EditorView::draw_error_banner(const UiState& ui, const std::string& last, float wrap, float banner_h) {
  if (banner_h > 0) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(0x3a, 0x16, 0x18, 0xff));
    ImGui::BeginChild("##error", ImVec2(0, banner_h - 4), false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPos(ImVec2(8, 4));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(lighten(theme::kError, 0.35f)), "%s", last.c_str());
    ImGui::PopTextWrapPos();
    if (ui.error_line > 0) {
      ImGui::SetCursorPosX(8);
      ImGui::TextDisabled("line %d \xe2\x80\x94 full traceback in the console", ui.error_line);
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
}

}  // namespace ds::gui
