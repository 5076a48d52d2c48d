// `devicescope run [OPTIONS] SCRIPT.py [ARGS...]`: runs a PyTorch script headless against DeviceScope's engine,
// like `python SCRIPT.py` (its output, its traceback, its exit code), and optionally writes the run's
// transfers (--csv) and event log (--trace, Chrome trace JSON) even when the script failed.
#include <sys/utsname.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/export_names.h"
#include "trace/export_roles.h"
#include "trace/export_target.h"

#ifdef DEVICESCOPE_HAVE_PYTHON
#include "cli/run_watchdog.h"
#include <pybind11/pybind11.h>  // the interpreter lock, to quiesce the script's threads before exporting

#include "python/python_session.h"
#endif

namespace ds::cli {
namespace {

struct RunArgs {
  std::string script;
  std::vector<std::string> script_args;
  std::string trace_path;
  std::string csv_path;
  std::string timeout;  // seconds as typed ("2", "0.5"); empty or 0: no limit
};

#ifdef DEVICESCOPE_HAVE_PYTHON
std::string machine_line(Runtime& rt) {
  std::string line;
  struct utsname u {};
  if (uname(&u) == 0) line = std::string(u.sysname) + " " + u.machine;
  if (rt.device_count() > 0) line += ", " + rt.backend().props(0).name;
  return line;
}

// What the torch package knows about the storages' names (Note [Names in exports]).
struct PythonNames {
  // What the script's names reach each live storage by ("model.conv1.weight", "x"): the names graph the
  // window draws, read as torch.cuda.memory._dump_snapshot reads it.
  std::unordered_map<uint64_t, std::vector<std::string>> holders;
  std::unordered_map<uint64_t, uint64_t> gradient_of;  // gradient storage -> its parameter's storage
};

// Empty when the script never imported torch (the export does not import it) or its globals cannot be
// walked. Needs the interpreter lock.
PythonNames python_names() {
  namespace py = pybind11;
  PythonNames out;
  try {
    if (!py::module_::import("sys").attr("modules").contains("torch")) return out;
    py::dict holders = py::module_::import("torch.cuda.memory").attr("_holder_names")();
    for (auto [id, names] : holders) {
      std::vector<std::string>& list = out.holders[id.cast<uint64_t>()];
      for (py::handle n : names) list.push_back(n.cast<std::string>());
    }
    py::dict gradients = py::module_::import("torch._devicescope_hooks").attr("gradient_storages")();
    for (auto [grad, param] : gradients) out.gradient_of[grad.cast<uint64_t>()] = param.cast<uint64_t>();
  } catch (const std::exception&) {  // py::error_already_set, py::cast_error
    out = PythonNames{};  // a script that broke torch or __main__ still gets its exports, with tags for names
  }
  return out;
}

// The log with one name per storage written into its events and copies (Note [Names in exports]).
void named_log(Runtime& rt, std::deque<Event>& events, std::deque<TransferRecord>& transfers) {
  PythonNames py = python_names();
  std::vector<LiveStorageName> live;
  for (const StoragePtr& s : rt.live_storages()) {
    auto h = py.holders.find(s->id());
    live.push_back({s->id(), s->owner(), h == py.holders.end() ? std::vector<std::string>{} : std::move(h->second)});
  }
  events = rt.log().events();
  transfers = rt.log().transfers();
  apply_export_names(export_storage_names(live, events, transfers, py.gradient_of), events, transfers);
}

void write_outputs(Runtime& rt, const RunArgs& a) {
  // Daemon threads may still be copying tensors (they run with the interpreter lock): holding it stops
  // them, so the record cannot change under the writers and the CSV and the trace show one moment.
  pybind11::gil_scoped_acquire quiesce_python_threads;
  // Finish queued copies so their timings are complete (a real process exit waits for them too).
  for (int i = 0; i < rt.device_count(); ++i) rt.backend().synchronize_device(i);
  rt.poll();
  if (a.csv_path.empty() && a.trace_path.empty()) return;
  // A long run's exports hold the bounded log's window (Note [Bounded event log]): say so where the user
  // looks (the CSV has no place for it; the trace's metadata says it too).
  if (rt.log().windowed()) std::cerr << "devicescope: the exports are " << rt.log().window_note() << "\n";
  std::deque<Event> events;
  std::deque<TransferRecord> transfers;
  named_log(rt, events, transfers);
  if (!a.csv_path.empty())
    write_file_atomically(a.csv_path, [&](std::ostream& out) { write_transfers_csv(transfers, out); });
  if (!a.trace_path.empty()) {
    TraceMeta meta;
    meta.backend = rt.backend().name();
    meta.simulated = rt.backend().caps().simulated;
    meta.link = rt.backend().link().name;
    meta.version = DEVICESCOPE_VERSION;
    meta.machine = machine_line(rt);
    meta.events_dropped = rt.log().totals().events_dropped;
    meta.transfers_dropped = rt.log().totals().transfers_dropped;
    // Each storage's role, as record writes it, so that the app colours the opened trace as the window did.
    StorageRoles live_roles;
    for (const StoragePtr& s : rt.live_storages()) live_roles[s->id()] = s->role();
    const StorageRoles roles = export_storage_roles(events, live_roles);
    write_file_atomically(a.trace_path, [&](std::ostream& out) {
      write_chrome_trace(events, transfers, meta, out, roles);
    });
  }
}

int run_script(const BackendFlags& flags, const RunArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(a.script, ec)) {
    // `python missing.py` says this and exits with 2.
    std::cerr << "devicescope: can't open file '" << a.script << "': [Errno 2] No such file or directory\n";
    return 2;
  }
  python::SessionOptions options;
  options.runtime.backend = flags.options();
  options.build_object_graph = false;  // nothing shows it headless
  options.guard_os_exit = false;       // like python: os._exit(n) ends the process at once
  python::PythonSession session(options);
  if (!session.runtime().backend_note().empty() && flags.backend == "cuda")
    std::cerr << "devicescope: " << session.runtime().backend_note() << "\n";

