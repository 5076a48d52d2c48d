// The code runner as the app sees it: runs the user's Python and hands out read-only snapshots.
// The app calls it only from its worker thread (SessionRunner), except interrupt(), so no call blocks the UI.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "trace/snapshot.h"

namespace ds::gui {

// What one run/step/console line did. `output` is what the code printed (stdout and stderr, in order).
struct RunOutcome {
  bool ok = true;
  std::string output;
  std::string error_type;     // "RuntimeError", "KeyboardInterrupt", ... ("" when ok)
  std::string error_message;  // the exception text, exactly as Python prints it after "Type: "
  std::string traceback;      // Python's full "Traceback (most recent call last): ..." text
  int error_line = 0;         // 1-based line of the editor script that failed; 0 when not in the script
  bool interrupted = false;   // stopped by interrupt() (error_type is then "KeyboardInterrupt")
  std::string result_json;    // call_json(): the function's return value as JSON
};

class Session {
 public:
  virtual ~Session() = default;

  // The current picture. A new object each time the state changed (never mutated afterwards), so the UI
  // thread may keep and draw it while the worker runs the next statement.
  virtual std::shared_ptr<const Snapshot> snapshot() = 0;
  // Bumps whenever snapshot() would return a different picture.
  virtual uint64_t version() const = 0;

  // The editor script that step()/step_back() walk through, one top-level statement at a time.
  // Keeps the state when the statements already run are unchanged (text was only appended or edited
  // below the cursor); otherwise resets. `appended_already_ran`: the text differs from the previous
  // script only by statements appended at its end which were just run through run_line() (the
  // Builder does this), so the cursor moves past them instead of running them again.
  virtual void set_script(const std::string& code, bool appended_already_ran = false) = 0;
  // Resets and runs the whole script (set_script first).
  virtual RunOutcome run_script() = 0;
  // Runs the next top-level statement; ok with empty output when the script is finished.
  virtual RunOutcome step() = 0;
  // Goes back one statement (reset, then replay all statements but the last one run, silently).
  virtual RunOutcome step_back() = 0;
  // A fresh interpreter and runtime: no names, no storages, no transfers; the cursor at the top.
  virtual void reset() = 0;
  // Runs one console line (or block) in the same namespace; does not move the script cursor.
  virtual RunOutcome run_line(const std::string& line) = 0;
  // Asks the running code to stop with KeyboardInterrupt. Safe from any thread; returns at once.
  // A runaway loop must stop within half a second.
  virtual void interrupt() = 0;

  // 1-based line of the statement step() runs next; 0 when the script is finished or empty.
  virtual int current_statement_line() const = 0;
  // Statements run so far / in the script.
  virtual int statements_done() const = 0;
  virtual int statement_count() const = 0;
  // One line about the runner for the status bar ("Python 3.11.2 (embedded), ...", "synthetic benchmark picture").
  virtual std::string describe() const = 0;
  // The runtime's event log so far (allocations, frees, copies, module moves), for the Chrome trace
  // export; a copy, taken on the code thread like every other call.
  virtual std::deque<Event> events() = 0;

  // Calls a Python function by its dotted name ("devicescope.lessons.run_step") with keyword arguments
  // given as a JSON object, in the session's globals like a console line (the panes show what it made,
  // Stop interrupts it); the return value comes back as JSON in result_json. Runners without Python
  // say so (the lesson player needs the python runner).
  virtual RunOutcome call_json(const std::string& function, const std::string& json_args) {
    RunOutcome o;
    o.ok = false;
    o.error_type = "NotImplementedError";
    o.error_message = "lessons need the Python runner (" + describe() + " cannot run " + function + ")";
    return o;
  }
};

}  // namespace ds::gui
