// No subcommand given: until the desktop app is built in, list the devices and exit.
#include <iostream>

#include "cli/commands.h"

namespace ds::cli {

int run_default(const BackendFlags& flags) {
  Command c = devices_command();
  CLI::App dummy;
  BackendFlags copy = flags;
  c.setup(dummy, copy);
  return c.run();
}

}  // namespace ds::cli
