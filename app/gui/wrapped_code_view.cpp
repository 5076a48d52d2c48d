// draw_wrapped_script: rows from wrap_code_line, drawn with the draw list inside a scrolling child.
#include "gui/wrapped_code_view.h"

#include <imgui.h>

#include <algorithm>
#include <vector>

#include "gui/theme.h"
#include "gui/view_state/code_wrap.h"
#include "gui/view_state/script_statements.h"

namespace ds::gui {
namespace {

constexpr ImU32 kComment = IM_COL32(0x7f, 0x9a, 0x7f, 0xff);  // the lesson code box's comment green

}  // namespace

int draw_wrapped_script(const std::string& script, const WrappedCodeMarks& marks, float width, float height, bool* clicked) {
  *clicked = false;
  const std::vector<std::string> lines = split_lines(script);
  ImGui::BeginChild("##editor_wrapped", ImVec2(width, height), false);
  ImFont* f = ImGui::GetFont();
  const float lh = ImGui::GetFontSize();
  const float pad_y = ImGui::GetStyle().FramePadding.y;
  const float gutter = ImGui::CalcTextSize("0000").x + 22;
  const float char_w = ImGui::CalcTextSize("M").x;
  const float text_w = ImGui::GetContentRegionAvail().x - gutter - ImGui::GetStyle().ScrollbarSize;
  const size_t cols = size_t(std::max(12.0f, text_w / std::max(char_w, 1.0f)));
  struct Row {
    int line;  // 1-based
    CodePiece piece;
  };
  std::vector<Row> rows;
  for (size_t i = 0; i < lines.size(); ++i)
    for (const CodePiece& p : wrap_code_line(lines[i], cols)) rows.push_back({int(i) + 1, p});
  if (rows.empty()) rows.push_back({1, {0, 0, 0}});
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float total_h = std::max(ImGui::GetContentRegionAvail().y, float(rows.size() + 1) * lh + 2 * pad_y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + gutter - 6, origin.y + total_h), IM_COL32(0x14, 0x17, 0x1d, 0xff));
  const float scroll_y = ImGui::GetScrollY(), view_h = ImGui::GetWindowHeight();
  // When the next statement changes, scroll it into view (a third down) if it is out of sight.
  ImGuiStorage* memo = ImGui::GetStateStorage();
  const ImGuiID last_key = ImGui::GetID("##last_next");
  if (marks.next_first > 0 && memo->GetInt(last_key, 0) != marks.next_first) {
    memo->SetInt(last_key, marks.next_first);
    for (size_t r = 0; r < rows.size(); ++r)
      if (rows[r].line == marks.next_first) {
        const float y = pad_y + float(r) * lh;
        if (y < scroll_y || y + lh > scroll_y + view_h) ImGui::SetScrollY(std::max(0.0f, y - view_h / 3));
        break;
      }
  }
  int continuations = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const bool continuation = row.piece.begin > 0;
    continuations += continuation;
    const float y = origin.y + pad_y + float(r) * lh;
    if (y + lh < origin.y + scroll_y - lh || y > origin.y + scroll_y + view_h + lh) continue;
    // Behind the text: the statement Step runs next (blue) and the failing line (red), every row of them.
    if (row.line >= marks.next_first && row.line <= marks.next_last && marks.next_first > 0)
      dl->AddRectFilled(ImVec2(origin.x + gutter - 4, y), ImVec2(origin.x + gutter + text_w, y + lh), IM_COL32(0x2a, 0x4a, 0x78, 0x80));
    if (row.line == marks.error_line)
      dl->AddRectFilled(ImVec2(origin.x + gutter - 4, y), ImVec2(origin.x + gutter + text_w, y + lh), IM_COL32(0x8a, 0x22, 0x22, 0x90));
    if (!continuation) {
      const std::string num = std::to_string(row.line);
      const bool special = row.line == marks.next_first || row.line == marks.error_line;
      dl->AddText(ImVec2(origin.x + gutter - 14 - ImGui::CalcTextSize(num.c_str()).x, y), special ? theme::kText : theme::kTextDim, num.c_str());
      if (row.line == marks.next_first) {
        const float cy = y + lh * 0.5f;
        dl->AddTriangleFilled(ImVec2(origin.x + 3, cy - 5), ImVec2(origin.x + 3, cy + 5), ImVec2(origin.x + 11, cy), theme::kAccent);
      }
      if (row.line == marks.error_line) dl->AddCircleFilled(ImVec2(origin.x + 7, y + lh * 0.5f), 4.5f, theme::kError);
    } else {
      const char* mark = "\xe2\x86\xaa";  // the line goes on here, as in the lesson's code box
      dl->AddText(ImVec2(origin.x + gutter - 14 - ImGui::CalcTextSize(mark).x, y), with_alpha(theme::kTextDim, 0.6f), mark);
    }
    // Code, then (from a `#` outside quotes) the comment, dimmed green.
    const std::string& l = lines.empty() ? std::string() : lines[size_t(row.line - 1)];
    const size_t hash = std::min(comment_start(l), l.size());
    const size_t a = row.piece.begin, b = row.piece.end;
    const float x = origin.x + gutter + char_w * float(row.piece.indent);
    const std::string code_part = a < hash ? l.substr(a, std::min(b, hash) - a) : "";
    const std::string comment = b > hash ? l.substr(std::max(a, hash), b - std::max(a, hash)) : "";
    dl->AddText(f, lh, ImVec2(x, y), theme::kText, code_part.c_str());
    if (!comment.empty()) dl->AddText(f, lh, ImVec2(x + ImGui::CalcTextSize(code_part.c_str()).x, y), kComment, comment.c_str());
  }
  ImGui::InvisibleButton("##wrapped_text", ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), total_h));
  if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_TextInput);
  *clicked = ImGui::IsItemClicked();
  ImGui::EndChild();
  return continuations;
}

}  // namespace ds::gui
