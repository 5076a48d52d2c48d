// devicescope entry point: parses the command line and hands off to a subcommand or the desktop app.
// The conventions every command line follows (global options anywhere, scripts' arguments, exit 2 on usage
// errors) are applied here, through cli/command_line.h.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "core/errors.h"

int main(int argc, char** argv) {
  CLI::App app{"DeviceScope - see and measure where PyTorch memory lives", "devicescope"};
  app.set_version_flag("--version", std::string("devicescope ") + DEVICESCOPE_VERSION);
  app.require_subcommand(0, 1);

  ds::cli::BackendFlags backend_flags;
  ds::cli::add_backend_flags(app, backend_flags);

  std::vector<ds::cli::Command> commands = ds::cli::all_commands();
  for (auto& c : commands) c.sub = c.setup(app, backend_flags);
  ds::cli::add_global_options(commands, backend_flags);

  CLI::App* sub = nullptr;
  const std::vector<std::string> typed(argv + 1, argv + argc);
  try {
    std::vector<std::string> args = ds::cli::mark_script_arguments(app, argc, argv);
    std::reverse(args.begin(), args.end());  // App::parse(vector) takes the arguments last first
    app.parse(args);
    for (auto& c : commands)
      if (c.sub && c.sub->parsed()) sub = c.sub;
    ds::cli::check_options_apply(app, sub);
  } catch (const CLI::ParseError& e) {
    return ds::cli::parse_failure(app, e, typed);
  } catch (const ds::cli::UsageError& e) {
    return ds::cli::usage_error(app, e.what());
  }
  try {
    for (auto& c : commands)
      if (c.sub && c.sub == sub) return c.run();
    return ds::cli::run_default(backend_flags);
  } catch (const ds::Error& e) {
    std::cerr << "devicescope: " << e.what() << "\n";
    return 2;
  }
}
