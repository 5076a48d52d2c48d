// A session is what the app's views show and what does the user's work. Each session owns one worker
// thread, which is also the thread its work needs (the embedded interpreter's, the file reader's): the UI
// thread submits a job and returns at once, the worker runs it and publishes a new picture (a Snapshot,
// never mutated afterwards) for the UI to draw, as Tracy's worker feeds its view.
// Implementations: PythonScriptSession (the editor's script, the console, the Builder, the lessons),
// RecordingSession (a recording opened from a file), the frame benchmark's synthetic picture (tests/bench).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "trace/load_progress.h"
#include "trace/snapshot.h"

namespace ds::gui {

// What one job did. `output` is what the code printed (stdout and stderr, in order).
struct RunOutcome {
  bool ok = true;
  std::string output;
  std::string error_type;     // "RuntimeError", "KeyboardInterrupt", ... ("" when ok)
  std::string error_message;  // the exception text, exactly as Python prints it after "Type: "
  std::string traceback;      // Python's full "Traceback (most recent call last): ..." text
  int error_line = 0;         // 1-based line of the editor script that failed; 0 when not in the script
  bool interrupted = false;   // stopped by interrupt() (error_type is then "KeyboardInterrupt", or a cancelled load)
  std::string result_json;    // Call: the function's return value as JSON
};

// A failed outcome with Python's look ("Type: message"), for errors that are not the user's code's.
RunOutcome failed(const std::string& type, const std::string& message);

enum class JobKind { Open, RunScript, Step, StepBack, Reset, RunLine, BuilderLine, SetScript, ExportTrace, Call, Seek };
const char* job_name(JobKind k);  // "Open", "Run", "Step", ...

struct Job {
  JobKind kind = JobKind::Step;
  std::optional<std::string> script;  // the editor's script, made current first (see PythonScriptSession)
  std::string script_name;            // its file as tracebacks name it, as `python3 FILE` would ("": script.py)
  bool appended_already_ran = false;
  std::string line;                   // RunLine / BuilderLine: the code; ExportTrace: the path; Call: module.function;
                                      // Seek: the moment of an opened file's trace ("" for its end)
  std::string meta_version;           // ExportTrace: DeviceScope version written into the file
  std::string meta_machine;
  std::string call_args;              // Call: keyword arguments as a JSON object
  bool reset_first = false;           // Call: a fresh interpreter state before the call
  int tag = -1;                       // the submitter's own id for the job
};

struct FinishedJob {
  Job job;
  RunOutcome outcome;
  double seconds = 0;
};

// What the session says about itself, published with each picture.
struct SessionStatus {
  int current_line = 0;      // 1-based line of the statement Step runs next, 0 when done (sessions that run code)
  int statements_done = 0, statement_count = 0;
  std::string describe;      // one line for the status bar ("Python 3.11.2 (embedded), DeviceScope torch")
};

class Session {
 public:
  virtual ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Queues a job for the worker; false (nothing queued) while another job is queued or runs.
  bool submit(Job job);
  bool busy() const { return busy_.load(); }
  // Asks the running job to stop (KeyboardInterrupt in code, a load cancelled). Any thread; returns at once.
  void interrupt();
  // Whether the job running now was already asked to stop by interrupt() (and still runs: it has not
  // reached the code yet, or the code caught KeyboardInterrupt). Any thread.
  bool interrupt_requested() const;
  void wait_idle();
  bool wait_idle_for(double seconds);  // false when still busy after `seconds`

  std::deque<FinishedJob> take_finished();
  // The latest picture and status: a new Snapshot object whenever the picture changed.
  std::shared_ptr<const Snapshot> snapshot() const;
  SessionStatus status() const;

  // Whether the editor, console, Builder and lessons can send code to this session.
  virtual bool runs_code() const = 0;
  // A file this session is reading (its Open job): progress and cancel for the loading strip; null otherwise.
  virtual const LoadProgress* load_progress() const { return nullptr; }

 protected:
  Session() = default;
  // Starts the worker; on_worker_start() runs first on it, and what it throws is rethrown here. Call at the
  // end of the derived constructor.
  void start();
  // Ends the worker after the running job (interrupted first); on_worker_end() runs last on it. Call first
  // in the derived destructor, while the derived object is whole.
  void stop();
  // Publishes picture() and current_status() for the UI thread (the worker does after each job; on the worker).
  void publish();

  // On the worker thread.
  virtual void on_worker_start() {}
  virtual void on_worker_end() {}
  virtual RunOutcome run(Job& job) = 0;
  virtual std::shared_ptr<const Snapshot> picture() = 0;
  virtual SessionStatus current_status() = 0;
  // From any thread: stop the job the worker runs now (a no-op when idle).
  virtual void interrupt_job() = 0;

 private:
  void loop();

  std::thread worker_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::optional<Job> pending_;
  std::deque<FinishedJob> finished_;
  std::shared_ptr<const Snapshot> snapshot_;
  SessionStatus status_;
  std::atomic<bool> busy_{false};
  // Jobs are numbered as submitted (one at a time, so the running one is submitted_); interrupted_ is the
  // number of the last job interrupt() was called for. Atomics (seq_cst): a code session reads them on the
  // worker right after marking its code as running (python::SessionOptions::stop_requested).
  std::atomic<uint64_t> submitted_{0}, interrupted_{0};
  bool quit_ = false;
};

// The ExportTrace job of any session: its events and the picture's transfers as a Chrome trace at job.line.
RunOutcome export_trace(const Job& job, const std::deque<Event>& events, const Snapshot& picture);

}  // namespace ds::gui
