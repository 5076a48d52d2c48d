// The desktop app's flags on the root command line.
#include "cli/gui_flags.h"

#include <cstdio>

#include "core/errors.h"

namespace ds::cli {
namespace {

GuiFlags g_flags;

}  // namespace

const GuiFlags& gui_flags() { return g_flags; }

void GuiFlags::size_wh(int* w, int* h) const {
  char x = 0;
  int a = 0, b = 0;
  char extra = 0;
  if (std::sscanf(size.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X') || a < 320 || b < 240 ||
      a > 16384 || b > 16384)
    raise(ErrorKind::ValueError, "--size must look like 1600x1000 (at least 320x240), got " + size);
  *w = a;
  *h = b;
}

Command gui_flags_command() {
  Command c;
  c.setup = [](CLI::App& app, BackendFlags&) -> CLI::App* {
    app.add_option("--script", g_flags.script, "open this Python script in the editor (default: the starter script)");
    app.add_option("--steps", g_flags.steps, "run only the first N statements of the script (default: all)")->check(CLI::NonNegativeNumber);
    app.add_option("--timeout", g_flags.timeout,
                   "with --screenshot: interrupt the --script after SECONDS (KeyboardInterrupt), write the screenshot "
                   "of the state reached and exit 124 (0: no limit)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--screenshot", g_flags.screenshot, "render the app without a window, write this PNG (and PNG.json) and exit");
    app.add_option("--open-trace", g_flags.open_trace,
                   "show a recording made elsewhere (devicescope run --trace/--csv) in the Transfers view");
    app.add_flag("--hold-loading", g_flags.hold_loading,
                 "with --open-trace and --screenshot: show the recording still loading (its progress and Cancel)");
    app.add_option("--size", g_flags.size, "window or screenshot size, WIDTHxHEIGHT")->capture_default_str();
    app.add_option("--anim-time", g_flags.anim_time,
                   "with --screenshot: show the last step's animations this many seconds in (default: finished)");
    app.add_option("--mouse", g_flags.mouse, "with --screenshot: rest the pointer at X,Y (shows hover tooltips)");
    app.add_option("--lesson", g_flags.lesson, "open this workshop lesson (assets/lessons: a name, number or path)");
    app.add_option("--lesson-step", g_flags.lesson_step,
                   "with --lesson: show step N (the steps before it run first; past the last step: the verdicts)")
        ->check(CLI::PositiveNumber);
    app.add_option("--lesson-answer", g_flags.lesson_answer,
                   "with --lesson: pick answer K for the step's question and run the step (0: run it without a pick)")
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--presenter", g_flags.presenter, "presenter mode: large fonts, lesson + memory + names only, keyboard driven");
    app.add_option("--show", g_flags.show, "tabs or windows to open at start: timeline, bandwidth, table, console, builder, shortcuts; "
                   "by-category or by-source-line (an opened snapshot's Memory over time); fits (What fits where, estimated at start)")
        ->check(CLI::IsMember({"timeline", "bandwidth", "table", "console", "builder", "shortcuts", "by-category", "by-source-line", "fits"}));
    app.add_flag("--bench-view", g_flags.bench_view,
                 "open the Bench window (transfer sweep); with --screenshot, run one sweep to completion first");
    app.add_option("--bench-sizes", g_flags.bench_sizes, "sizes of the Bench window's sweep, e.g. 4KiB:1MiB");
    app.add_option("--bench-open", g_flags.bench_open, "recorded bench JSON files to overlay in the Bench window");
    return nullptr;  // no subcommand: main() runs run_default() unless a real subcommand was parsed
  };
  c.run = [] { return 0; };
  return c;
}

}  // namespace ds::cli
