// Lesson widgets: a word-wrapping Markdown renderer over the draw list, code listings, verdict cards.
#include "gui/lesson_widgets.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <vector>

#include "gui/view_state/code_wrap.h"
#include "gui/view_state/lesson_markdown.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr ImU32 kCodeText = IM_COL32(0xf2, 0xc3, 0x7a, 0xff);
constexpr ImU32 kCodeBg = IM_COL32(0x2a, 0x30, 0x3b, 0xff);
constexpr ImU32 kComment = IM_COL32(0x7f, 0x9a, 0x7f, 0xff);

ImFont* span_font(const MdSpan& s, bool heading) {
  if (s.code) return fonts().mono;
  return s.bold || heading ? fonts().bold : fonts().ui;
}

// Lays out spans word by word from the cursor, wrapping at `width`; advances the cursor past them.
void draw_spans(const std::vector<MdSpan>& spans, float indent, float width, ImU32 color, bool heading, float scale) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line_h = fonts().ui->FontSize * scale * 1.35f;
  float x = indent, y = 0;
  const float right = std::max(indent + 50.0f, width);
  for (const MdSpan& s : spans) {
    ImFont* f = span_font(s, heading);
    const float size = f->FontSize * (s.code ? 1.0f : scale);
    const ImU32 col = s.code ? kCodeText : s.italic ? lighten(color, 0.25f) : color;
    // Words keep their trailing space; a code span is one unbreakable piece unless it is wider than a line.
    std::vector<std::string> words;
    if (s.code) {
      words.push_back(s.text);
    } else {
      std::string w;
      for (char c : s.text) {
        w += c;
        if (c == ' ') words.push_back(std::move(w)), w.clear();
      }
      if (!w.empty()) words.push_back(w);
    }
    for (const std::string& w : words) {
      const ImVec2 sz = f->CalcTextSizeA(size, FLT_MAX, 0, w.c_str());
      const float pad = s.code ? 4.0f * scale : 0.0f;
      if (x + sz.x + 2 * pad > right && x > indent) {
        x = indent;
        y += line_h;
        if (w == " ") continue;
      }
      const ImVec2 p(origin.x + x + pad, origin.y + y + (line_h - size) * 0.5f);
      if (s.code) dl->AddRectFilled(ImVec2(p.x - pad, origin.y + y + 1), ImVec2(p.x + sz.x + pad, origin.y + y + line_h - 1), kCodeBg, 3);
      dl->AddText(f, size, p, col, w.c_str());
      x += sz.x + 2 * pad;
    }
  }
  ImGui::Dummy(ImVec2(width, y + line_h));
}

}  // namespace

void draw_markdown(const std::string& text, ImU32 color) {
  if (!color) color = theme::kText;
  const float width = ImGui::GetContentRegionAvail().x;
  const float em = fonts().ui->FontSize;
  for (const MdBlock& b : parse_markdown(text)) {
    switch (b.kind) {
      case MdBlock::Kind::Heading:
        ImGui::Dummy(ImVec2(0, em * 0.2f));
        draw_spans(b.spans, 0, width, b.level <= 1 ? theme::kText : lighten(theme::kAccent, 0.3f), true, b.level <= 1 ? 1.25f : 1.1f);
        break;
      case MdBlock::Kind::Paragraph:
        draw_spans(b.spans, 0, width, color, false, 1.0f);
        ImGui::Dummy(ImVec2(0, em * 0.15f));
        break;
      case MdBlock::Kind::Bullet: {
        const float indent = em * (1.1f + 1.2f * float(b.level));
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float line_h = em * 1.35f;
        ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + indent - em * 0.6f, p.y + line_h * 0.5f), em * 0.17f, theme::kAccent);
        draw_spans(b.spans, indent, width, color, false, 1.0f);
        break;
      }
      case MdBlock::Kind::Code:
        draw_code(b.spans.empty() ? "" : b.spans.front().text, 0);
        break;
    }
  }
}


