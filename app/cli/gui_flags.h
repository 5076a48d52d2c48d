// Command-line flags of the desktop app (given without a subcommand): --script, --steps, --screenshot,
// --size, --lesson, --presenter, --open-trace, the Bench window's flags.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace ds::cli {

struct GuiFlags {
  std::string script;
  int steps = -1;
  double timeout = 300;  // --timeout: a headless --script run is interrupted after this many seconds
  std::string screenshot;
  std::string open_trace;
  bool hold_loading = false;  // --hold-loading: the screenshot shows --open-trace still loading
  std::string size = "1600x1000";
  double anim_time = -1;
  std::string mouse;  // "X,Y"
  bool bench_view = false;
  std::string bench_sizes;
  std::vector<std::string> bench_open;
  std::string lesson;      // --lesson NAME
  int lesson_step = 1;
  int lesson_answer = -1;
  bool presenter = false;
  std::vector<std::string> show;  // tabs to open at start
  void size_wh(int* w, int* h) const;     // raises ds::Error(ValueError) on a bad --size
};

// The flags live on the root command; this "command" only adds them (it has no subcommand).
Command gui_flags_command();
const GuiFlags& gui_flags();

}  // namespace ds::cli
