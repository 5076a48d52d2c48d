// PythonScriptSession: script cursor, console, Builder and lesson calls on the interpreter's own thread.
#include "session/python_script_session.h"

#include <Python.h>

#include <sstream>

namespace ds::gui {
namespace {
constexpr const char* kScriptName = "script.py";
}

PythonScriptSession::PythonScriptSession(RuntimeOptions runtime) : runtime_options_(std::move(runtime)) { start(); }

PythonScriptSession::~PythonScriptSession() { stop(); }

void PythonScriptSession::on_worker_start() {
  python::SessionOptions o;
  o.runtime = runtime_options_;
  // The app stops scripts with interrupt(); SIGINT belongs to the window (main_loop.cpp: Ctrl+C in the
  // terminal stops running code or quits), never to a KeyboardInterrupt on this thread.
  o.install_signal_handlers = false;
  // A Stop or Ctrl+C for this job that came before its code ran (during the reset, between two statements of
  // Run) stops it there, instead of being lost while no Python code was running.
  o.stop_requested = [this] { return interrupt_requested(); };
  o.output = [this](std::string_view text, bool) {
    std::lock_guard<std::mutex> lock(output_mutex_);
    output_.append(text);
  };
  py_ = std::make_unique<python::PythonSession>(std::move(o));
  picture_ = std::make_shared<const Snapshot>(py_->snapshot());
}

void PythonScriptSession::on_worker_end() { py_.reset(); }  // CPython: finalized on the thread that created it

void PythonScriptSession::interrupt_job() {
  if (py_) py_->interrupt();
}

SessionStatus PythonScriptSession::current_status() {
  SessionStatus st;
  const int next = py_->next_statement();
  st.current_line = next < py_->statement_count() ? py_->statement(next).first_line : 0;
  st.statements_done = next;
  st.statement_count = py_->statement_count();
  st.describe = std::string("Python ") + PY_VERSION + " (embedded), DeviceScope torch";
  return st;
}

RunOutcome PythonScriptSession::run(Job& job) {
  if (job.script && job.kind != JobKind::BuilderLine)
    set_script(*job.script, job.appended_already_ran, job.script_name);
  switch (job.kind) {
    case JobKind::RunScript: return run_all();
    case JobKind::Step: return step();
    case JobKind::StepBack: return step_back();
    case JobKind::Reset:
      py_->reset();
      drop_output();
      return outcome({});
    case JobKind::RunLine: return outcome(py_->run_console(job.line));
    case JobKind::BuilderLine: {
      // The Builder's line runs first; only a line that ran joins the script (as already run).
      RunOutcome o = outcome(py_->run_console(job.line));
      if (o.ok && job.script) set_script(*job.script, true, job.script_name);
      return o;
    }
    case JobKind::SetScript: return {};  // set_script() above made the new picture when the script changed
    case JobKind::Call:
      if (job.reset_first) py_->reset();
      return call(job.line, job.call_args);
    case JobKind::ExportTrace: return export_trace(job, py_->runtime().log().events(), *picture_);
    case JobKind::Open:
    case JobKind::Seek: break;
  }
  return failed("ValueError", std::string("a code session cannot run a ") + job_name(job.kind) + " job");
}

RunOutcome PythonScriptSession::outcome(const python::RunResult& r) {
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
  picture_ = std::make_shared<const Snapshot>(py_->snapshot());
  return o;
}

void PythonScriptSession::drop_output() {
  std::lock_guard<std::mutex> lock(output_mutex_);
  output_.clear();
}

std::vector<std::string> PythonScriptSession::statement_texts() const {
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

void PythonScriptSession::set_script(const std::string& code, bool appended_already_ran, const std::string& name) {
  const std::string file = name.empty() ? kScriptName : name;
  if (code == script_ && file == script_name_) return;
  const std::vector<std::string> old_texts = statement_texts();
  const int done = py_->next_statement();
  script_ = code;
  script_name_ = file;
  py_->load(code, file);
  const std::vector<std::string> new_texts = statement_texts();
  int keep = 0;
  while (keep < done && keep < int(new_texts.size()) && keep < int(old_texts.size()) &&
         old_texts[size_t(keep)] == new_texts[size_t(keep)])
    ++keep;
  if (keep == done && appended_already_ran) keep = int(new_texts.size());
  if (keep > 0) py_->run_to(keep);
  drop_output();
  picture_ = std::make_shared<const Snapshot>(py_->snapshot());
}

RunOutcome PythonScriptSession::run_all() {
  py_->reset();
  python::RunResult r;
  while (py_->next_statement() < py_->statement_count()) {
    r = py_->step();
    if (!r.ok()) break;
  }
  return outcome(r);
}

RunOutcome PythonScriptSession::step() {
  return py_->next_statement() >= py_->statement_count() ? outcome({}) : outcome(py_->step());
}

RunOutcome PythonScriptSession::step_back() {
  const python::RunResult r = py_->run_to(std::max(0, py_->next_statement() - 1));
  drop_output();
  return outcome(r);
}

RunOutcome PythonScriptSession::call(const std::string& dotted_function, const std::string& kwargs_json) {
  const size_t dot = dotted_function.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == dotted_function.size())
    return failed("ValueError", "not a module.function name: " + dotted_function);
  std::string returned;
  const python::RunResult r =
      py_->call(dotted_function.substr(0, dot), dotted_function.substr(dot + 1), kwargs_json, &returned);
  RunOutcome o = outcome(r);
  o.result_json = std::move(returned);
  return o;
}

}  // namespace ds::gui
