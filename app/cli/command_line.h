// The conventions every `devicescope` command line follows, in one place (main() applies them; the cmd_*.cpp
// files only declare their own options):
// - global options (--backend, --sim-devices, --sim-memory, --link) are accepted before or after the
//   subcommand; a subcommand that runs no DeviceScope engine (inspect, diff, record) refuses them with a
//   message instead of ignoring them, and the desktop app's flags (--script, --screenshot, ...) are refused
//   next to a subcommand;
// - a subcommand that runs a script (`run SCRIPT [ARGS...]`, `record SCRIPT [ARGS...]`: its positionals are
//   `script` and `args`) passes everything after the script to it, as python3 does; its own options come
//   before the script; `SCRIPT -- ARGS` (the older form) still works, the `--` dropped;
// - usage errors print one `devicescope: ...` line (and where to find the usage) and exit 2, as argparse does.
#pragma once

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace ds::cli {

// A command line that cannot be run as typed; main() prints it and exits kUsageExit.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
inline constexpr int kUsageExit = 2;

// Adds the global options to every subcommand that does not declare them itself (after all setups ran).
void add_global_options(std::vector<Command>& commands, BackendFlags& flags);

// argv (without the program name) as it should be parsed: a `--` after a script's name, so that what
// follows it goes to the script. In order, not reversed.
std::vector<std::string> mark_script_arguments(CLI::App& root, int argc, char** argv);

// After a successful parse: raises UsageError for options given where they do not apply.
void check_options_apply(CLI::App& root, const CLI::App* sub);

// Prints "devicescope: MESSAGE" and where the usage is; returns kUsageExit.
int usage_error(const CLI::App& root, const std::string& message);

// A CLI11 parse failure: --help and --version print and return 0, anything else is a usage error.
// args: the command line as typed (without the program name), to list unexpected arguments in its order.
int parse_failure(CLI::App& root, const CLI::ParseError& e, const std::vector<std::string>& args);

}  // namespace ds::cli
