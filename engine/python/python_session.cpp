// PythonSession: owns the embedded interpreter, binds it to a ds::Runtime, and drives the helper module
// _ds_session.py (which does the exec/ast/traceback work on the Python side).
#include "python_session.h"

#include <pybind11/embed.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>

#include "bindings_common.h"
#include "core/install_layout.h"
#include "tensor/blas_gemm.h"

namespace ds::python {

namespace {

std::string package_dir() {
  // $DEVICESCOPE_PYTHON_DIR, else an installed binary's copy beside it, else the source tree (a build).
  if (const char* env = std::getenv("DEVICESCOPE_PYTHON_DIR"); env && *env) return env;
  if (const std::string installed = installed_data_dir("engine/python/_ds_session.py"); !installed.empty())
    return installed + "/engine/python";
  return DEVICESCOPE_PYTHON_DIR;
}

RunResult result_from_tuple(const py::handle r) {
  py::tuple t = py::reinterpret_borrow<py::tuple>(r);
  RunResult out;
  out.status = RunStatus(t[0].cast<int>());
  out.exit_code = t[1].cast<int>();
  if (out.status == RunStatus::Error || out.status == RunStatus::Interrupted) {
    out.error.type = t[2].cast<std::string>();
    out.error.message = t[3].cast<std::string>();
    out.error.traceback = t[4].cast<std::string>();
    out.error.line = t[5].cast<int>();
  }
  return out;
}

#ifndef DEVICESCOPE_PYTHON_EXECUTABLE
#define DEVICESCOPE_PYTHON_EXECUTABLE ""
#endif

// The interpreter's home: Python derives sys.prefix (and so sys.path) from the executable it believes it
// is, by default the first `python3` on PATH. A virtualenv's or pyenv's python3 there would give a prefix
// without the Debian packages (numpy) that DeviceScope's torch needs, so name the interpreter the build
// linked against. PYTHONHOME still wins, as it does for python3 itself.
void pin_program_name(PyConfig& config) {
  const std::string exe = DEVICESCOPE_PYTHON_EXECUTABLE;
  if (exe.empty()) return;
  PyConfig_SetBytesString(&config, &config.program_name, exe.c_str());
}

// Compiled modules go to a cache folder (Python's pycache_prefix), never beside the sources: `import torch`
// compiles about 160 modules, some 0.4 s of CPU, and would do it on every run. A build running its own
// source tree's package uses the cache the build filled (cmake/compile_bytecode.py), so that even a run that
// may not write bytecode (PYTHONDONTWRITEBYTECODE=1) starts compiled; anything else a per-user cache.
// PYTHONPYCACHEPREFIX (read from the environment) still wins; with no cache directory known nothing is
// written. Python writes each file atomically and skips the cache silently where it cannot write.
std::string bytecode_cache_dir() {
#ifdef DEVICESCOPE_BYTECODE_DIR
  std::error_code ec;
  if (package_dir() == DEVICESCOPE_PYTHON_DIR && std::filesystem::is_directory(DEVICESCOPE_BYTECODE_DIR, ec))
    return DEVICESCOPE_BYTECODE_DIR;
#endif
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return std::string(xdg) + "/devicescope/pycache";
  if (const char* home = std::getenv("HOME"); home && *home == '/') return std::string(home) + "/.cache/devicescope/pycache";
  return {};
}

// Python installs its SIGINT handler only where SIGINT is at its default action; a process started in the
// background by a non-interactive shell inherits SIGINT ignored, and python3 then never stops on Ctrl+C.
// DeviceScope always does.
void honour_sigint() {
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN)
    std::signal(SIGINT, SIG_DFL);
}

// Whether SIGINT reaches a handler (Python's, after Py_Initialize) rather than being ignored or killing us.
bool sigint_is_handled() {
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0) return false;
  if (current.sa_flags & SA_SIGINFO) return current.sa_sigaction != nullptr;
  return current.sa_handler != SIG_IGN && current.sa_handler != SIG_DFL;
}

// True when the kernel thread is blocked in read(0, ...): input() waiting for standard input.
bool blocked_reading_stdin(long tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long number = -1;
  std::string fd;
  if (!(in >> number >> fd)) return false;
  return number == SYS_read && (fd == "0x0" || fd == "0");
}

}  // namespace

