// `devicescope estimate [--devices N] [--json] [--depth N] SCRIPT.py [ARGS...]`: what fits where (issue 25). Runs a training
// script on N simulated devices with virtual tensors (no bytes held, no values computed) and prints each device's
// peak, when it happens and what it is made of, and the module x category tables at the forward and backward peaks
// (devicescope/estimate.py does the work in the embedded interpreter; this file parses and runs it).
//
// Exit status: 0 the run fits, 3 out of memory (shown where it happens, with PyTorch's message), 1 the script
// raised something else (its traceback on stderr, the figures up to there on stdout), 2 a command line or file
// that cannot be used.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "core/errors.h"

#ifdef DEVICESCOPE_HAVE_PYTHON
#include "python/python_session.h"
#endif

namespace ds::cli {
namespace {

struct EstimateArgs {
  std::string script;
  std::vector<std::string> script_args;
  int devices = 1;
  int depth = 0;
  bool json = false;
};

// The simulated machine unless the user chose: an 80 GiB sm_90 device (H100/H200-class).
constexpr const char* kDefaultMemory = "80GiB";
constexpr const char* kDefaultLink = "pcie5-x16";

size_t given(const CLI::App* root, const CLI::App* sub, const char* name) {
  size_t n = 0;
  if (const CLI::Option* o = root->get_option_no_throw(name)) n += o->count();
  if (const CLI::Option* o = sub->get_option_no_throw(name)) n += o->count();
  return n;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

#ifdef DEVICESCOPE_HAVE_PYTHON
int run_estimate(BackendFlags flags, const EstimateArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(a.script, ec)) {
    std::cerr << "devicescope: can't open file '" << a.script << "': [Errno 2] No such file or directory\n";
    return 2;
  }
  flags.backend = "sim";
  flags.sim_devices = a.devices;
  python::SessionOptions options;
  options.runtime.backend = flags.options();
  options.build_object_graph = false;
  options.guard_os_exit = false;
  python::PythonSession session(options);

  std::string returned;
  const std::string begin_args = "{\"script\": " + json_string(a.script) + ", \"virtual\": true, \"as_json\": " +
                                 (a.json ? "true" : "false") + "}";
  python::RunResult r = session.call("devicescope.estimate", "begin", begin_args, &returned);
  if (!r.ok()) {
    std::cerr << r.error.traceback << std::flush;
    return 1;
  }
  std::vector<std::string> argv{a.script};
  argv.insert(argv.end(), a.script_args.begin(), a.script_args.end());
  python::RunResult run = session.run_file(a.script, argv);
  const bool oom = run.status == python::RunStatus::Error && run.error.type.ends_with("OutOfMemoryError");
  if ((run.status == python::RunStatus::Error && !oom) || run.status == python::RunStatus::Interrupted) {
    std::cout.flush();
    std::cerr << run.error.traceback << std::flush;
  }
  std::string error_type, error_message;
  if (run.status == python::RunStatus::Error || run.status == python::RunStatus::Interrupted) {
    error_type = run.error.type;
    error_message = run.error.message;
  } else if (run.status == python::RunStatus::Exit && run.exit_code != 0) {
    error_type = "SystemExit";
    error_message = std::to_string(run.exit_code);
  }
  const std::string finish_args = "{\"error_type\": " + json_string(error_type) +
                                  ", \"error_message\": " + json_string(error_message) +
                                  ", \"as_json\": " + (a.json ? "true" : "false") +
                                  ", \"depth\": " + std::to_string(a.depth) + "}";
  python::RunResult f = session.call("devicescope.estimate", "finish", finish_args, &returned);
  if (!f.ok()) {
    std::cerr << f.error.traceback << std::flush;
    return 1;
  }
  if (oom) return 3;
  if (run.status == python::RunStatus::Interrupted) return 130;
  if (!error_type.empty()) return run.exit_code ? run.exit_code : 1;
  return 0;
}
#endif

}  // namespace

Command estimate_command() {
  auto flags_ptr = std::make_shared<BackendFlags*>(nullptr);
  auto root_ptr = std::make_shared<CLI::App*>(nullptr);
  auto sub_ptr = std::make_shared<CLI::App*>(nullptr);
  auto args = std::make_shared<EstimateArgs>();
  Command c;
  c.setup = [flags_ptr, root_ptr, sub_ptr, args](CLI::App& app, BackendFlags& flags) {
    *flags_ptr = &flags;
    *root_ptr = &app;
    CLI::App* sub = app.add_subcommand(
        "estimate", "what fits where: a training script's peak memory per device, by module and category, on simulated "
                    "devices with virtual tensors (no bytes held)");
    sub->add_option("script", args->script, "the training script (run as __main__, like `python SCRIPT.py`)")
        ->required();
    sub->add_option("args", args->script_args, "arguments for the script (sys.argv[1:]): everything after the script");
    sub->add_option("--devices", args->devices,
                    "simulated devices, one rank each (torch.distributed sees this world size; rank 0 is simulated)")
        ->check(CLI::Range(1, 16))
        ->capture_default_str();
    sub->add_flag("--json", args->json, "print the result as JSON (keys in README.md)");
    sub->add_option("--depth", args->depth,
                    "group the tables' rows by the first N parts of the module path (Llama.layers.3 is 3); 0: every "
                    "module (the JSON always has every module)")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
    *sub_ptr = sub;
    return sub;
  };
  c.run = [flags_ptr, root_ptr, sub_ptr, args]() -> int {
#ifdef DEVICESCOPE_HAVE_PYTHON
    BackendFlags flags = **flags_ptr;
    if (flags.backend == "cuda") {
      std::cerr << "devicescope: estimate runs on simulated devices (--backend sim); --backend cuda does not apply\n";
      return 2;
    }
    if (given(*root_ptr, *sub_ptr, "--sim-devices")) {
      std::cerr << "devicescope: estimate takes --devices N, not --sim-devices\n";
      return 2;
    }
    if (!given(*root_ptr, *sub_ptr, "--sim-memory")) flags.sim_memory = kDefaultMemory;
    if (!given(*root_ptr, *sub_ptr, "--link")) flags.link = kDefaultLink;
    try {
      return run_estimate(flags, *args);
    } catch (const Error& e) {
      std::cerr << "devicescope: " << e.what() << "\n";
      return 2;
    }
#else
    std::cerr << "devicescope: this build has no Python support (python3-dev and pybind11-dev are needed)\n";
    return 2;
#endif
  };
  return c;
}

}  // namespace ds::cli
