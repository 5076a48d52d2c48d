// PythonGuiSession: script cursor and console on top of PythonSession, snapshots after every step.
#include "session/python_gui_session.h"

#include <Python.h>

#include <cctype>
#include <future>
#include <sstream>

namespace ds::gui {
namespace {
constexpr const char* kScriptName = "script.py";
}

PythonGuiSession::PythonGuiSession(RuntimeOptions runtime) {
  std::promise<void> started;
  python_thread_ = std::thread([this, runtime, &started]() mutable {
    try {
      python::SessionOptions o;
      o.runtime = std::move(runtime);
      // The app stops scripts with interrupt(); SIGINT belongs to the window (main_loop.cpp: Ctrl+C in the
      // terminal stops running code or quits), never to a KeyboardInterrupt on this thread.
      o.install_signal_handlers = false;
      o.output = [this](std::string_view text, bool) {
        std::lock_guard<std::mutex> lock(output_mutex_);
        output_.append(text);
      };
      py_ = std::make_unique<python::PythonSession>(std::move(o));
      publish();
      started.set_value();
    } catch (...) {
      started.set_exception(std::current_exception());
      return;
    }
    python_loop();
  });
  try {
    started.get_future().get();
  } catch (...) {
    python_thread_.join();
    throw;
  }
}

PythonGuiSession::~PythonGuiSession() {
  {
    std::lock_guard<std::mutex> lock(tasks_mutex_);
    quit_ = true;
  }
  tasks_cv_.notify_all();
  if (python_thread_.joinable()) python_thread_.join();
}

void PythonGuiSession::python_loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(tasks_mutex_);
      tasks_cv_.wait(lock, [&] { return quit_ || !tasks_.empty(); });
      if (tasks_.empty()) break;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
  py_.reset();  // finalizes the interpreter on the thread that created it
}

void PythonGuiSession::on_python_thread(const std::function<void()>& work) {
  std::packaged_task<void()> task(work);
  std::future<void> done = task.get_future();
  {
    std::lock_guard<std::mutex> lock(tasks_mutex_);
    tasks_.push_back([&task] { task(); });
  }
  tasks_cv_.notify_one();
  done.get();  // rethrows what the work threw
}

std::shared_ptr<const Snapshot> PythonGuiSession::snapshot() { return snapshot_; }

void PythonGuiSession::publish() {
  snapshot_ = std::make_shared<const Snapshot>(py_->runtime().snapshot());
  version_.fetch_add(1);
}

RunOutcome PythonGuiSession::outcome(const python::RunResult& r) {
  RunOutcome o;
  {
    std::lock_guard<std::mutex> lock(output_mutex_);
    o.output.swap(output_);
  }
  o.ok = r.ok() || (r.status == python::RunStatus::Exit && r.exit_code == 0);
  if (r.status == python::RunStatus::Exit && r.exit_code != 0) {
    o.error_type = "SystemExit";
    o.error_message = std::to_string(r.exit_code);
  } else if (!r.ok() && r.status != python::RunStatus::Exit) {
    o.error_type = r.error.type;
    o.error_message = r.error.message;
    o.traceback = r.error.traceback;
    o.error_line = r.error.line;
    o.interrupted = r.status == python::RunStatus::Interrupted;
  }
  publish();
  return o;
}

std::vector<std::string> PythonGuiSession::statement_texts() const {
  std::vector<std::string> lines, out;
  std::istringstream in(script_);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (int i = 0; i < py_->statement_count(); ++i) {
    const python::StatementSpan s = py_->statement(i);
    std::string text;
    for (int l = s.first_line; l <= s.last_line && l <= int(lines.size()); ++l) text += lines[size_t(l - 1)] + "\n";
    out.push_back(text);
  }
  return out;
}

void PythonGuiSession::set_script(const std::string& code, bool appended_already_ran) {
  if (code == script_) return;
  on_python_thread([&] { load_script(code, appended_already_ran); });
}

void PythonGuiSession::load_script(const std::string& code, bool appended_already_ran) {
  // Keep the state when the statements already run are unchanged: reload and replay them silently
  // (replays are deterministic: seeds are reset with the runtime).
  const std::vector<std::string> old_texts = statement_texts();
  const int done = py_->next_statement();
  script_ = code;
  py_->load(code, kScriptName);
  const std::vector<std::string> new_texts = statement_texts();
  int keep = 0;
  while (keep < done && keep < int(new_texts.size()) && keep < int(old_texts.size()) &&
         old_texts[size_t(keep)] == new_texts[size_t(keep)])
    ++keep;
  if (keep == done && appended_already_ran) keep = int(new_texts.size());
  if (keep > 0) py_->run_to(keep);
  {
    std::lock_guard<std::mutex> lock(output_mutex_);
    output_.clear();  // replayed output was shown when it first ran
  }
  publish();
}

