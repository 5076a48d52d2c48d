// The application: owns the sessions, the UI state and the views; one frame() draws every view from the
// shown session's picture and then carries out the commands they submitted. No GL and no GLFW here.
// Sessions (app/session/): the live one runs the editor's script, the console, the Builder and the
// lessons; a file opened for viewing (a recording, a PyTorch memory snapshot) is a session of its own,
// shown instead of the live one until it is closed.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gui/bench_view.h"
#include "gui/builder_view.h"
#include "gui/console_view.h"
#include "gui/editor_view.h"
#include "gui/layout.h"
#include "gui/lesson_view.h"
#include "gui/main_menu.h"
#include "gui/fits_view.h"
#include "gui/memory_timeline_view.h"
#include "gui/memory_view.h"
#include "gui/module_view.h"
#include "gui/owners_view.h"
#include "gui/names_view.h"
#include "gui/status_bar.h"
#include "gui/transfer_view.h"
#include "gui/ui_state.h"
#include "session/file_session.h"
#include "session/session.h"

namespace ds::gui {

struct AppOptions {
  bool headless = false;      // screenshots: animations are frozen at `anim_time`
  double anim_time = -1;      // seconds after the last change; negative: the end state
  std::string gl_renderer;
};

class App {
 public:
  App(std::unique_ptr<Session> live, AppOptions options);
  ~App();

  // The editor's script (from a file or the starter); the session gets it too.
  void load_script(const std::string& code, const std::string& path);
  // Synchronous runs for the command line (headless screenshots).
  void run_script_blocking();
  void run_script();  // starts the whole script on the session thread, as F5 does, and returns at once
  void step_blocking(int steps);
  // Steps up to (not including) the statement at or after `line` (the starter's "step from here").
  void step_to_line_blocking(int line);

  void frame();  // inside ImGui::NewFrame() / ImGui::Render()
  bool quit_requested() const { return quit_; }
  bool busy() const { return live_->busy() || bench_.running() || opening_ != nullptr; }
  // True for a few seconds after the picture changed (migration animations want every frame).
  bool animating() const;
  // The benchmark moves the timeline and the mouse each frame so that culling and folding work.
  void bench_tick(int frame);
  std::string bench_report() const;  // instances drawn by the instanced renderer in the last frame
  // SIGINT / Ctrl+C: interrupts running code; when nothing runs, or the running code was already
  // interrupted and goes on (it catches KeyboardInterrupt, or had not started), asks to quit.
  void on_interrupt_signal();
  // Before the app ends: running code gets KeyboardInterrupt, and up to `grace_s` (or until give_up() says
  // so: another Ctrl+C) to end. False when it still runs: the session's thread cannot be joined, so the
  // caller must end the process without the clean shutdown.
  bool stop_code_before_exit(double grace_s, const std::function<bool()>& give_up);
  // A screenshot asked for from the File menu: the main loop reads the frame back and writes it.
  std::optional<std::string> take_screenshot_request();
  void notice(const std::string& text, bool error = false);
  // --lesson: opens the lesson in a fresh session and shows page `step` (1-based; the steps before it run
  // first; a step past the last shows the verdicts). answer >= 0 then runs that step (answer K picks choice
  // K, 0 runs it without a pick). Blocks; false (the reason in ui().notice) when the lesson cannot start.
  bool open_lesson_blocking(const std::string& name, int step, int answer);
  void set_presenter(bool on);  // presenter mode (lesson_view.h), as View > Presenter mode does
  // Opens a recording (Chrome trace JSON or transfers CSV) as a session of its own, read on its thread
  // (progress and Cancel in the window, a failure in a modal); once read, the window shows it instead of
  // the live session. `wait`: blocks until it is read and returns false when it cannot be (the reason in
  // ui().notice), for headless runs. `held`: the read waits (screenshots of the loading state; it is
  // cancelled when the app ends).
  bool open_trace(const std::string& path, bool wait = true, bool held = false);
  // Files dropped on the window: scripts (.py) open in the editor, anything else as a recording.
  void open_dropped(const std::vector<std::string>& paths);
  // The Bench window: the backend its sweeps use; with `open`, shows it (sizes, recorded bench files to
  // overlay) and, with `run_to_end`, runs one sweep to completion now (headless screenshots).
  void setup_bench(const BackendOptions& backend, bool open, const std::string& sizes,
                   const std::vector<std::string>& files, bool run_to_end);
  // Selects a tab: "timeline", "bandwidth", "table" (Transfers), "console", "builder".
  void show(const std::string& what);
  const UiState& ui() const { return ui_; }
  const Snapshot& picture() const { return *snapshot_; }  // what the views draw: the shown session's picture

