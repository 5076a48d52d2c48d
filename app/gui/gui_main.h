// Entry point of the desktop app for the command line: options and the session factory.
// The CLI (app/cli/run_default.cpp) decides which Session the app gets (one line to change).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "session/session.h"

struct GLFWwindow;

namespace ds::gui {

class App;

struct GuiOptions {
  std::string script_path;      // --script: load this instead of the starter
  int steps = -1;               // --steps N: run N statements (default: the whole --script; starter: to its marker)
  std::string screenshot;       // --screenshot out.png: render headless, write the PNG (+ out.png.json), exit
  std::string open_trace;       // --open-trace FILE: show a recording (Chrome trace JSON or CSV) in Transfers
  bool hold_loading = false;    // --hold-loading: the screenshot shows --open-trace still loading
  int width = 1600, height = 1000;  // --size WxH
  double anim_time = -1;
  float mouse_x = -1, mouse_y = -1;  // --mouse X,Y: where the pointer rests in a screenshot
  std::string lesson;            // --lesson NAME [--lesson-step N] [--lesson-answer K]: open a workshop lesson
  int lesson_step = 1, lesson_answer = -1;
  bool presenter = false;       // --presenter
  std::vector<std::string> show;  // --show TAB...: tabs to select at start (bandwidth, table, builder)        // --anim-time T: screenshots show animations T seconds in (default: finished)
  double script_timeout = 300;  // --timeout S: a headless --script run is interrupted after S seconds (0: never)
  BackendOptions backend;       // what the Bench window's sweeps run on (the app's --backend flags)
  bool bench_view = false;      // --bench-view: open the Bench window (with --screenshot: run a sweep first;
                                // --bench-open alone opens it with the files only)
  std::string bench_sizes;      // --bench-sizes: the Bench window's sizes field
  std::vector<std::string> bench_open;  // --bench-open FILE...: recorded bench JSON to overlay
  std::string argv0;            // for re-running under xvfb-run
};

using SessionFactory = std::function<std::unique_ptr<Session>()>;

// Drives a headless window instead of the interactive loop (the frame benchmark, tests/bench/gui): called
// once the app is set up (its recording opened); returns the exit code.
using HeadlessDriver = std::function<int(GLFWwindow* window, App& app, const GuiOptions& options)>;

// Runs the app (or a headless screenshot, or `drive`). Returns the process exit code; prints one clear
// line and returns 1 when there is no display.
int run_gui(const GuiOptions& options, const SessionFactory& make_session, const HeadlessDriver& drive = {});

}  // namespace ds::gui
