// PythonSession: owns the embedded interpreter, binds it to a ds::Runtime, and drives the helper module
// _ds_session.py (which does the exec/ast/traceback work on the Python side).
#include "python_session.h"

#include <pybind11/embed.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <cstdlib>

#include "bindings_common.h"

namespace ds::python {

namespace {

std::string package_dir() {
  // An installed copy may point elsewhere; the build points at the source tree.
  if (const char* env = std::getenv("DEVICESCOPE_PYTHON_DIR"); env && *env) return env;
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

}  // namespace

struct __attribute__((visibility("hidden"))) PythonSession::Interp {
  std::unique_ptr<py::scoped_interpreter> guard;
  py::object helper;              // the _ds_session module
  PyThreadState* saved = nullptr;  // the creating thread's state while the GIL is released
};

PythonSession::PythonSession(SessionOptions options) : options_(std::move(options)) {
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
  interp_ = std::make_unique<Interp>();
  interp_->guard = std::make_unique<py::scoped_interpreter>(options_.install_signal_handlers, 0, nullptr,
                                                            /*add_program_dir_to_path=*/false);
  set_bound_runtime(runtime_);
  {
    py::module_ sys = py::module_::import("sys");
    sys.attr("path").attr("insert")(0, package_dir());
    sys.attr("dont_write_bytecode") = true;  // never litter the source tree with __pycache__
    interp_->helper = py::module_::import("_ds_session");
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
  py::gil_scoped_acquire gil;
  running_thread_ = PyThread_get_thread_ident();
  ++run_serial_;
  running_ = true;
  RunResult result;
  try {
    py::object r = interp_->helper.attr(function)(std::forward<Args>(args)...);
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
  next_ = 0;
}

RunResult PythonSession::run_console(const std::string& code) {
  RunResult r = invoke("console", code);
  refresh_object_graph();
  return r;
}

void PythonSession::interrupt(const std::string& message) {
  if (!running_.load() || interrupting_.exchange(true)) return;
  if (interrupter_.joinable()) interrupter_.join();  // the previous helper has finished (interrupting_ was false)
  const uint64_t serial = run_serial_.load();
  interrupter_ = std::thread([this, serial, message] {
    // Waits for the lock: the running code releases it between bytecodes (or when its C++ call returns).
    PyGILState_STATE s = PyGILState_Ensure();
    if (running_.load() && run_serial_.load() == serial) {
      PyObject* type = PyExc_KeyboardInterrupt;
      py::object custom;
      if (!message.empty()) {
        // An async exception is raised from its type: a KeyboardInterrupt subclass carries the text.
        try {
          custom = interp_->helper.attr("interrupt_type")(message);
          type = custom.ptr();
        } catch (py::error_already_set&) {
        }
      }
      PyThreadState_SetAsyncExc(running_thread_.load(), type);
    }
    PyGILState_Release(s);
    interrupting_ = false;
  });
}

void PythonSession::refresh_object_graph() {
  if (!options_.build_object_graph) return;
  py::gil_scoped_acquire gil;
  try {
    interp_->helper.attr("update_object_graph")();
  } catch (py::error_already_set&) {
    // The helper swallows builder errors; an interrupt arriving exactly here is dropped.
  }
}

std::string PythonSession::object_graph_error() {
  py::gil_scoped_acquire gil;
  return interp_->helper.attr("graph_error")().cast<std::string>();
}

}  // namespace ds::python
