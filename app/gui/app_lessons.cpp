// App's lesson plumbing: presenter mode's frame, the lesson player's calls through the session runner, and
// --lesson for headless screenshots.
#include <imgui.h>

#include <algorithm>

#include "gui/app.h"

namespace ds::gui {

void App::set_presenter(bool on) {
  ui_.presenter = on;
  if (on) ui_.show_lessons = true;
  else ui_.reset_layout = true;
}

void App::draw_presenter(const Snapshot& snap, Commands& cmds) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // The transfers strip is one line until there are copies to show, then up to four rows.
  const size_t copies = std::min(snap.transfers.size(), TransferStrip::kMaxRows);
  const PresenterLayout l = presenter_layout(vp->Pos, vp->Size, TransferStrip::height_for(copies));
  last_display_w_ = vp->Size.x;  // leaving presenter mode re-tiles through reset_layout, not a resize
  last_display_h_ = vp->Size.y;
  place_next_window(l.lesson, ImGuiCond_Always);
  // No lesson open but a script given (--presenter --script X): present the script, not the lesson list.
  if (!lessons_.player().active() && !ui_.script_path.empty()) {
    ui_.show_editor = true;
    editor_.draw(snap, ui_, cmds);
  } else {
    lessons_.draw(snap, ui_, cmds);
  }
  lessons_.transfer_strip().draw(snap, l.transfers);
  place_next_window(l.memory, ImGuiCond_Always);
  ui_.show_memory = true;
  memory_.draw(snap, ui_, cmds);
  place_next_window(l.names, ImGuiCond_Always);
  ui_.show_names = true;
  names_.draw(snap, ui_, cmds);
  execute(cmds);
  feed_lessons();
}

void App::feed_lessons() {
  LessonPlayer& p = lessons_.player();
  if (lessons_.in_flight || live_->busy() || !p.has_call()) return;
  const std::optional<LessonCall> call = p.take_call();
  Job job;
  job.kind = JobKind::Call;
  job.line = "devicescope.lessons." + call->function;
  job.call_args = call->args_json;
  job.reset_first = call->reset_first;
  lessons_.in_flight = *call;
  // Not accepted: report it as failed rather than wait forever. (Asking busy() afterwards would be a race:
  // a quick call can finish before the question is asked.)
  if (!submit_code(job, call->what == LessonCall::What::Run ? "Running a lesson step" : "Lesson")) {
    lessons_.in_flight.reset();
    p.on_result(*call, false, "", "the session was busy");
  }
}

void App::feed_fits() {
  if (!fits_.pending() || live_->busy() || lessons_.in_flight) return;
  const std::optional<FitsRequest> request = fits_.take_request();
  Job job;
  job.kind = JobKind::Call;
  job.line = FitsView::kFunction;
  job.call_args = request->kwargs_json();
  if (submit_code(job, "Estimating a training step")) fits_.set_running();
  else fits_.on_result(false, "", "the session was busy");
}

void App::settle_fits() {
  if (!fits_.pending()) return;
  live_->wait_idle();
  feed_fits();
  wait_idle_blocking();
  poll_sessions();
}

void App::lesson_call_finished(const RunOutcome& r) {
  if (!lessons_.in_flight) return;
  const LessonCall call = *lessons_.in_flight;
  lessons_.in_flight.reset();
  std::string why;
  if (!r.ok) why = r.interrupted ? "Stopped (KeyboardInterrupt)" : r.error_type + (r.error_message.empty() ? "" : ": " + r.error_message);
  lessons_.player().on_result(call, r.ok, r.result_json, why);
}

bool App::open_lesson_blocking(const std::string& name, int step, int answer) {
  LessonPlayer& p = lessons_.player();
  ui_.show_lessons = true;
  auto pump = [&] {
    for (;;) {
      live_->wait_idle();
      poll_sessions();
      if (!p.has_call() && !lessons_.in_flight) break;
      feed_lessons();
    }
  };
  if (name.empty()) {  // --presenter alone: the lesson browser, with its list read
    p.request_list();
    pump();
    return true;
  }
  p.open(name);
  pump();
  if (!p.doc()) {
    notice(p.error().empty() ? "cannot open lesson " + name : p.error(), true);
    return false;
  }
  const int n = int(p.doc()->steps.size());
  const int page = std::min(std::max(step, 1) - 1, n);
  for (int i = 0; i < page; ++i) {
    p.go_to(i);
    p.run_current();
    pump();
  }
  p.go_to(page);
  if (answer >= 0 && page < n) {
    if (answer > 0) p.choose(answer - 1);
    p.run_current();
    pump();
  }
  return true;
}

}  // namespace ds::gui
