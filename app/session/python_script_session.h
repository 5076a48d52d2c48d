// PythonScriptSession: the app's code session. Its worker thread is the embedded interpreter's thread
// (python::PythonSession, DeviceScope's torch over the engine): the editor's script with a statement cursor
// (Run, Step, Step back), console and Builder lines, and the lesson player's typed calls.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "python/python_session.h"
#include "session/session.h"

namespace ds::gui {

class PythonScriptSession : public Session {
 public:
  // Creates the interpreter on the session's thread; throws what creating it threw.
  explicit PythonScriptSession(RuntimeOptions runtime);
  ~PythonScriptSession() override;

  bool runs_code() const override { return true; }

 protected:
  void on_worker_start() override;
  void on_worker_end() override;
  RunOutcome run(Job& job) override;
  std::shared_ptr<const Snapshot> picture() override { return picture_; }
  SessionStatus current_status() override;
  void interrupt_job() override;

 private:
  // Makes `code` the script the cursor walks (Job::script). Keeps the state when the statements already
  // run are unchanged (text appended or edited below the cursor): they are replayed silently (replays are
  // deterministic: seeds are reset with the runtime); otherwise the cursor goes back to the top.
  // `appended_already_ran`: the new text only appends statements just run as console lines (the Builder),
  // so the cursor moves past them.
  void set_script(const std::string& code, bool appended_already_ran, const std::string& name);
  RunOutcome run_all();
  RunOutcome step();
  RunOutcome step_back();
  RunOutcome call(const std::string& dotted_function, const std::string& kwargs_json);
  RunOutcome outcome(const python::RunResult& r);  // + the output captured since the last outcome; new picture
  std::vector<std::string> statement_texts() const;
  void drop_output();  // replays are silent: what they print was shown when it first ran

  RuntimeOptions runtime_options_;
  std::unique_ptr<python::PythonSession> py_;
  std::string script_;
  std::string script_name_;  // the file tracebacks name (Job::script_name; script.py when unnamed)
  std::mutex output_mutex_;
  std::string output_;  // what the code printed since the last outcome (written by the interpreter's sink)
  std::shared_ptr<const Snapshot> picture_;
};

}  // namespace ds::gui
