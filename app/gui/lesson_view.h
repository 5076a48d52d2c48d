// The Lessons window: a browser of assets/lessons, then one lesson step by step - narration beside the code,
// predict (multiple choice), run through the session, reveal, checks, verdict cards - and presenter mode.
// The lesson rules are Python's (devicescope.lessons); this view only shows and asks (LessonPlayer).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <vector>

#include "gui/layout.h"
#include "gui/view_state/lesson_model.h"
#include "gui/transfer_strip.h"
#include "gui/ui_state.h"

namespace ds::gui {

// Presenter mode's panes over the whole window: the lesson on the left above a transfers strip
// `strip_h` high, memory and names on the right.
struct PresenterLayout {
  WindowRect lesson, transfers, memory, names;
};
PresenterLayout presenter_layout(ImVec2 pos, ImVec2 size, float strip_h);

class LessonView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  // Keys that work wherever the focus is: F11 toggles presenter mode; in presenter mode arrows, digits,
  // Enter and Esc drive the lesson. Call once per frame before the windows.
  void handle_global_keys(UiState& ui);

  LessonPlayer& player() { return player_; }
  TransferStrip& transfer_strip() { return strip_; }
  const LessonPlayer& player() const { return player_; }
  // The call the session runs for the player now (one at a time; App submits it and hands back the result).
  std::optional<LessonCall> in_flight;

  // {"name", "title", "page", "steps", "step_title", "phase", ...} for the screenshot's view model.
  void write_view_model(nlohmann::json& j, const UiState& ui) const;

 private:
  void draw_browser(UiState& ui);
  void draw_header(UiState& ui);
  void draw_step(const LessonStep& step, int index);
  void draw_end();
  void step_keys();

  LessonPlayer player_;
  TransferStrip strip_;  // presenter mode's transfers
  int code_wrapped_ = 0;  // continuation lines the step's code took this frame (view model)
  int scroll_to_top_ = 0;  // frames left to reset the scroll after a page change
  int last_page_ = -1;
  // The results of a step are scrolled into view once, when they first show (not again after Back).
  std::vector<bool> result_shown_;
  int scroll_to_result_ = 0;  // frames left
};

}  // namespace ds::gui
