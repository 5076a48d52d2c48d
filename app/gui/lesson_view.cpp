// LessonView: browser, step pages, the closing verdict page, keyboard control and the presenter layout.
#include "gui/lesson_view.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "gui/keys.h"
#include "gui/lesson_widgets.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

bool accent_button(const char* label, ImU32 accent, bool enabled) {
  if (!enabled) ImGui::BeginDisabled();
  ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(with_alpha(accent, 0.55f)));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::ColorConvertU32ToFloat4(with_alpha(accent, 0.8f)));
  const bool clicked = ImGui::Button(label);
  ImGui::PopStyleColor(2);
  if (!enabled) ImGui::EndDisabled();
  return clicked;
}

void section(const char* title) {
  ImGui::Spacing();
  ImGui::PushFont(fonts().bold);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "%s", title);
  ImGui::PopFont();
}

const char* phase_name(const LessonPlayer& p) {
  if (!p.active()) return "browser";
  if (p.loading()) return "loading";
  if (p.at_end()) return "end";
  const LessonStepProgress& s = p.progress(p.page());
  if (s.running) return "running";
  if (s.result || !s.failure.empty()) return "ran";
  return "before";
}

}  // namespace

PresenterLayout presenter_layout(ImVec2 pos, ImVec2 size, float strip_h) {
  const float gap = 4;
  const float left = std::floor((size.x - 3 * gap) * 0.5f);
  const float right = size.x - 3 * gap - left;
  const float top = std::floor((size.y - 3 * gap) * 0.62f);
  const float strip = std::min(std::floor(strip_h), std::floor((size.y - 3 * gap) * 0.4f));
  PresenterLayout l;
  l.lesson = {ImVec2(pos.x + gap, pos.y + gap), ImVec2(left, size.y - 3 * gap - strip)};
  l.transfers = {ImVec2(pos.x + gap, pos.y + size.y - gap - strip), ImVec2(left, strip)};
  l.memory = {ImVec2(pos.x + 2 * gap + left, pos.y + gap), ImVec2(right, top)};
  l.names = {ImVec2(pos.x + 2 * gap + left, pos.y + 2 * gap + top), ImVec2(right, size.y - 3 * gap - top)};
  return l;
}

void LessonView::handle_global_keys(UiState& ui) {
  if (ImGui::GetIO().WantTextInput) return;
  if (keys::pressed(GLFW_KEY_F11)) {
    ui.presenter = !ui.presenter;
    if (ui.presenter) ui.show_lessons = true;
    else ui.reset_layout = true;
  }
  if (!ui.presenter) return;
  if (keys::pressed(GLFW_KEY_ESCAPE)) {
    ui.presenter = false;
    ui.reset_layout = true;
    return;
  }
  step_keys();
}

void LessonView::step_keys() {
  if (!player_.doc()) return;
  if (keys::pressed(GLFW_KEY_RIGHT) || keys::pressed(GLFW_KEY_ENTER) || keys::pressed(GLFW_KEY_KP_ENTER) ||
      keys::pressed(GLFW_KEY_SPACE) || keys::pressed(GLFW_KEY_PAGE_DOWN))
    player_.next();
  if (keys::pressed(GLFW_KEY_LEFT) || keys::pressed(GLFW_KEY_PAGE_UP) || keys::pressed(GLFW_KEY_BACKSPACE)) player_.back();
  for (int d = 0; d < 9; ++d)
    if (keys::pressed(GLFW_KEY_1 + d) || keys::pressed(GLFW_KEY_KP_1 + d)) player_.choose(d);
}

