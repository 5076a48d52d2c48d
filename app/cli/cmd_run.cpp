// `devicescope run SCRIPT.py [-- ARGS...]`: runs a PyTorch script headless against DeviceScope's engine,
// like `python SCRIPT.py` (its output, its traceback, its exit code), and optionally writes the run's
// transfers (--csv) and event log (--trace, Chrome trace JSON) even when the script failed.
#include <sys/utsname.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"

#ifdef DEVICESCOPE_HAVE_PYTHON
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

void write_outputs(Runtime& rt, const RunArgs& a) {
  // Finish queued copies so their timings are complete (a real process exit waits for them too).
  for (int i = 0; i < rt.device_count(); ++i) rt.backend().synchronize_device(i);
  rt.poll();
  // A long run's exports hold the bounded log's window (Note [Bounded event log]): say so where the user
  // looks (the CSV has no place for it; the trace's metadata says it too).
  if ((!a.csv_path.empty() || !a.trace_path.empty()) && rt.log().windowed())
    std::cerr << "devicescope: the exports are " << rt.log().window_note() << "\n";
  if (!a.csv_path.empty())
    write_file_atomically(a.csv_path, [&](std::ostream& out) { write_transfers_csv(rt.log().transfers(), out); });
  if (!a.trace_path.empty()) {
    TraceMeta meta;
    meta.backend = rt.backend().name();
    meta.simulated = rt.backend().caps().simulated;
    meta.link = rt.backend().link().name;
    meta.version = DEVICESCOPE_VERSION;
    meta.machine = machine_line(rt);
    meta.events_dropped = rt.log().totals().events_dropped;
    meta.transfers_dropped = rt.log().totals().transfers_dropped;
    write_file_atomically(a.trace_path, [&](std::ostream& out) {
      write_chrome_trace(rt.log().events(), rt.log().transfers(), meta, out);
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

  // --timeout S: interrupt at S ("KeyboardInterrupt: script interrupted after S s"), again at 2S if the script
  // swallowed it, and at 4S give up waiting: write the exports and exit 130 (a workshop machine never hangs).
  double limit = 0;
  if (!a.timeout.empty()) {
    try {
      limit = std::stod(a.timeout);
    } catch (...) {
      limit = -1;
    }
    check(limit >= 0, "--timeout expects a number of seconds, got " + a.timeout, ErrorKind::ValueError);
  }
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  std::thread watchdog;
  if (limit > 0) {
    watchdog = std::thread([&] {
      const std::string message = "script interrupted after " + a.timeout + " s";
      const auto start = std::chrono::steady_clock::now();
      std::unique_lock lock(mu);
      for (int step = 1; step <= 3; ++step) {
        const auto due = start + std::chrono::duration<double>(limit * (step == 3 ? 4 : step));
        if (cv.wait_until(lock, due, [&] { return finished; })) return;
        if (step < 3) {
          session.interrupt(message);
          continue;
        }
        std::cerr << "Traceback (most recent call last):\n  (the script ignored KeyboardInterrupt)\nKeyboardInterrupt: "
                  << message << "\n" << std::flush;
        try {
          write_outputs(session.runtime(), a);
        } catch (...) {
        }
        std::_Exit(130);
      }
    });
  }
  const python::RunResult r = session.run_file(a.script, argv);
  if (watchdog.joinable()) {
    {
      std::lock_guard lock(mu);
      finished = true;
    }
    cv.notify_all();
    watchdog.join();
  }

  int code = r.exit_code;
  if (r.status == python::RunStatus::Error || r.status == python::RunStatus::Interrupted) {
    std::cout.flush();
    std::cerr << r.error.traceback << std::flush;
  }
  try {
    write_outputs(session.runtime(), a);
  } catch (const Error& e) {
    std::cerr << "devicescope: " << e.what() << "\n";
    if (code == 0) code = 2;
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
    sub->add_option("args", args->script_args, "arguments for the script (sys.argv[1:]); put them after --");
    sub->add_option("--trace", args->trace_path, "write the run's event log as Chrome trace JSON (Perfetto)");
    sub->add_option("--csv", args->csv_path, "write every host/device transfer as CSV");
    sub->add_option("--timeout", args->timeout,
                    "stop the script after SECONDS with KeyboardInterrupt (exit 130); exports are still written");
    add_backend_flags(*sub, flags);  // also accepted after the subcommand
    return sub;
  };
  c.run = [flags_ptr, args]() -> int {
#ifdef DEVICESCOPE_HAVE_PYTHON
    return run_script(**flags_ptr, *args);
#else
    std::cerr << "devicescope: this build has no Python support (python3-dev and pybind11-dev are needed)\n";
    return 2;
#endif
  };
  return c;
}

}  // namespace ds::cli
