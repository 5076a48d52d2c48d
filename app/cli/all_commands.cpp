// The list of subcommands. Add new ones here (one cmd_*.cpp each).
#include "cli/commands.h"
#include "cli/gui_flags.h"

namespace ds::cli {

std::vector<Command> all_commands() { return {devices_command(), run_command(), bench_command(), gui_flags_command(), lessons_command(), inspect_command(), record_command(), diff_command(), estimate_command()}; }

}  // namespace ds::cli