int draw_code(const std::string& code, int first_line) {
  std::vector<std::string> lines;
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string::npos) lines.pop_back();
  ImFont* f = fonts().mono;
  const float lh = f->FontSize * 1.3f, pad = f->FontSize * 0.6f;
  const float gutter = first_line > 0 ? f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, "0000").x + pad : 0;
  const float width = ImGui::GetContentRegionAvail().x;
  const float char_w = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, "M").x;
  const size_t cols = size_t(std::max(12.0f, (width - 2 * pad - gutter - 4) / std::max(char_w, 1.0f)));
  struct Row {
    size_t line;
    CodePiece piece;
  };
  std::vector<Row> rows;
  for (size_t i = 0; i < lines.size(); ++i)
    for (const CodePiece& p : wrap_code_line(lines[i], cols)) rows.push_back({i, p});
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float height = lh * float(std::max<size_t>(rows.size(), 1)) + 2 * pad;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), IM_COL32(0x0f, 0x12, 0x17, 0xff), 5);
  dl->AddRect(p0, ImVec2(p0.x + width, p0.y + height), theme::kPaneBorder, 5);
  dl->PushClipRect(p0, ImVec2(p0.x + width - 2, p0.y + height), true);
  int wrapped = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const std::string& l = lines[row.line];
    const float y = p0.y + pad + lh * float(r) + (lh - f->FontSize) * 0.5f;
    const bool continuation = row.piece.begin > 0;
    wrapped += continuation;
    if (first_line > 0 && !continuation) {
      const std::string n = std::to_string(first_line + int(row.line));
      const float nw = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, n.c_str()).x;
      dl->AddText(f, f->FontSize, ImVec2(p0.x + pad + gutter - pad - nw, y), with_alpha(theme::kTextDim, 0.7f), n.c_str());
    } else if (continuation) {
      const char* mark = "\xe2\x86\xaa";  // the line goes on here
      const float mw = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, mark).x;
      dl->AddText(f, f->FontSize, ImVec2(p0.x + pad + gutter - pad * 0.5f - mw, y), with_alpha(theme::kTextDim, 0.6f), mark);
    }
    // Code, then (from a `#` outside quotes) the comment, dimmed green.
    const size_t hash = std::min(comment_start(l), l.size());
    const float x = p0.x + pad + gutter + char_w * float(row.piece.indent);
    const size_t a = row.piece.begin, b = row.piece.end;
    const std::string code_part = a < hash ? l.substr(a, std::min(b, hash) - a) : "";
    const std::string comment = b > hash ? l.substr(std::max(a, hash), b - std::max(a, hash)) : "";
    dl->AddText(f, f->FontSize, ImVec2(x, y), theme::kText, code_part.c_str());
    if (!comment.empty()) {
      const float cx = x + f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, code_part.c_str()).x;
      dl->AddText(f, f->FontSize, ImVec2(cx, y), kComment, comment.c_str());
    }
  }
  dl->PopClipRect();
  ImGui::Dummy(ImVec2(width, height));
  return wrapped;
}

ImU32 verdict_color(const std::string& verdict) {
  if (verdict == "TRUE") return theme::kOk;
  if (verdict == "FALSE") return theme::kError;
  return theme::kWarning;
}

void draw_verdict_card(const LessonVerdict& v) {
  const ImU32 col = verdict_color(v.verdict);
  const float em = fonts().ui->FontSize;
  const float width = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  dl->ChannelsSplit(2);
  dl->ChannelsSetCurrent(1);
  ImGui::BeginGroup();
  ImGui::Dummy(ImVec2(0, em * 0.35f));
  ImGui::Indent(em * 0.8f);
  ImGui::PushFont(fonts().bold);
  badge(v.verdict.c_str(), col);
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::PushTextWrapPos(p0.x + width - em * 0.8f - ImGui::GetWindowPos().x + ImGui::GetScrollX());
  ImGui::BeginGroup();
  draw_markdown("**" + v.claim + "**");
  if (!v.reason.empty()) draw_markdown(v.reason, theme::kTextDim);
  ImGui::EndGroup();
  ImGui::PopTextWrapPos();
  ImGui::Unindent(em * 0.8f);
  ImGui::Dummy(ImVec2(0, em * 0.1f));
  ImGui::EndGroup();
  const ImVec2 p1(p0.x + width, ImGui::GetItemRectMax().y);
  dl->ChannelsSetCurrent(0);
  dl->AddRectFilled(p0, p1, with_alpha(col, 0.10f), 6);
  dl->AddRectFilled(p0, ImVec2(p0.x + em * 0.3f, p1.y), col, 6, ImDrawFlags_RoundCornersLeft);
  dl->AddRect(p0, p1, with_alpha(col, 0.45f), 6);
  dl->ChannelsMerge();
  ImGui::Dummy(ImVec2(0, em * 0.3f));
}

