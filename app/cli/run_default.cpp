// No subcommand given: open the desktop app (or render a screenshot / run the frame benchmark).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/gui_flags.h"

#ifdef DEVICESCOPE_HAVE_GUI
#include "gui/gui_main.h"
#include "session/python_script_session.h"
#endif

namespace ds::cli {

int run_default(const BackendFlags& flags) {
  const GuiFlags& g = gui_flags();
#ifdef DEVICESCOPE_HAVE_GUI
  gui::GuiOptions o;
  o.script_path = g.script;
  o.steps = g.steps;
  o.script_timeout = g.timeout;
  o.screenshot = g.screenshot;
  o.open_trace = g.open_trace;
  o.hold_loading = g.hold_loading;
  o.anim_time = g.anim_time;
  o.show = g.show;
  o.lesson = g.lesson;
  o.lesson_step = g.lesson_step;
  o.lesson_answer = g.lesson_answer;
  o.presenter = g.presenter;
  o.backend = flags.options();
  o.bench_view = g.bench_view;
  o.bench_sizes = g.bench_sizes;
  o.bench_open = g.bench_open;
  if (!g.mouse.empty() && std::sscanf(g.mouse.c_str(), "%f,%f", &o.mouse_x, &o.mouse_y) != 2) {
    std::cerr << "devicescope: --mouse must look like 640,300, got " << g.mouse << "\n";
    return 2;
  }
  g.size_wh(&o.width, &o.height);
  const BackendOptions backend = flags.options();
  const gui::SessionFactory make_session = [backend, o]() -> std::unique_ptr<gui::Session> {
    // The code runner: real CPython running DeviceScope's torch package over the engine.
    RuntimeOptions runtime;
    runtime.backend = backend;
    return std::make_unique<gui::PythonScriptSession>(runtime);
  };
  return gui::run_gui(o, make_session);
#else
  if (!g.script.empty() || !g.screenshot.empty() || !g.open_trace.empty() || g.presenter || !g.lesson.empty()) {
    std::cerr << "devicescope: this build has no desktop app (configured with DEVICESCOPE_GUI=OFF)\n";
    return 1;
  }
  Command c = devices_command();
  CLI::App dummy;
  BackendFlags copy = flags;
  c.setup(dummy, copy);
  return c.run();
#endif
}

}  // namespace ds::cli