void LessonView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  // The lesson's title is a wrapped heading in the body (a long one ran under the close button); the title
  // bar says only which lesson, and presenter mode has none.
  const ImGuiWindowFlags flags =
      ui.presenter ? ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoTitleBar : 0;
  std::string title = player_.doc() ? "Lesson " + player_.doc()->name.substr(0, player_.doc()->name.find('_')) : std::string("Lessons");
  title += "###Lesson";
  if (!ImGui::Begin(title.c_str(), ui.presenter ? nullptr : &ui.show_lessons, flags)) {
    ImGui::End();
    return;
  }
  if (!ui.presenter && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput) step_keys();
  if (!player_.active()) {
    draw_browser(ui);
    ImGui::End();
    return;
  }
  if (player_.doc()) {
    std::string heading = player_.doc()->title;
    heading.erase(std::remove(heading.begin(), heading.end(), '`'), heading.end());  // Markdown code marks
    ImGui::PushFont(fonts().bold);
    ImGui::TextWrapped("%s", heading.c_str());
    ImGui::PopFont();
  }
  draw_header(ui);
  ImGui::Separator();
  if (player_.page() != last_page_) {
    last_page_ = player_.page();
    scroll_to_top_ = 2;
  }
  if (const auto& d = player_.doc(); d && !player_.at_end()) {
    result_shown_.resize(d->steps.size(), false);
    if (player_.progress(player_.page()).result && !result_shown_[size_t(player_.page())]) {
      result_shown_[size_t(player_.page())] = true;
      scroll_to_result_ = 2;
    }
  } else if (!d) {
    result_shown_.clear();
  }
  if (scroll_to_result_ > 0) scroll_to_top_ = 0;
  ImGui::BeginChild("##lesson_body", ImVec2(0, 0), false);
  if (scroll_to_top_ > 0) {
    ImGui::SetScrollY(0);
    --scroll_to_top_;
  }
  if (!player_.error().empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", player_.error().c_str());
  if (player_.loading()) {
    if (player_.error().empty()) ImGui::TextDisabled("Starting %s in a fresh session\xe2\x80\xa6", player_.name().c_str());
  } else if (player_.at_end()) {
    draw_end();
  } else {
    draw_step(player_.doc()->steps[size_t(player_.page())], player_.page());
  }
  ImGui::Dummy(ImVec2(0, fonts().ui->FontSize * 2));
  ImGui::EndChild();
  ImGui::End();
  (void)snap;
  (void)cmds;
}

void LessonView::draw_browser(UiState& ui) {
  if (!player_.list_requested()) player_.request_list();
  ImGui::PushFont(fonts().bold);
  ImGui::TextUnformatted("Workshop lessons");
  ImGui::PopFont();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme::kTextDim));
  ImGui::TextWrapped("Each lesson runs in a fresh session: the panes show what its steps make.");
  ImGui::PopStyleColor();
  ImGui::Separator();
  if (!player_.list_error().empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", player_.list_error().c_str());
    if (ImGui::Button("Try again")) player_.request_list();
    return;
  }
  if (player_.list().empty()) {
    ImGui::TextDisabled("Reading the lessons\xe2\x80\xa6");
    return;
  }
  ImGui::BeginChild("##lesson_list");
  for (const LessonListEntry& e : player_.list()) {
    ImGui::PushID(e.name.c_str());
    const bool broken = !e.error.empty();
    if (broken) ImGui::BeginDisabled();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##open", false, 0, ImVec2(0, fonts().ui->FontSize * 2.6f))) player_.open(e.name);
    if (broken) ImGui::EndDisabled();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::string number = e.name.substr(0, e.name.find('_'));
    dl->AddText(fonts().mono, fonts().mono->FontSize, ImVec2(p0.x + 4, p0.y + 3), theme::kAccent, number.c_str());
    const float tx = p0.x + 4 + fonts().mono->CalcTextSizeA(fonts().mono->FontSize, FLT_MAX, 0, "0000").x;
    const float right = p0.x + ImGui::GetContentRegionAvail().x;
    ImVec4 clip(tx, p0.y, right, p0.y + fonts().ui->FontSize * 2.6f);
    std::string title = e.title;
    title.erase(std::remove(title.begin(), title.end(), '`'), title.end());  // Markdown code marks
    // A long title ends with an ellipsis (the whole title is the tooltip), not cut mid-letter.
    const std::string shown = fit_text(fonts().bold, title, right - tx - 4);
    dl->AddText(fonts().bold, fonts().bold->FontSize, ImVec2(tx, p0.y + 3), theme::kText, shown.c_str(), nullptr, 0, &clip);
    if (shown != title && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title.c_str());
    auto count = [](int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    std::string sub = broken ? e.error
                             : count(e.steps, "step") + " \xc2\xb7 " + count(e.questions, "question") + " \xc2\xb7 " +
                                   count(e.verdicts, "verdict");
    for (const std::string& r : e.unmet) sub += " \xc2\xb7 needs " + r + " (not here)";
    sub = fit_text(fonts().small, sub, right - tx - 4);
    dl->AddText(fonts().small, fonts().small->FontSize, ImVec2(tx, p0.y + 5 + fonts().bold->FontSize), broken ? theme::kError : theme::kTextDim,
                sub.c_str(), nullptr, 0, &clip);
    ImGui::PopID();
  }
  ImGui::EndChild();
  (void)ui;
}