RunOutcome PythonGuiSession::run_script() {
  RunOutcome o;
  on_python_thread([&] { o = run_all(); });
  return o;
}

RunOutcome PythonGuiSession::run_all() {
  py_->reset();
  python::RunResult r;
  while (py_->next_statement() < py_->statement_count()) {
    r = py_->step();
    if (!r.ok()) break;
  }
  return outcome(r);
}

RunOutcome PythonGuiSession::step() {
  RunOutcome o;
  on_python_thread([&] {
    o = py_->next_statement() >= py_->statement_count() ? outcome({}) : outcome(py_->step());
  });
  return o;
}

RunOutcome PythonGuiSession::step_back() {
  RunOutcome o;
  on_python_thread([&] {
    const int target = std::max(0, py_->next_statement() - 1);
    python::RunResult r = py_->run_to(target);
    {
      std::lock_guard<std::mutex> lock(output_mutex_);
      output_.clear();  // a silent replay
    }
    o = outcome(r);
  });
  return o;
}

void PythonGuiSession::reset() {
  on_python_thread([&] {
    py_->reset();
    {
      std::lock_guard<std::mutex> lock(output_mutex_);
      output_.clear();
    }
    publish();
  });
}

RunOutcome PythonGuiSession::run_line(const std::string& line) {
  RunOutcome o;
  on_python_thread([&] { o = outcome(py_->run_console(line)); });
  return o;
}

void PythonGuiSession::interrupt() { py_->interrupt(); }

int PythonGuiSession::current_statement_line() const {
  const int next = py_->next_statement();
  return next < py_->statement_count() ? py_->statement(next).first_line : 0;
}

int PythonGuiSession::statements_done() const { return py_->next_statement(); }
int PythonGuiSession::statement_count() const { return py_->statement_count(); }

std::string PythonGuiSession::describe() const { return std::string("Python ") + PY_VERSION + " (embedded), DeviceScope torch"; }

RunOutcome PythonGuiSession::call_json(const std::string& function, const std::string& json_args) {
  const size_t dot = function.rfind('.');
  bool valid = dot != std::string::npos && dot > 0 && dot + 1 < function.size();
  for (char c : function) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.');
  if (!valid) {
    RunOutcome o;
    o.ok = false;
    o.error_type = "ValueError";
    o.error_message = "not a dotted function name: " + function;
    return o;
  }
  const std::string module = function.substr(0, dot), name = function.substr(dot + 1);
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : json_args) hex += {kHex[c >> 4], kHex[c & 15]};
  // One console expression that binds no name in the user's globals (the names graph stays the lesson's)
  // and evaluates to None (nothing echoed); the JSON result waits on the module for us to collect.
  const std::string line = "(lambda _j, _m: setattr(_m, '_ds_gui_result', _j.dumps(getattr(_m, '" + name +
                           "')(**_j.loads(bytes.fromhex('" + hex + "').decode())), default=str)))(__import__('json'), "
                           "__import__('importlib').import_module('" + module + "'))";
  RunOutcome o;
  on_python_thread([&] {
    const python::RunResult r = py_->run_console(line);
    std::string result;
    if (r.ok()) {
      const PyGILState_STATE gil = PyGILState_Ensure();
      if (PyObject* m = PyImport_ImportModule(module.c_str())) {
        if (PyObject* v = PyObject_GetAttrString(m, "_ds_gui_result")) {
          if (const char* text = PyUnicode_AsUTF8(v)) result = text;
          Py_DECREF(v);
          PyObject_DelAttrString(m, "_ds_gui_result");
        }
        Py_DECREF(m);
      }
      PyErr_Clear();
      PyGILState_Release(gil);
    }
    o = outcome(r);
    o.result_json = std::move(result);
  });
  return o;
}

std::deque<Event> PythonGuiSession::events() {
  std::deque<Event> out;
  on_python_thread([&] { out = py_->runtime().log().events(); });
  return out;
}

}  // namespace ds::gui
