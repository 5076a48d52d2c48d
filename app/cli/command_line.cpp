// The command-line conventions shared by every subcommand (see command_line.h).
#include "cli/command_line.h"

#include <algorithm>
#include <iostream>
#include <string_view>

namespace ds::cli {
namespace {

constexpr std::string_view kGlobalOptions[] = {"--backend", "--sim-devices", "--sim-memory", "--link"};

// Subcommands that run no DeviceScope engine: the global options would be silently meaningless there.
struct NoEngine {
  std::string_view sub;
  std::string_view why;
};
constexpr NoEngine kNoEngine[] = {
    {"inspect", "it reads the file and runs no code"},
    {"diff", "it reads the files and runs no code"},
    {"record", "the script runs under real PyTorch, on the devices that PyTorch finds"},
};

bool is_global_option(std::string_view name) {
  for (std::string_view g : kGlobalOptions)
    if (g == name) return true;
  return false;
}

// How often an option was given on the root and on the subcommand together (0 when neither has it).
size_t given(const CLI::App& root, const CLI::App* sub, std::string_view name) {
  size_t n = 0;
  if (const CLI::Option* o = root.get_option_no_throw(std::string(name))) n += o->count();
  if (sub)
    if (const CLI::Option* o = sub->get_option_no_throw(std::string(name))) n += o->count();
  return n;
}

// A subcommand that runs a script: its positionals are `script` and then `args` (everything else).
bool runs_a_script(const CLI::App* sub) {
  const CLI::Option* script = sub->get_option_no_throw("script");
  const CLI::Option* args = sub->get_option_no_throw("args");
  return script && args && script->get_positional() && args->get_positional();
}

CLI::App* subcommand_named(CLI::App& root, std::string_view name) {
  for (CLI::App* s : root.get_subcommands([](CLI::App*) { return true; }))
    if (s->get_name() == name) return s;
  return nullptr;
}

// Whether the option token (--name, --name=value, -h) is followed by its value as the next token.
bool takes_next_token(const CLI::App& root, const CLI::App* sub, const std::string& token) {
  if (token.find('=') != std::string::npos) return false;
  const CLI::Option* o = sub ? sub->get_option_no_throw(token) : nullptr;
  if (!o) o = root.get_option_no_throw(token);
  return o && o->get_items_expected_min() > 0;
}

}  // namespace

void add_global_options(std::vector<Command>& commands, BackendFlags& flags) {
  for (Command& c : commands)
    if (c.sub && !c.sub->get_option_no_throw("--backend")) add_backend_flags(*c.sub, flags);
}

std::vector<std::string> mark_script_arguments(CLI::App& root, int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  CLI::App* sub = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;  // from here on CLI11 reads positionals only (`run -- SCRIPT ARGS`)
    if (a.size() > 1 && a[0] == '-') {
      if (takes_next_token(root, sub, a)) ++i;
      continue;
    }
    if (!sub) {
      sub = subcommand_named(root, a);
      if (!sub) break;  // not a subcommand: CLI11 says what is wrong with it
      continue;
    }
    // The first positional of the subcommand. For a script runner it is the script: the rest is the script's.
    if (runs_a_script(sub) && i + 1 < args.size() && args[i + 1] != "--") args.insert(args.begin() + long(i) + 1, "--");
    break;
  }
  return args;
}

void check_options_apply(CLI::App& root, const CLI::App* sub) {
  if (!sub) return;
  for (const NoEngine& n : kNoEngine) {
    if (sub->get_name() != n.sub) continue;
    for (std::string_view g : kGlobalOptions)
      if (given(root, sub, g))
        throw UsageError(std::string(g) + " does not apply to `" + std::string(n.sub) + "`: " + std::string(n.why));
  }
  // The desktop app's own flags live on the root command: next to a subcommand they would do nothing.
  for (const CLI::Option* o : root.get_options()) {
    const std::string name = o->get_name();
    if (o->count() == 0 || is_global_option(name) || name == "--help" || name == "--version") continue;
    throw UsageError(name + " is an option of the desktop app (devicescope without a subcommand), not of `" +
                     sub->get_name() + "`");
  }
}

int usage_error(const CLI::App& root, const std::string& message) {
  std::string where = "devicescope";
  for (const CLI::App* s : root.get_subcommands()) where += " " + s->get_name();
  std::cerr << "devicescope: " << message << "\n(see `" << where << " --help`)\n";
  return kUsageExit;
}

int parse_failure(CLI::App& root, const CLI::ParseError& e, const std::vector<std::string>& args) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return root.exit(e);  // --help, --version
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    // CLI11 lists them last first (it parses a reversed list); argparse's words, in the order typed.
    std::vector<std::string> extra = root.remaining(true);
    auto position = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) - args.begin(); };
    std::stable_sort(extra.begin(), extra.end(), [&](const std::string& a, const std::string& b) {
      return position(a) < position(b);
    });
    std::string list;
    for (const std::string& a : extra) list += (list.empty() ? "" : " ") + a;
    if (!list.empty()) return usage_error(root, "unrecognized arguments: " + list);
  }
  return usage_error(root, e.what());
}

}  // namespace ds::cli
