// The subcommands of `devicescope` and the backend flags they share.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace ds::cli {

// --backend / --sim-devices / --sim-memory / --link, accepted by every subcommand and the app.
struct BackendFlags {
  std::string backend = "auto";
  int sim_devices = 2;
  std::string sim_memory = "16GiB";
  std::string link = "pcie4-x16";
  BackendOptions options() const;  // validated; raises ds::Error(ValueError) on a bad value
};
void add_backend_flags(CLI::App& app, BackendFlags& flags);

struct Command {
  std::function<CLI::App*(CLI::App&, BackendFlags&)> setup;  // adds the subcommand and its options
  std::function<int()> run;                                   // runs it once parsed; the exit code
  CLI::App* sub = nullptr;
};

// Every subcommand; each lives in its own cmd_*.cpp and registers itself here.
std::vector<Command> all_commands();
Command devices_command();
Command bench_command();
Command run_command();  // devicescope run SCRIPT.py (cmd_run.cpp)
Command lessons_command();  // devicescope lessons [--list] [--check] (cmd_lessons.cpp)
Command inspect_command();  // devicescope inspect FILE [--json] (cmd_inspect.cpp)
Command record_command();  // devicescope record [--out FILE] [--python PY] -- SCRIPT [ARGS] (cmd_record.cpp)
Command diff_command();  // devicescope diff A B [--json] (cmd_diff.cpp)
Command estimate_command();  // devicescope estimate [--devices N] [--json] SCRIPT [ARGS] (cmd_estimate.cpp)

// No subcommand: open the desktop app (or say why it cannot).
int run_default(const BackendFlags& flags);

}  // namespace ds::cli
