// App: one frame = pick up the worker's results, draw every view, then run what they asked for.
#include "gui/app.h"

#include <sys/utsname.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gui/keys.h"
#include "gui/layout.h"
#include "gui/view_state/script_statements.h"
#include "gui/recording_open_view.h"
#include "gui/theme.h"
#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"

#ifndef DEVICESCOPE_VERSION
#define DEVICESCOPE_VERSION "dev"
#endif

namespace ds::gui {
namespace {

std::string machine_line(const std::string& gl) {
  struct utsname u {};
  std::string s = uname(&u) == 0 ? std::string(u.sysname) + " " + u.machine : "unknown machine";
  return s;
  (void)gl;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

App::App(std::unique_ptr<Session> live, AppOptions options) : live_(std::move(live)), options_(std::move(options)) {
  if (options_.headless) memory_.freeze_animations(options_.anim_time);
  ui_.gl_renderer = options_.gl_renderer;
  snapshot_ = live_->snapshot();
  const SessionStatus st = live_->status();
  ui_.runner_name = st.describe;
  console_add(ui_, ConsoleLine::Kind::Info, "DeviceScope " DEVICESCOPE_VERSION " \xe2\x80\x94 " + st.describe);
}

App::~App() {
  // A recording being read is cancelled before the live session (and its interpreter) ends.
  opening_.reset();
  opened_.reset();
}

void App::load_script(const std::string& code, const std::string& path) {
  ui_.script = code;
  ui_.script_path = path;
  ui_.script_dirty = false;
  ui_.error_line = 0;
  ui_.error_traceback.clear();
  Job job;
  job.kind = JobKind::SetScript;
  job.script = code;
  submit_code(job, "Load");
}

void App::run_script_blocking() {
  wait_idle_blocking();
  poll_sessions();
  if (!timeout_report_.empty()) return;
  Job job;
  job.kind = JobKind::RunScript;
  job.script = ui_.script;
  submit_code(job, "Run");
  wait_idle_blocking();
  poll_sessions();
}

void App::run_script() {
  // The script's load (load_script) must be done: a session still busy with it would refuse the Run, and
  // the window would open with the script never started. Loading only compiles it.
  live_->wait_idle();
  Commands c;
  c.push(Commands::Kind::RunScript);
  execute(c);
}

void App::step_blocking(int steps) {
  for (int i = 0; i < steps; ++i) {
    wait_idle_blocking();
    poll_sessions();
    if (ui_.current_line == 0 || ui_.error_line > 0 || !timeout_report_.empty()) break;
    Job job;
    job.kind = JobKind::Step;
    job.script = ui_.script;
    submit_code(job, "Step");
  }
  wait_idle_blocking();
  poll_sessions();
}

void App::step_to_line_blocking(int line) {
  int steps = 0;
  for (const Statement& s : split_statements(ui_.script))
    if (s.first_line < line) ++steps;
  step_blocking(steps);
}

void App::notice(const std::string& text, bool error) {
  ui_.notice = text;
  ui_.notice_error = error;
  ui_.notice_until = ImGui::GetCurrentContext() ? ImGui::GetTime() + 6.0 : 6.0;
  if (error) console_add(ui_, ConsoleLine::Kind::Error, text);
}

bool App::open_trace(const std::string& path, bool wait, bool held) {
  if (opening_) return false;  // one read at a time: the caller says so
  opening_ = open_file_session(path, held);  // a recording or a PyTorch memory snapshot, by its content
  ui_.show_transfers = true;
  if (!wait || held) return true;
  opening_->wait_idle();
  poll_opening();
  return opened_ && opened_->path() == path;
}

void App::open_dropped(const std::vector<std::string>& paths) {
  Commands c;
  for (const std::string& p : paths) {
    const bool script = p.size() > 3 && p.compare(p.size() - 3, 3, ".py") == 0;
    c.push(script ? Commands::Kind::OpenScript : Commands::Kind::OpenTrace, p);
  }
  execute(c);
}

void App::poll_opening() {
  if (opening_) {
    for (FinishedJob& f : opening_->take_finished()) {
      const RunOutcome& r = f.outcome;
      const std::string path = opening_->path();
      if (r.ok) {
        opened_ = std::move(opening_);
        ui_.prebuilt_models = opened_->take_models();
        ui_.memory_timelines = opened_->memory_timelines();
        ui_.memory_moment_bucket = -1;
        ui_.recording_path = path;
        ui_.show_transfers = true;
        ui_.open_error.clear();
        const std::shared_ptr<const Snapshot> pic = opened_->snapshot();
        notice(std::string("Opened ") + opened_->kind() + " " + path + " (" + std::to_string(pic->transfers.size()) +
               " transfers, " + std::to_string(pic->storages.size()) + " live blocks)");
      } else if (r.interrupted) {
        opening_.reset();
        notice("Cancelled opening " + path);
      } else {
        // What was shown before stays: only the modal and the status bar change.
        opening_.reset();
        ui_.open_error = r.error_message;
        notice(r.error_message, true);
      }
      break;  // Open is the only job a session being opened runs
    }
  }
  ui_.loading_path = opening_ ? opening_->path() : std::string();
  const LoadProgress* p = opening_ ? opening_->load_progress() : nullptr;
  ui_.loading_read = p ? p->bytes_read.load() : 0;
  ui_.loading_done = p ? p->bytes_done.load() : 0;
  ui_.loading_total = p ? p->bytes_total.load() : 0;
  ui_.loading_fraction = p ? p->fraction() : 0;
}

void App::take_moment_changes(const std::string& diff_json) {
  ui_.memory_changes.clear();
  ui_.memory_changes_known = !diff_json.empty();
  if (diff_json.empty()) return;
  const nlohmann::json d = nlohmann::json::parse(diff_json);  // written by moment_diff_json on the session's thread
  ui_.memory_changes_allocated = d["allocated_bytes"].get<uint64_t>();
  ui_.memory_changes_freed = d["freed_bytes"].get<uint64_t>();
  for (const nlohmann::json& o : d["owners"])
    ui_.memory_changes.push_back({o["owner"].get<std::string>(), o["place"].get<std::string>(), o["allocated"].get<uint64_t>(),
                                  o["freed"].get<uint64_t>(), o["bytes_a"].get<uint64_t>(), o["bytes_b"].get<uint64_t>()});
}

void App::close_recording() {
  opened_.reset();
  ui_.recording_path.clear();
  ui_.prebuilt_models.reset();
  ui_.memory_timelines.reset();
  ui_.memory_moment_bucket = ui_.memory_mark_bucket = -1;
  ui_.memory_changes.clear();
  ui_.memory_changes_known = false;
}

void App::setup_bench(const BackendOptions& backend, bool open, const std::string& sizes,
                      const std::vector<std::string>& files, bool run_to_end) {
  bench_.set_backend(backend);
  if (!open) return;
  ui_.show_bench = true;
  if (!sizes.empty()) bench_.set_sizes(sizes);
  for (const std::string& f : files)
    if (!bench_.open_file(f)) notice(bench_.error(), true);
  if (run_to_end && bench_.start()) bench_.wait();
}

void App::show(const std::string& what) {
  if (what == "timeline") ui_.transfer_tab_request = 0;
  if (what == "bandwidth") ui_.transfer_tab_request = 1;
  if (what == "table") ui_.transfer_tab_request = 2;
  if (what == "console") ui_.console_tab_request = 0;
  if (what == "builder") ui_.console_tab_request = 1;
  if (what == "shortcuts") ui_.show_shortcuts = true;
  if (what == "fits") ui_.show_fits = true, fits_.request();  // What fits where, estimated at start
  if (what == "by-category") ui_.memory_by_category = 1;  // Memory over time's stacking (an opened snapshot)
  if (what == "by-source-line") ui_.memory_by_category = 0;
}

bool App::animating() const { return ImGui::GetTime() - last_change_ < 3.0; }

void App::bench_tick(int frame) {
  // Sweep the visible time range: zoom from the whole recording into 1/50 of it and pan along (over
  // the opened recording when there is one: --open-trace FILE --bench-frames times its frames).
  const Snapshot* shown = snapshot_.get();
  if (!shown || shown->transfers.empty()) return;
  const double t0 = double(shown->transfers.front().start_ns), t1 = double(shown->transfers.back().end_ns);
  const double span = (t1 - t0) * (1.0 - 0.98 * double(frame % 100) / 100.0);
  const double start = t0 + (t1 - t0 - span) * double(frame % 37) / 37.0;
  ui_.timeline_fit = false;
  ui_.view_t0 = start;
  ui_.view_t1 = start + span;
}

std::string App::bench_report() const {
  size_t memory = 0;
  for (const MemoryView::PaneInfo& p : memory_.panes()) memory += p.layout->quads.size();
  return std::to_string(memory) + " memory-map instances, " + std::to_string(transfers_.last_timeline_quads()) +
         " timeline instances (" + std::to_string(transfers_.last_folded()) + " folded)";
}

void App::on_interrupt_signal() {
  if (live_->busy() && live_->interrupt_requested()) {
    quit_ = true;  // Ctrl+C again while the stopped code goes on (it swallows KeyboardInterrupt): quit
  } else if (live_->busy()) {
    live_->interrupt();
    notice("Interrupted (Ctrl+C)");
  } else if (opening_) {
    opening_->interrupt();  // a recording being opened: Ctrl+C cancels it, as its Cancel button does
  } else {
    quit_ = true;
  }
}

bool App::stop_code_before_exit(double grace_s, const std::function<bool()>& give_up) {
  if (!live_->busy()) return true;
  live_->interrupt();
  // Short waits, so that another Ctrl+C ends the wait at once.
  for (double waited = 0; waited < grace_s && !give_up(); waited += 0.05)
    if (live_->wait_idle_for(0.05)) return true;
  return !live_->busy();
}

std::optional<std::string> App::take_screenshot_request() {
  std::optional<std::string> s;
  s.swap(screenshot_);
  return s;
}

bool App::submit_code(Job job, const std::string& what) {
  if (job.script && job.script_name.empty()) job.script_name = ui_.script_path;  // tracebacks name the file
  if (opened_) {
    notice("Back to the live session (closed " + opened_->path() + ")");
    close_recording();
  }
  return submit(*live_, std::move(job), what);
}

bool App::submit(Session& session, Job job, const std::string& what) {
  if (!session.submit(std::move(job))) {
    notice("Busy: wait for the running code or press Stop", true);
    return false;
  }
  ui_.running = true;
  ui_.running_what = what;
  ui_.running_since = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0;
  return true;
}

void App::poll_sessions() {
  poll_live();
  if (opened_)
    for (FinishedJob& f : opened_->take_finished()) {  // its exports and moments
      if (!f.outcome.ok) notice(f.outcome.error_message, true);
      else if (f.job.kind == JobKind::ExportTrace) notice("Exported " + f.job.line);
      else if (f.job.kind == JobKind::Seek) take_moment_changes(f.outcome.result_json);
    }
  poll_opening();
  ui_.running = live_->busy() || (opened_ && opened_->busy());
  std::shared_ptr<const Snapshot> snap = shown().snapshot();
  if (snap && snap != snapshot_) {
    snapshot_ = std::move(snap);
    ++ui_.snapshot_version;
    last_change_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0;
  }
  const SessionStatus st = live_->status();  // the editor's cursor is the live session's
  ui_.current_line = st.current_line;
  ui_.statements_done = st.statements_done;
  ui_.statement_count = st.statement_count;
  ui_.runner_name = shown().status().describe;
}

void App::poll_live() {
  for (FinishedJob& f : live_->take_finished()) {
    const RunOutcome& r = f.outcome;
    if (!r.output.empty()) console_add(ui_, ConsoleLine::Kind::Output, r.output);
    const bool script_job = f.job.kind == JobKind::RunScript || f.job.kind == JobKind::Step ||
                            f.job.kind == JobKind::StepBack || f.job.kind == JobKind::Reset || f.job.kind == JobKind::SetScript;
    if (!r.ok) {
      console_add(ui_, ConsoleLine::Kind::Error, r.traceback.empty() ? r.error_type + ": " + r.error_message : r.traceback);
      if (script_job) {
        ui_.error_line = r.error_line;
        ui_.error_traceback = r.traceback;
      }
      if (r.interrupted) notice("Stopped: KeyboardInterrupt");
      else if (f.job.kind == JobKind::ExportTrace) notice(r.error_message, true);
    } else {
      if (script_job) {
        ui_.error_line = 0;
        ui_.error_traceback.clear();
      }
      if (f.job.kind == JobKind::BuilderLine && f.job.script) {
        ui_.script = *f.job.script;  // the line joins the script only once it ran
        ui_.script_dirty = true;
      }
      if (f.job.kind == JobKind::ExportTrace) notice("Exported " + f.job.line);
      if (f.job.kind == JobKind::RunScript) console_add(ui_, ConsoleLine::Kind::Info, "\xe2\x9c\x93 finished in " + fmt_duration(f.seconds * 1e9));
    }
    if (f.job.kind == JobKind::Call && f.job.line == FitsView::kFunction) {
      std::string why;
      if (!r.ok) why = r.interrupted ? "Stopped (KeyboardInterrupt)" : r.error_type + (r.error_message.empty() ? "" : ": " + r.error_message);
      fits_.on_result(r.ok, r.result_json, why);
    } else if (f.job.kind == JobKind::Call) {
      lesson_call_finished(r);
    }
  }
}

DefaultLayout App::apply_layout(ImGuiCond* cond) {
  // The work area below the menu bar and above the status bar, from the viewport itself (the
  // viewport's WorkPos only accounts for the menu bar from the second frame on).
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  if (vp->Size.x != last_display_w_ || vp->Size.y != last_display_h_) {
    // The OS window changed size: tile the windows again to fill it.
    if (last_display_w_ > 0) ui_.reset_layout = true;
    last_display_w_ = vp->Size.x;
    last_display_h_ = vp->Size.y;
  }
  // Opening a file (or going back to live) tiles the windows again: the file view has other places.
  const bool file_view = !ui_.recording_path.empty() && !ui_.show_lessons;
  if (file_view != file_view_) ui_.reset_layout = true;
  file_view_ = file_view;
  *cond = ui_.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  if (ui_.reset_layout) ui_.show_memory = ui_.show_transfers = ui_.show_names = ui_.show_modules = ui_.show_editor = ui_.show_console = true;
  ui_.reset_layout = false;
  const float menu = ImGui::GetFrameHeight();
  const ImVec2 pos(vp->Pos.x, vp->Pos.y + menu), size(vp->Size.x, vp->Size.y - menu - StatusBar::kHeight);
  return file_view ? file_layout(pos, size) : default_layout(pos, size);
}

void App::draw_console_window(const Snapshot& snap, Commands& cmds) {
  if (!ImGui::Begin("Console", &ui_.show_console)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTabBar("##console_tabs")) {
    auto flags = [&](int tab) { return ui_.console_tab_request == tab ? ImGuiTabItemFlags_SetSelected : 0; };
    if (ImGui::BeginTabItem("Console", nullptr, flags(0))) {
      console_.draw_contents(ui_, cmds);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Builder", nullptr, flags(1))) {
      ImGui::BeginChild("##builder");
      builder_.draw_contents(snap, ui_, cmds);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ui_.console_tab_request = -1;
  ImGui::End();
}

void App::frame() {
  poll_sessions();
  ui_.pointed_storage = ui_.hovered_storage;
  ui_.hovered_storage = 0;
  static const Snapshot kEmpty;
  const Snapshot& snap = snapshot_ ? *snapshot_ : kEmpty;
  Commands cmds;

  // Ctrl+C stops running code (copying text is not possible then: the editor is read-only).
  if (ui_.running && keys::ctrl() && keys::pressed(GLFW_KEY_C)) cmds.push(Commands::Kind::Stop);

  lessons_.handle_global_keys(ui_);
  if (ui_.presenter) return draw_presenter(snap, cmds);  // lesson, memory and names only
  menu_.draw(snap, ui_, cmds);
  ImGuiCond cond;
  const DefaultLayout l = apply_layout(&cond);
  // Each view's first Begin() takes the rect placed just before it (no docking in ImGui 1.86).
  static const char* const kWindows[] = {"###Editor", "Console", "Memory", "Transfers", "Names", "Modules"};
  auto place = [&](const WindowRect& r, int i) {
    place_next_window(r, cond);
    opaque_if_overlapping(kWindows[i], kWindows, 6);
  };
  // An open Lessons window takes the editor's column (the code shown is the lesson's).
  if (ui_.show_lessons) {
    place_next_window({l.editor.pos, ImVec2(l.editor.size.x, l.console.pos.y + l.console.size.y - l.editor.pos.y)}, cond);
    lessons_.draw(snap, ui_, cmds);
  }
  // An opened file runs no code: no editor, no console (issue 24 item 7).
  if (ui_.show_editor && !ui_.show_lessons && !file_view_) place(l.editor, 0), editor_.draw(snap, ui_, cmds);
  if (ui_.show_console && !ui_.show_lessons && !file_view_) place(l.console, 1), draw_console_window(snap, cmds);
  if (ui_.show_memory) place(l.memory, 2), memory_.draw(snap, ui_, cmds);
  if (ui_.show_transfers) {
    place(l.transfers, 3);
    if (ui_.memory_timelines) memory_timeline_.draw(*ui_.memory_timelines, ui_, cmds);  // a PyTorch snapshot shown
    else transfers_.draw(snap, ui_, cmds);
  }
  if (ui_.show_names) place(l.names, 4), names_.draw(snap, ui_, cmds);
  if (ui_.show_modules) {
    place(l.modules, 5);
    if (file_view_) owners_.draw(snap, ui_);
    else modules_.draw(snap, ui_, cmds);
  }
  bench_.poll();  // a sweep that ended while the window was hidden still joins the runs
  if (ui_.show_bench) bench_.draw(snap, ui_, cmds);
  if (ui_.show_fits) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_FirstUseEver, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(vp->Size.x * 0.8f, vp->Size.y * 0.8f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(1.0f);  // it floats over the tiled views
    fits_.draw(ui_);
  }
  feed_fits();
  menu_.draw_floating(ui_, cmds);
  status_.draw(snap, ui_, cmds);
  draw_open_error(ui_);
  execute(cmds);
  feed_lessons();
}

void App::execute(Commands& cmds) {
  for (Commands::Command& c : cmds.list) {
    Job job;
    job.script = ui_.script;
    switch (c.kind) {
      case Commands::Kind::RunScript:
        console_add(ui_, ConsoleLine::Kind::Info, "\xe2\x96\xb6 Run");
        job.kind = JobKind::RunScript;
        submit_code(job, "Running");
        break;
      case Commands::Kind::Step: {
        for (const Statement& s : split_statements(ui_.script))
          if (s.first_line == ui_.current_line)
            console_add(ui_, ConsoleLine::Kind::Input, std::to_string(s.first_line) + "\xe2\x96\xb8 " + first_line(s.text));
        job.kind = JobKind::Step;
        submit_code(job, "Step");
        break;
      }
      case Commands::Kind::StepBack:
        job.kind = JobKind::StepBack;
        submit_code(job, "Stepping back");
        break;
      case Commands::Kind::Reset:
        console_add(ui_, ConsoleLine::Kind::Info, "\xe2\x86\xba Reset");
        job.kind = JobKind::Reset;
        submit_code(job, "Reset");
        break;
      case Commands::Kind::Stop:
        live_->interrupt();
        break;
      case Commands::Kind::RunLine:
        console_add(ui_, ConsoleLine::Kind::Input, ">>> " + c.text);
        job.kind = JobKind::RunLine;
        job.script.reset();
        job.line = c.text;
        submit_code(job, "Running");
        break;
      case Commands::Kind::BuilderLine: {
        console_add(ui_, ConsoleLine::Kind::Input, ">>> " + c.text);
        std::string script = ui_.script;
        if (!script.empty() && script.back() != '\n') script += '\n';
        job.kind = JobKind::BuilderLine;
        job.script = script + c.text + "\n";
        job.line = c.text;
        submit_code(job, "Builder");
        break;
      }
      case Commands::Kind::OpenScript: {
        std::ifstream in(c.text);
        if (!in) {
          notice("cannot read " + c.text, true);
          break;
        }
        std::stringstream ss;
        ss << in.rdbuf();
        load_script(ss.str(), c.text);
        notice("Opened " + c.text);
        break;
      }
      case Commands::Kind::SaveScript:
        try {
          write_file_atomically(c.text, [&](std::ostream& out) { out << ui_.script; });
          ui_.script_path = c.text;
          ui_.script_dirty = false;
          notice("Saved " + c.text);
        } catch (const std::exception& e) {
          notice(e.what(), true);
        }
        break;
      case Commands::Kind::ExportCsv:
        try {
          const Snapshot& s = *snapshot_;
          const std::deque<TransferRecord> transfers(s.transfers.begin(), s.transfers.end());
          write_file_atomically(c.text, [&](std::ostream& out) { write_transfers_csv(transfers, out); });
          notice("Exported " + std::to_string(transfers.size()) + " transfers to " + c.text);
        } catch (const std::exception& e) {
          notice(e.what(), true);
        }
        break;
      case Commands::Kind::ExportTrace:
        job.kind = JobKind::ExportTrace;
        job.script.reset();
        job.line = c.text;
        job.meta_version = DEVICESCOPE_VERSION;
        job.meta_machine = machine_line(ui_.gl_renderer);
        submit(shown(), job, "Exporting");  // an opened recording keeps what its writer said about itself
        break;
      case Commands::Kind::Screenshot:
        screenshot_ = c.text;
        break;
      case Commands::Kind::OpenTrace:
        // On the loader's thread: the window stays responsive, the Transfers view shows the progress.
        if (open_trace(c.text, false)) notice("Opening " + c.text + "\xe2\x80\xa6");
        else notice("Still opening " + opening_->path() + ": wait for it or press Cancel", true);
        break;
      case Commands::Kind::SeekMoment:
        if (opened_) {
          job.kind = JobKind::Seek;
          job.script.reset();
          job.line = c.text;
          submit(*opened_, job, "Seeking");
        }
        break;
      case Commands::Kind::CancelOpenTrace:
        if (opening_) opening_->interrupt();
        break;
      case Commands::Kind::CloseTrace:
        close_recording();
        break;
      case Commands::Kind::Quit:
        quit_ = true;
        break;
      case Commands::Kind::OpenBench:
        ui_.show_bench = true;
        if (bench_.open_file(c.text)) notice("Opened bench run " + c.text);
        else notice(bench_.error(), true);
        break;
      case Commands::Kind::SaveBenchJson:
      case Commands::Kind::SaveBenchCsv:
        try {
          if (c.kind == Commands::Kind::SaveBenchJson) bench_.save_json(c.text);
          else bench_.save_csv(c.text);
          notice("Saved bench run to " + c.text);
        } catch (const std::exception& e) {
          notice(e.what(), true);
        }
        break;
    }
  }
}

}  // namespace ds::gui