void LessonView::draw_header(UiState& ui) {
  const LessonPlayer& p = player_;
  const bool ready = p.doc().has_value();
  const int n = ready ? int(p.doc()->steps.size()) : 0;
  if (ready) {
    // Where we are: one dot per step (filled once it ran), then the closing page as a diamond set a little
    // apart, so "Step 1 of 6" stands over six dots (issue 24 item 9: a seventh dot read as a seventh step).
    const float em = fonts().ui->FontSize;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c = ImGui::GetCursorScreenPos();
    for (int i = 0; i <= n; ++i) {
      const ImVec2 d(c.x + em * 0.5f + float(i) * em * 1.1f + (i == n ? em * 0.4f : 0.0f), c.y + em * 0.55f);
      const bool ran = i < n && p.progress(i).result.has_value();
      const bool failed = ran && !p.progress(i).result->passed;
      const ImU32 col = i == n ? theme::kWarning : failed ? theme::kError : ran ? theme::kOk : theme::kTextDim;
      if (i == p.page()) dl->AddCircle(d, em * 0.45f, theme::kText, 0, 2.0f);
      if (i == n) {
        const float r = em * 0.3f;
        dl->AddQuad(ImVec2(d.x, d.y - r), ImVec2(d.x + r, d.y), ImVec2(d.x, d.y + r), ImVec2(d.x - r, d.y), col, 1.5f);
      } else if (ran) {
        dl->AddCircleFilled(d, em * 0.28f, col);
      } else {
        dl->AddCircle(d, em * 0.28f, col, 0, 1.5f);
      }
    }
    ImGui::Dummy(ImVec2(em * 1.1f * float(n + 1) + em * 0.4f, em * 1.1f));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%d steps, then the verdicts page (the diamond)", n);
    ImGui::SameLine();
    if (p.at_end()) ImGui::TextDisabled("Verdicts");
    else ImGui::TextDisabled("Step %d of %d", p.page() + 1, n);
  }
  // Buttons on the right: Back, Next / Run, and the way out.
  const bool idle = !ui.running && !p.busy();
  const LessonStepProgress* sp = ready && !p.at_end() ? &p.progress(p.page()) : nullptr;
  const bool will_run = sp && !sp->result && sp->failure.empty();
  const char* next_label = will_run ? "Run step \xe2\x96\xb6" : p.at_end() ? "Next \xe2\x96\xb6" : "Next \xe2\x96\xb6";
  const float bw = ImGui::CalcTextSize(next_label).x + ImGui::CalcTextSize("\xe2\x97\x80 Back").x + ImGui::CalcTextSize("Lessons").x +
                   ImGui::GetStyle().FramePadding.x * 6 + ImGui::GetStyle().ItemSpacing.x * 3;
  // Right-aligned beside the dots when there is room, else on a line of their own.
  ImGui::SameLine();
  const float right = ImGui::GetWindowContentRegionMax().x - bw;
  if (ImGui::GetCursorPosX() + ImGui::GetStyle().ItemSpacing.x * 2 > right) ImGui::NewLine();
  else ImGui::SameLine(right);
  if (accent_button("\xe2\x97\x80 Back", theme::kPaneBorder, ready && p.page() > 0)) player_.back();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Previous step (Left arrow)");
  ImGui::SameLine();
  if (accent_button(next_label, will_run ? theme::kOk : theme::kAccent, ready && idle && !p.at_end())) player_.next();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(will_run ? "Run this step in the session (Right arrow / Enter)" : "Next step (Right arrow)");
  ImGui::SameLine();
  if (ImGui::Button("Lessons")) {
    player_.close();
    ui.presenter = false;
    ui.reset_layout = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the list of lessons");
  if (!p.hint().empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "%s", p.hint().c_str());
}

void LessonView::draw_step(const LessonStep& step, int index) {
  const LessonStepProgress& pr = player_.progress(index);
  const bool ran = pr.result.has_value();
  if (index == 0 && !player_.doc()->narration.empty()) {
    draw_markdown(player_.doc()->narration);
    ImGui::Separator();
  }
  draw_markdown("## " + step.title);
  draw_markdown(step.narration);
  ImGui::Spacing();
  code_wrapped_ = draw_code(step.code, step.code_line);
  if (!step.syntax_error.empty()) draw_text_box("Syntax error", step.syntax_error, theme::kError);

  if (step.question) {
    const LessonQuestion& q = *step.question;
    section("Predict");
    draw_markdown(q.prompt);
    for (int c = 0; c < int(q.choices.size()); ++c) {
      ChoiceState st = ChoiceState::Idle;
      if (!ran) st = pr.chosen == c ? ChoiceState::Picked : ChoiceState::Idle;
      else if (c == q.answer) st = pr.chosen == c ? ChoiceState::Right : ChoiceState::RightNotPicked;
      else if (pr.chosen == c) st = ChoiceState::WrongPick;
      if (draw_choice(c, q.choices[size_t(c)], st, !ran && !pr.running)) player_.choose(c);
    }
    if (!ran && !pr.running)
      ImGui::TextDisabled(pr.chosen < 0 ? "Press 1-%d to answer, then Right arrow to run the step." : "Right arrow or Enter runs the step.",
                          int(q.choices.size()));
  } else if (!ran && !pr.running) {
    ImGui::TextDisabled("Right arrow or Enter runs the step.");
  }
  if (pr.running) {
    ImGui::Spacing();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccent), "Running\xe2\x80\xa6");
  }
  if (!pr.failure.empty()) draw_text_box("The step did not finish", pr.failure, theme::kError);
  if (!ran) return;

  const LessonStepResult& r = *pr.result;
  ImGui::Spacing();
  if (scroll_to_result_ > 0) {
    // The answer choices stay in sight above the results.
    ImGui::SetScrollHereY(0.2f);
    --scroll_to_result_;
  }
  ImGui::Separator();
  if (step.question && pr.answered) {
    ImGui::PushFont(fonts().bold);
    badge(pr.correct ? "\xe2\x9c\x93 Your prediction was right" : "\xe2\x9c\x97 Your prediction was wrong", pr.correct ? theme::kOk : theme::kError);
    ImGui::PopFont();
  }
  draw_text_box("Output", r.stdout_text + r.stderr_text, theme::kText);
  if (r.has_error) {
    const std::string line = r.error_type + (r.error_message.empty() ? "" : ": " + r.error_message);
    draw_text_box(r.passed ? "Raised (as expected)" : "Raised", line, r.passed ? theme::kWarning : theme::kError);
  }
  if (!r.checks.empty()) {
    section("Checks");
    for (const LessonCheckResult& c : r.checks) {
      ImGui::PushFont(fonts().bold);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.passed ? theme::kOk : theme::kError), "%s", c.passed ? "\xe2\x9c\x93" : "\xe2\x9c\x97");
      ImGui::PopFont();
      ImGui::SameLine();
      ImGui::PushFont(fonts().mono);
      const std::string label = c.kind == "expr" ? c.text : c.kind + ": " + c.text;
      ImGui::TextWrapped("%s", label.c_str());
      ImGui::PopFont();
      if (!c.passed) {
        ImGui::Indent();
        if (!c.expected.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "expected: %s", c.expected.c_str());
        if (!c.actual.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "actual:   %s", c.actual.c_str());
        if (!c.detail.empty()) ImGui::TextWrapped("%s", c.detail.c_str());
        ImGui::Unindent();
      }
    }
  }
  if (!step.reveal.empty() || (step.question && !step.question->explanation.empty())) {
    section("Why");
    draw_markdown(!step.reveal.empty() ? step.reveal : step.question->explanation);
  }
  const std::vector<const LessonVerdict*> verdicts = player_.verdicts_of(index);
  if (!verdicts.empty()) {
    section("Verdict");
    for (const LessonVerdict* v : verdicts) draw_verdict_card(*v);
  }
}