  std::vector<std::string> argv{a.script};
  argv.insert(argv.end(), a.script_args.begin(), a.script_args.end());

  // --timeout S: KeyboardInterrupt at S ("script interrupted after S s"), again at 2S if the script swallowed
  // it, and at 4S the watchdog says what still runs, writes the exports and exits 130 (a workshop machine
  // never hangs). SIGTERM stops the run the same way (exit 143). See run_watchdog.h.
  double limit = 0;
  if (!a.timeout.empty()) {
    try {
      limit = std::stod(a.timeout);
    } catch (...) {
      limit = -1;
    }
    check(limit >= 0, "--timeout expects a number of seconds, got " + a.timeout, ErrorKind::ValueError);
  }
  // DeviceScope's start-up is not the script's time: with a limit, torch is imported before the clock starts
  // (a loaded machine can take seconds over `import torch`).
  if (limit > 0) session.preload("torch");
  RunWatchdog watchdog(session, limit, a.timeout, [&] { write_outputs(session.runtime(), a); });
  python::RunResult r = session.run_file(a.script, argv);
  if (r.status == python::RunStatus::Error || r.status == python::RunStatus::Interrupted) {
    std::cout.flush();
    std::cerr << r.error.traceback << std::flush;
  }
  // Like python at exit: the non-daemon threads the script started finish before the process ends (and
  // before the exports, which then hold their copies too). An interrupt here leaves them running.
  const python::RunResult threads = session.wait_for_threads();
  if (threads.status == python::RunStatus::Interrupted) {
    std::cout.flush();
    std::cerr << threads.error.traceback << std::flush;
    if (r.status != python::RunStatus::Interrupted) r = threads;
  }
  watchdog.stop();

  int code = r.exit_code;
  if (r.status == python::RunStatus::Interrupted) code = watchdog.interrupted_exit_code();
  try {
    write_outputs(session.runtime(), a);
  } catch (const Error& e) {
    std::cerr << "devicescope: " << e.what() << "\n";
    if (code == 0) code = 2;
  }
  if (watchdog.sigterm_received()) code = 143;
  if (session.threads_left_running()) {
    // Python's finalization would wait for them (or run them against a torn-down runtime): end here.
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
#endif

}  // namespace

Command run_command() {
  auto flags_ptr = std::make_shared<BackendFlags*>(nullptr);
  auto args = std::make_shared<RunArgs>();
  Command c;
  c.setup = [flags_ptr, args](CLI::App& app, BackendFlags& flags) {
    *flags_ptr = &flags;
    CLI::App* sub = app.add_subcommand("run", "run a PyTorch script headless against DeviceScope's engine");
    sub->add_option("script", args->script, "the Python script (run as __main__, like `python SCRIPT.py`)")
        ->required();
    sub->add_option("args", args->script_args,
                    "arguments for the script (sys.argv[1:]): everything after the script, as with python3 (run's own "
                    "options come before the script)");
    sub->add_option("--trace", args->trace_path, "write the run's event log as Chrome trace JSON (Perfetto)");
    sub->add_option("--csv", args->csv_path, "write every host/device transfer as CSV");
    sub->add_option("--timeout", args->timeout,
                    "stop the script after SECONDS with KeyboardInterrupt (exit 130; counted from the script's first line, "
                    "start-up and `import torch` excluded); exports are still written. SIGTERM stops a run the same way "
                    "(exit 143)");
    return sub;
  };
  c.run = [flags_ptr, args]() -> int {
#ifdef DEVICESCOPE_HAVE_PYTHON
    // Now, before the script can os.chdir: relative export paths mean the directory the command started in.
    args->csv_path = absolute_export_path(args->csv_path);
    args->trace_path = absolute_export_path(args->trace_path);
    return run_script(**flags_ptr, *args);
#else
    std::cerr << "devicescope: this build has no Python support (python3-dev and pybind11-dev are needed)\n";
    return 2;
#endif
  };
  return c;
}

}  // namespace ds::cli
