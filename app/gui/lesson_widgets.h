// Drawing pieces of the lesson view: wrapped Markdown, a code listing with file line numbers, verdict cards,
// answer choices and check rows. Sizes follow the current fonts, so presenter mode scales them all.
#pragma once

#include <string>

#include <imgui.h>

#include "gui/view_state/lesson_model.h"

namespace ds::gui {

// Narration: headings, paragraphs, bullets, **bold**, `code`, fenced code, wrapped to the available width.
void draw_markdown(const std::string& text, ImU32 color = 0);
// The step's code in a framed box: line numbers from `first_line`, comments dimmed. Lines wider than the
// box wrap (at a space when there is one), continuing under their own indentation behind a marker in the
// gutter; returns how many continuation lines that took.
int draw_code(const std::string& code, int first_line);
// TRUE / FALSE / HALF-TRUE card: coloured badge, the claim in bold, the one-line reason.
void draw_verdict_card(const LessonVerdict& v);
ImU32 verdict_color(const std::string& verdict);
// A framed block of monospaced text (stdout, a traceback), `color` for the text.
void draw_text_box(const char* label, const std::string& text, ImU32 color);
// One answer choice as a wide button "1  text"; state shows the pick and, after the run, the right one.
enum class ChoiceState { Idle, Picked, Right, WrongPick, RightNotPicked };
bool draw_choice(int index, const std::string& text, ChoiceState state, bool enabled);

}  // namespace ds::gui