void LessonView::draw_end() {
  const LessonDoc& d = *player_.doc();
  draw_markdown("## Verdicts");
  const int made = player_.predictions_made();
  if (made > 0) {
    ImGui::Text("Predictions: %d of %d right", player_.predictions_right(), made);
    ImGui::SameLine(0, 24);
  }
  const int failed = player_.checks_failed();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(failed ? theme::kError : theme::kOk), "Checks: %d passed, %d failed",
                     player_.checks_passed(), failed);
  ImGui::Spacing();
  for (const LessonVerdict& v : d.verdicts) {
    const bool shown = v.step_index >= 0 && v.step_index < int(d.steps.size()) && player_.progress(v.step_index).result;
    if (shown) {
      draw_verdict_card(v);
    } else {
      ImGui::TextDisabled("(step \"%s\" has not run yet)", v.step.c_str());
    }
  }
}

void LessonView::write_view_model(nlohmann::json& j, const UiState& ui) const {
  using nlohmann::json;
  const LessonPlayer& p = player_;
  json l = {{"shown", ui.show_lessons || ui.presenter}, {"presenter", ui.presenter}, {"phase", phase_name(p)},
            {"name", p.name()}, {"error", p.error()}, {"list", p.list().size()},
            {"list_loaded", !p.list().empty()}, {"list_error", p.list_error()}};
  if (p.doc()) {
    const LessonDoc& d = *p.doc();
    l["lesson"] = d.name;
    l["title"] = d.title;
    l["steps"] = d.steps.size();
    l["page"] = p.page() + 1;
    l["step_title"] = p.at_end() ? "" : d.steps[size_t(p.page())].title;
    int ran = 0;
    for (size_t i = 0; i < d.steps.size(); ++i) ran += p.progress(int(i)).result.has_value();
    l["steps_run"] = ran;
    l["checks_passed"] = p.checks_passed();
    l["checks_failed"] = p.checks_failed();
    l["predictions_made"] = p.predictions_made();
    l["predictions_right"] = p.predictions_right();
    json cards = json::array();
    for (const LessonVerdict* v : p.revealed_verdicts()) cards.push_back({{"verdict", v->verdict}, {"claim", v->claim}});
    l["verdicts"] = cards;
    l["verdict_count"] = cards.size();
    if (!p.at_end()) {
      const LessonStepProgress& s = p.progress(p.page());
      l["chosen"] = s.chosen;
      l["answered"] = s.answered;
      l["correct"] = s.correct;
      l["page_verdicts"] = p.verdicts_of(p.page()).size();
      if (s.result) l["page_passed"] = s.result->passed;
      l["code_wrapped_lines"] = code_wrapped_;
    }
  }
  j["lesson"] = l;
  if (ui.presenter) strip_.write_view_model(j);
}

}  // namespace ds::gui