void draw_text_box(const char* label, const std::string& text, ImU32 color) {
  if (text.empty()) return;
  ImGui::TextDisabled("%s", label);
  ImFont* f = fonts().mono;
  const float width = ImGui::GetContentRegionAvail().x, pad = f->FontSize * 0.5f;
  std::string shown = text;
  while (!shown.empty() && shown.back() == '\n') shown.pop_back();
  const ImVec2 sz = f->CalcTextSizeA(f->FontSize, FLT_MAX, width - 2 * pad, shown.c_str());
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + sz.y + 2 * pad), IM_COL32(0x0f, 0x12, 0x17, 0xff), 4);
  dl->AddText(f, f->FontSize, ImVec2(p0.x + pad, p0.y + pad), color, shown.c_str(), nullptr, width - 2 * pad);
  ImGui::Dummy(ImVec2(width, sz.y + 2 * pad));
}

bool draw_choice(int index, const std::string& text, ChoiceState state, bool enabled) {
  ImU32 col = theme::kPaneBorder;
  const char* mark = "";
  switch (state) {
    case ChoiceState::Idle: break;
    case ChoiceState::Picked: col = theme::kAccent, mark = "  \xe2\x97\x80 your answer"; break;
    case ChoiceState::Right: col = theme::kOk, mark = "  \xe2\x9c\x93 your answer: right"; break;
    case ChoiceState::WrongPick: col = theme::kError, mark = "  \xe2\x9c\x97 your answer"; break;
    case ChoiceState::RightNotPicked: col = theme::kOk, mark = "  \xe2\x9c\x93 right answer"; break;
  }
  const float em = fonts().ui->FontSize;
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::PushID(index);
  ImGui::BeginGroup();
  ImGui::Dummy(ImVec2(0, em * 0.25f));
  ImGui::Indent(em * 2.4f);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - em * 3.0f);
  ImGui::BeginGroup();
  draw_markdown(text, theme::kText);
  if (*mark) {
    ImGui::PushFont(fonts().bold);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(lighten(col, 0.15f)), "%s", mark + 2);
    ImGui::PopFont();
  }
  ImGui::EndGroup();
  ImGui::PopTextWrapPos();
  ImGui::Unindent(em * 2.4f);
  ImGui::EndGroup();
  const ImVec2 p1(p0.x + width, ImGui::GetItemRectMax().y + em * 0.1f);
  ImGui::SetCursorScreenPos(p0);
  const bool clicked = ImGui::InvisibleButton("##choice", ImVec2(width, p1.y - p0.y)) && enabled;
  const bool hovered = enabled && ImGui::IsItemHovered();
  ImGui::PopID();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool filled = state != ChoiceState::Idle;
  dl->AddRect(p0, p1, hovered ? theme::kAccent : col, 5, 0, filled ? 2.0f : 1.0f);
  if (filled) dl->AddRectFilled(p0, p1, with_alpha(col, 0.12f), 5);
  // The digit key that picks it.
  const std::string key = std::to_string(index + 1);
  ImFont* b = fonts().bold;
  const ImVec2 kc(p0.x + em * 1.2f, p0.y + em * 0.25f + em * 0.68f);
  dl->AddCircleFilled(kc, em * 0.72f, filled ? col : IM_COL32(0x2e, 0x35, 0x40, 0xff));
  const ImVec2 ks = b->CalcTextSizeA(b->FontSize, FLT_MAX, 0, key.c_str());
  dl->AddText(b, b->FontSize, ImVec2(kc.x - ks.x * 0.5f, kc.y - ks.y * 0.5f), filled ? IM_COL32(0x10, 0x12, 0x16, 0xff) : theme::kText, key.c_str());
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p1.y + em * 0.3f));
  ImGui::Dummy(ImVec2(0, 0));
  return clicked;
}

}  // namespace ds::gui
