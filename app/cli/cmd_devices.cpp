// `devicescope devices`: every device the runtime would use, real or simulated, with capacity and link.
#include <cstdio>
#include <iostream>
#include <string>

#include "backend/link_profile.h"
#include "cli/commands.h"
#include "core/format.h"

namespace ds::cli {

Command devices_command() {
  auto flags_ptr = std::make_shared<BackendFlags*>(nullptr);
  Command c;
  c.setup = [flags_ptr](CLI::App& app, BackendFlags& flags) {
    *flags_ptr = &flags;
    return app.add_subcommand("devices", "list devices: kind, real or simulated, capacity, architecture, link profile");
  };
  c.run = [flags_ptr]() {
    BackendChoice choice = make_backend((*flags_ptr)->options());
    Backend& b = *choice.backend;
    std::cout << "backend: " << b.name() << (b.caps().simulated ? " (SIMULATED)" : "") << "\n";
    if (!choice.note.empty()) std::cout << "note: " << choice.note << "\n";
    std::cout << "cpu      host      pageable + pinned memory\n";
    for (int i = 0; i < b.device_count(); ++i) {
      DeviceProps p = b.props(i);
      const std::string arch = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
      std::printf("cuda:%-3d %-9s %-10s %-6s link %-12s %s\n", i, p.simulated ? "simulated" : "real",
                  format_bytes(p.total_bytes).c_str(), arch.c_str(), p.link.c_str(), p.name.c_str());
    }
    if (b.device_count() == 0) std::cout << "no CUDA devices (CUDA is off)\n";
    std::cout << "link profiles:\n";
    for (const LinkProfile& l : link_profiles())
      std::cout << "  " << l.name << "  " << l.arch() << "  " << l.description << "\n";
    return 0;
  };
  return c;
}

}  // namespace ds::cli