struct __attribute__((visibility("hidden"))) PythonSession::Interp {
  std::unique_ptr<py::scoped_interpreter> guard;
  py::object helper;              // the _ds_session module
  PyThreadState* saved = nullptr;  // the creating thread's state while the GIL is released
};

PythonSession::PythonSession(SessionOptions options) : options_(std::move(options)) {
  // Loads the BLAS with OpenBLAS's settings before numpy loads it, leaving the user's environment as it was
  // (a script's subprocesses inherit it; tensor/blas_gemm.h).
  blas_available();
  runtime_ = Runtime::create(options_.runtime);
  // PEP 540 UTF-8 mode, as the python executable uses in a C/POSIX locale: a host program never calls
  // setlocale(), so without it print("café") would fail with an ASCII codec. PYTHONUTF8=0 turns it off.
  // The isolated pre-config leaves the process's C locale untouched.
  if (!Py_IsInitialized()) {
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    const char* env = std::getenv("PYTHONUTF8");
    pre.utf8_mode = (env && std::string(env) == "0") ? 0 : 1;
    Py_PreInitialize(&pre);
  }
  if (options_.install_signal_handlers) honour_sigint();
  interp_ = std::make_unique<Interp>();
  {
    // pybind11's default configuration (environment honoured, not isolated) with the program name pinned.
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.isolated = 0;
    config.use_environment = 1;
    config.install_signal_handlers = options_.install_signal_handlers ? 1 : 0;
    pin_program_name(config);
    const char* prefix_env = std::getenv("PYTHONPYCACHEPREFIX");
    if (const std::string cache = bytecode_cache_dir(); !(prefix_env && *prefix_env) && !cache.empty())
      PyConfig_SetBytesString(&config, &config.pycache_prefix, cache.c_str());
    interp_->guard = std::make_unique<py::scoped_interpreter>(&config, 0, nullptr, /*add_program_dir_to_path=*/false);
  }
  main_ident_ = PyThread_get_thread_ident();
  main_tid_ = long(syscall(SYS_gettid));
  set_bound_runtime(runtime_);
  {
    py::module_ sys = py::module_::import("sys");
    sys.attr("path").attr("insert")(0, package_dir());
    // never litter the source tree with __pycache__: bytecode only into the per-user cache
    if (sys.attr("pycache_prefix").is_none()) sys.attr("dont_write_bytecode") = true;
    interp_->helper = py::module_::import("_ds_session");
    interp_->helper.attr("take_interrupt_message") = py::cpp_function([this] {
      std::lock_guard lock(message_mutex_);
      std::string text;
      text.swap(interrupt_message_);
      return text;
    });
    py::object sink = py::none();
    if (options_.output) {
      OutputSink out = options_.output;
      sink = py::cpp_function([out](const std::string& text, bool is_err) { out(text, is_err); });
    }
    interp_->helper.attr("setup")(sink, options_.guard_os_exit);
  }
  // Release the GIL so any thread (the app's worker, an interrupt) can take it.
  interp_->saved = PyEval_SaveThread();
}

PythonSession::~PythonSession() {
  if (interrupter_.joinable()) interrupter_.join();
  PyEval_RestoreThread(interp_->saved);
  {
    try {
      interp_->helper.attr("flush")();
      // Non-daemon threads finish now, with the runtime and the cached torch types still alive (python
      // would wait for them at finalization, by which time those are gone: "TypeError: expected a device").
      interp_->helper.attr("join_threads")();
    } catch (...) {
    }
    interp_->helper = py::object();
    PyTypes& t = py_types();
    t = PyTypes{};
  }
  interp_->guard.reset();  // finalizes: remaining tensors release their storages here
  set_bound_runtime(nullptr);
  runtime_.reset();
}

template <typename... Args>
RunResult PythonSession::invoke(const char* function, Args&&... args) {
  return invoke_returning(function, nullptr, std::forward<Args>(args)...);
}