  // Headless script runs (--script with --screenshot) end by themselves: `seconds` after this call a
  // script still running gets KeyboardInterrupt, then a second one, and then the app stops waiting for it
  // (app_timeout.cpp). 0: no limit.
  void set_blocking_timeout(double seconds);
  // "" while no blocking run overran the timeout; else what happened, in one line for the command line.
  const std::string& timeout_report() const { return timeout_report_; }
  // The script kept running after both interrupts: its worker cannot be joined, so no clean shutdown.
  bool worker_stuck() const { return worker_stuck_; }
  // Headless runs: a What fits where estimate asked for (--show fits) runs to its end before the screenshot.
  void settle_fits();

  // What the views drew, as JSON (written next to headless screenshots; tests read it).
  void write_view_model(const std::string& path, int width, int height) const;

 private:
  void poll_sessions();
  void poll_live();
  void poll_opening();  // a finished read becomes the shown recording (or the modal's message); progress for the strip
  void wait_idle_blocking();  // live_->wait_idle(), bounded by set_blocking_timeout()
  Session& shown() const { return opened_ ? static_cast<Session&>(*opened_) : *live_; }
  // Code jobs go to the live session, which the window shows again (a recording shown is closed).
  // Both return whether the session took the job (false: busy, said in the status bar).
  bool submit_code(Job job, const std::string& what);
  bool submit(Session& session, Job job, const std::string& what);
  void close_recording();
  void take_moment_changes(const std::string& diff_json);  // a Seek's comparison with the marked moment
  void execute(Commands& cmds);
  DefaultLayout apply_layout(ImGuiCond* cond);
  void draw_console_window(const Snapshot& snap, Commands& cmds);
  // Lessons (app_lessons.cpp): presenter mode's frame, and the player's next call to the idle session.
  void draw_presenter(const Snapshot& snap, Commands& cmds);
  void feed_lessons();
  void lesson_call_finished(const RunOutcome& r);
  void feed_fits();  // the What fits where window's estimate, to the idle live session

  std::unique_ptr<Session> live_;
  std::unique_ptr<FileSession> opened_;   // a file shown instead of live_ while set
  std::unique_ptr<FileSession> opening_;  // a file being read (the loading strip)
  AppOptions options_;
  UiState ui_;
  std::shared_ptr<const Snapshot> snapshot_;
  bool quit_ = false;
  std::optional<std::string> screenshot_;
  double blocking_timeout_s_ = 0;
  double blocking_deadline_ = 0;  // steady-clock seconds; 0: none
  std::string timeout_report_;
  bool worker_stuck_ = false;
  float last_display_w_ = 0, last_display_h_ = 0;
  bool file_view_ = false;  // the last frame laid out an opened file (no editor or console)
  double last_change_ = -100;

  MainMenu menu_;
  EditorView editor_;
  ConsoleView console_;
  BuilderView builder_;
  MemoryView memory_;
  TransferView transfers_;
  MemoryTimelineView memory_timeline_;
  NamesView names_;
  ModuleView modules_;
  OwnersView owners_;  // the file view's table of owners (in the Modules place)
  StatusBar status_;
  LessonView lessons_;
  BenchView bench_;
  FitsView fits_;  // What fits where: its estimate runs as a Call job on the live session
};

}  // namespace ds::gui
