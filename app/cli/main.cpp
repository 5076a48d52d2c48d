// devicescope entry point: parses the command line and hands off to a subcommand or the desktop app.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.h"
#include "core/errors.h"

int main(int argc, char** argv) {
  CLI::App app{"DeviceScope - see and measure where PyTorch memory lives"};
  app.set_version_flag("--version", std::string("devicescope ") + DEVICESCOPE_VERSION);
  app.require_subcommand(0, 1);

  ds::cli::BackendFlags backend_flags;
  ds::cli::add_backend_flags(app, backend_flags);

  std::vector<ds::cli::Command> commands = ds::cli::all_commands();
  for (auto& c : commands) c.sub = c.setup(app, backend_flags);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& c : commands)
      if (c.sub && c.sub->parsed()) return c.run();
    return ds::cli::run_default(backend_flags);
  } catch (const ds::Error& e) {
    std::cerr << "devicescope: " << e.what() << "\n";
    return 2;
  }
}
