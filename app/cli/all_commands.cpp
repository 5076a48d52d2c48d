// The list of subcommands. Add new ones here (one cmd_*.cpp each).
#include "cli/commands.h"

namespace ds::cli {

std::vector<Command> all_commands() { return {devices_command(), run_command(), bench_command(), lessons_command()}; }

}  // namespace ds::cli