template <typename... Args>
RunResult PythonSession::invoke_returning(const char* function, std::string* returned, Args&&... args) {
  py::gil_scoped_acquire gil;
  running_thread_ = PyThread_get_thread_ident();
  ++run_serial_;
  {
    std::lock_guard lock(message_mutex_);
    interrupt_message_.clear();  // an earlier run's interrupt text must not label this run's Ctrl+C
  }
  running_ = true;  // seq_cst, before stop_requested() reads the app's flag: see SessionOptions::stop_requested
  RunResult result;
  // An interrupt() that reached no code (it came while none ran) stops this run if it was meant for the same
  // job. Loading only compiles the script (and its statement spans must stay whole): it never stops here.
  if (options_.stop_requested && std::strcmp(function, "load") != 0 && interrupt_pending_.exchange(false) &&
      options_.stop_requested()) {
    running_ = false;
    result.status = RunStatus::Interrupted;
    result.exit_code = 130;
    result.error.type = "KeyboardInterrupt";
    {
      std::lock_guard lock(message_mutex_);
      result.error.message.swap(interrupt_message_);
    }
    result.error.traceback = "KeyboardInterrupt" + (result.error.message.empty() ? "" : ": " + result.error.message) + "\n";
    return result;
  }
  try {
    py::object r = interp_->helper.attr(function)(std::forward<Args>(args)...);
    if (returned) {  // (result tuple, the value the call returned)
      py::tuple pair = py::reinterpret_borrow<py::tuple>(r);
      *returned = pair[1].cast<std::string>();
      r = pair[0];
    }
    result = result_from_tuple(r);
  } catch (py::error_already_set& e) {
    // Only an interrupt landing in the helper itself (after the user's code returned) gets here.
    result.status = e.matches(PyExc_KeyboardInterrupt) ? RunStatus::Interrupted : RunStatus::Error;
    result.exit_code = result.status == RunStatus::Interrupted ? 130 : 1;
    result.error.type = result.status == RunStatus::Interrupted ? "KeyboardInterrupt" : "RuntimeError";
    result.error.message = e.what();
    result.error.traceback = result.error.type + ": " + result.error.message + "\n";
  }
  running_ = false;
  // An interrupt that arrived after the code finished must not fire in the next run.
  PyThreadState_SetAsyncExc(running_thread_.load(), nullptr);
  return result;
}

RunResult PythonSession::run_file(const std::string& path, const std::vector<std::string>& argv) {
  std::vector<std::string> a = argv.empty() ? std::vector<std::string>{path} : argv;
  return invoke("run_path", path, a);
}

RunResult PythonSession::wait_for_threads() {
  waiting_for_threads_ = true;
  RunResult r = invoke("join_threads");
  waiting_for_threads_ = false;
  return r;
}

bool PythonSession::threads_left_running() {
  py::gil_scoped_acquire gil;
  try {
    return interp_->helper.attr("threads_left_running")().cast<bool>();
  } catch (py::error_already_set&) {
    return false;
  }
}

void PythonSession::preload(const std::string& module) {
  py::gil_scoped_acquire gil;
  try {
    interp_->helper.attr("preload")(module);
  } catch (py::error_already_set&) {
  }
}

RunResult PythonSession::run_source(const std::string& source, const std::string& filename,
                                    const std::vector<std::string>& argv) {
  std::vector<std::string> a = argv.empty() ? std::vector<std::string>{filename} : argv;
  return invoke("run_source", source, filename, a);
}

RunResult PythonSession::load(const std::string& source, const std::string& filename,
                              const std::vector<std::string>& argv) {
  reset();
  std::vector<std::string> a = argv.empty() ? std::vector<std::string>{filename} : argv;
  RunResult r = invoke("load", source, filename, a);
  py::gil_scoped_acquire gil;
  spans_.clear();
  for (auto span : interp_->helper.attr("statement_spans")()) {
    auto t = span.cast<std::pair<int, int>>();
    spans_.push_back({t.first, t.second});
  }
  next_ = 0;
  return r;
}

RunResult PythonSession::step() {
  RunResult r = invoke("step");
  {
    py::gil_scoped_acquire gil;
    next_ = interp_->helper.attr("next_index")().cast<int>();
  }
  refresh_object_graph();
  return r;
}

RunResult PythonSession::run_to(int count) {
  reset();
  RunResult r;
  while (next_ < count && next_ < statement_count()) {
    r = invoke("step");
    {
      py::gil_scoped_acquire gil;
      next_ = interp_->helper.attr("next_index")().cast<int>();
    }
    if (!r.ok()) break;
  }
  refresh_object_graph();
  return r;
}

void PythonSession::reset() {
  py::gil_scoped_acquire gil;
  // Old tensors die first (into the old runtime, which lives on while any storage does).
  interp_->helper.attr("reset_globals")();
  runtime_ = Runtime::create(options_.runtime);
  set_bound_runtime(runtime_);
  interp_->helper.attr("reset_library_state")(options_.seed_on_reset);
  objects_ = ObjectGraph{};
  next_ = 0;
}

RunResult PythonSession::run_console(const std::string& code) {
  RunResult r = invoke("console", code);
  refresh_object_graph();
  return r;
}

void PythonSession::interrupt(const std::string& message) {
  // Set before running_ is read (both seq_cst): either this sees the code running and delivers, or the next
  // run sees the flag (invoke_returning). Only the app's sessions (stop_requested) keep undelivered interrupts.
  if (options_.stop_requested) interrupt_pending_ = true;
  if (!running_.load()) return;
  {
    std::lock_guard lock(message_mutex_);
    interrupt_message_ = message;  // _ds_session labels the KeyboardInterrupt with it when it lands
  }
  if (options_.install_signal_handlers && running_thread_.load() == main_ident_ && sigint_is_handled()) {
    // What Ctrl+C does: blocking system calls on the main thread return EINTR, and Python raises there.
    interrupt_pending_ = false;  // delivered
    pthread_kill(pthread_t(main_ident_), SIGINT);
    return;
  }
  if (interrupting_.exchange(true)) return;
  if (interrupter_.joinable()) interrupter_.join();  // the previous helper has finished (interrupting_ was false)
  const uint64_t serial = run_serial_.load();
  interrupter_ = std::thread([this, serial] {
    // Waits for the lock: the running code releases it between bytecodes (or when its C++ call returns).
    PyGILState_STATE s = PyGILState_Ensure();
    // Meant for the code running now: the run it was sent to, or (app sessions) a later run of the same job,
    // e.g. the next statement of Run, when this helper waited for the lock across the two.
    const bool meant = run_serial_.load() == serial ||
                       (options_.stop_requested && interrupt_pending_.load() && options_.stop_requested());
    if (running_.load() && meant) {
      PyThreadState_SetAsyncExc(running_thread_.load(), PyExc_KeyboardInterrupt);
      interrupt_pending_ = false;  // delivered: code that catches it goes on, as under python3
    }
    PyGILState_Release(s);
    interrupting_ = false;
  });
}

std::string PythonSession::describe_still_running(std::chrono::milliseconds patience) {
  const bool reading_stdin = blocked_reading_stdin(main_tid_);
  auto answer = std::make_shared<std::promise<std::string>>();
  std::future<std::string> text = answer->get_future();
  const bool waiting = waiting_for_threads_.load();
  std::thread([this, answer, waiting, reading_stdin] {
    PyGILState_STATE s = PyGILState_Ensure();
    std::string line;
    try {
      line = interp_->helper.attr("still_running")(main_ident_, waiting, reading_stdin).cast<std::string>();
    } catch (py::error_already_set&) {
    }
    PyGILState_Release(s);
    answer->set_value(line);
  }).detach();
  if (text.wait_for(patience) == std::future_status::ready) {
    std::string line = text.get();
    if (!line.empty()) return line;
  }
  if (reading_stdin) return "the script is blocked in input(), waiting for standard input";
  return "the script is busy in native code and keeps the interpreter lock";
}

RunResult PythonSession::call(const std::string& module, const std::string& function, const std::string& kwargs_json,
                              std::string* result_json) {
  std::string returned;
  RunResult r = invoke_returning("call", &returned, module, function, kwargs_json);
  refresh_object_graph();  // a lesson step runs code in the script's globals
  if (result_json) *result_json = std::move(returned);
  return r;
}

Snapshot PythonSession::snapshot() const { return runtime_->snapshot(objects_); }

void PythonSession::refresh_object_graph() {
  if (!options_.build_object_graph) return;
  py::gil_scoped_acquire gil;
  try {
    py::object graph = interp_->helper.attr("object_graph")();
    if (!graph.is_none()) objects_ = object_graph_from_py(graph);
  } catch (py::error_already_set&) {
    // The helper reports builder errors through graph_error(); an interrupt arriving exactly here is dropped.
  }
}

std::string PythonSession::object_graph_error() {
  py::gil_scoped_acquire gil;
  return interp_->helper.attr("graph_error")().cast<std::string>();
}

}  // namespace ds::python
