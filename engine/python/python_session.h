// PythonSession: the embedded CPython interpreter bound to one ds::Runtime. Runs user scripts as
// __main__ (whole, statement by statement, or console lines) against DeviceScope's torch package.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "runtime/runtime.h"

namespace ds::python {

// An uncaught exception, as `python script.py` would print it.
struct PythonError {
  std::string type;       // "RuntimeError", "torch.cuda.OutOfMemoryError", "SyntaxError", "KeyboardInterrupt"
  std::string message;    // str(exception)
  std::string traceback;  // "Traceback (most recent call last):\n ..." with user frames only; ends in "\n"
  int line = 0;           // failing line in the user's script, 0 when unknown
};

enum class RunStatus { Ok, Error, Exit, Interrupted };

struct RunResult {
  RunStatus status = RunStatus::Ok;
  int exit_code = 0;  // sys.exit(n) -> n; an uncaught exception -> 1; interrupted -> 130
  PythonError error;  // filled for Error and Interrupted
  bool ok() const { return status == RunStatus::Ok; }
};

struct StatementSpan {
  int first_line = 0;  // 1-based, decorators included
  int last_line = 0;
};

// Receives the script's stdout/stderr when capturing (the app shows it in its console).
using OutputSink = std::function<void(std::string_view text, bool is_stderr)>;

struct SessionOptions {
  RuntimeOptions runtime;
  OutputSink output;               // null: stdout/stderr pass through to the process's own
  bool build_object_graph = true;  // after each step / console line, ask devicescope.names for the graph
  bool seed_on_reset = true;       // Step back replays: deterministic torch/random/numpy seeds on reset()
  // Python's SIGINT handler (Ctrl+C -> KeyboardInterrupt): right for `devicescope run`; the desktop app may
  // prefer to keep the default action and stop scripts with interrupt(). Unlike python3, it is installed
  // even when SIGINT was inherited as ignored (`cmd &` from a script): Ctrl+C always stops DeviceScope.
  bool install_signal_handlers = true;
  // os._exit(n) in user code ends the script like sys.exit(n) instead of the host process (the app must
  // survive it); `devicescope run` turns this off to stay python-compatible (an immediate exit).
  bool guard_os_exit = true;
  // Set: an interrupt() that came while no code ran (the app's job was starting: a reset, the gap between two
  // statements of Run) is kept, and the next code to run stops at once as Interrupted if this says the
  // interrupt was meant for it (the same app job); otherwise it is dropped. Asked with the session marked as
  // running, so an interrupt() after that reaches the code itself.
  std::function<bool()> stop_requested;
};

// One per process (CPython embeds one interpreter). Create and destroy it on the same thread; every
// other method may be called from any one thread at a time, and interrupt() from any thread at all.
class PythonSession {
 public:
  explicit PythonSession(SessionOptions options = {});
  ~PythonSession();
  PythonSession(const PythonSession&) = delete;
  PythonSession& operator=(const PythonSession&) = delete;

  Runtime& runtime() { return *runtime_; }
  std::shared_ptr<Runtime> runtime_ptr() const { return runtime_; }

  // A whole script as __main__ (devicescope run). argv: sys.argv (argv[0] defaults to the path).
  RunResult run_file(const std::string& path, const std::vector<std::string>& argv = {});
  RunResult run_source(const std::string& source, const std::string& filename,
                       const std::vector<std::string>& argv = {});

  // What python does once __main__ has ended: waits for the non-daemon threads the script started (call it
  // after run_file). interrupt() ends the wait: the result is Interrupted, its traceback naming the
  // threads left running; threads_left_running() then says the process must not wait for them at exit.
  RunResult wait_for_threads();
  bool threads_left_running();

  // Imports a module before the user's code starts (`devicescope run --timeout` does not count
  // `import torch`); a failing import is left for the script's own import to report.
  void preload(const std::string& module);

  // Step mode: load() splits the source into top-level statements (a SyntaxError comes back as an
  // Error result); step() runs the next one in the same globals; run_to(n) resets and runs the first n
  // (Step back = run_to(next_statement() - 1)). After each statement the object graph is refreshed.
  RunResult load(const std::string& source, const std::string& filename, const std::vector<std::string>& argv = {});
  int statement_count() const { return int(spans_.size()); }
  StatementSpan statement(int index) const { return spans_.at(size_t(index)); }
  int next_statement() const { return next_; }
  RunResult step();
  RunResult run_to(int count);

  // Fresh globals and a fresh runtime (new ds::Runtime, seeds reset); the loaded statements stay.
  void reset();

  // One console entry: statements execute, a trailing expression is echoed like the REPL.
  RunResult run_console(const std::string& code);

  // Stops the running code with KeyboardInterrupt (within a few milliseconds of Python bytecode). Code
  // running on the interpreter's main thread with Python's SIGINT handler in place gets a real SIGINT, as
  // Ctrl+C would send, so that blocking calls (input(), time.sleep, Thread.join) end too; other code (the
  // app's worker thread) gets an asynchronous exception, delivered by a helper thread once it holds the
  // interpreter lock. Returns at once. `message` (optional) becomes the exception's text:
  // "KeyboardInterrupt: <message>".
  void interrupt(const std::string& message = "");
  bool running() const { return running_.load(); }

  // One line saying why the current run is still going after interrupt(), e.g. "the script caught
  // KeyboardInterrupt and kept running (at loop.py:7 in <module>)" or "a non-daemon thread 'worker' (at
  // w.py:4 in spin) is still running". Waits at most `patience` for the interpreter lock. For a last
  // report before the process ends: it may leave a helper thread waiting for the lock.
  std::string describe_still_running(std::chrono::milliseconds patience);

  // Why the last object-graph refresh failed ("" when it worked or no builder exists).
  std::string object_graph_error();

  // The picture views draw: the runtime's places, storages and transfers, with this session's names graph
  // (built from the script's globals after each step and console line; the Runtime does not keep it).
  Snapshot snapshot() const;

  // A typed call into Python for the app (the lesson player): module.function(**kwargs) with the keyword
  // arguments given as a JSON object, run like a console line (interruptible, output captured, errors as
  // Python reports them) but binding no name in the script's globals; the return value comes back as JSON.
  RunResult call(const std::string& module, const std::string& function, const std::string& kwargs_json,
                 std::string* result_json);

 private:
  struct Interp;  // pybind11 state, kept out of this header
  template <typename... Args>
  RunResult invoke(const char* function, Args&&... args);  // calls _ds_session.<function> under the GIL
  // The same for a helper returning (result tuple, text): the text lands in *returned.
  template <typename... Args>
  RunResult invoke_returning(const char* function, std::string* returned, Args&&... args);
  void refresh_object_graph();

  SessionOptions options_;
  std::shared_ptr<Runtime> runtime_;
  std::unique_ptr<Interp> interp_;
  std::vector<StatementSpan> spans_;
  int next_ = 0;
  ObjectGraph objects_;  // the names graph of the script's globals, as of the last refresh
  std::atomic<bool> running_{false};
  std::atomic<unsigned long> running_thread_{0};
  std::atomic<uint64_t> run_serial_{0};     // which run an interrupt was meant for
  std::atomic<bool> interrupting_{false};
  std::atomic<bool> interrupt_pending_{false};  // an interrupt() not delivered yet (only with stop_requested)
  std::thread interrupter_;                 // takes the GIL on interrupt()'s behalf, so interrupt() never blocks
  std::mutex message_mutex_;
  std::string interrupt_message_;           // the latest interrupt's text, taken by _ds_session when it lands
  unsigned long main_ident_ = 0;            // the interpreter's main thread (where Python runs signal handlers)
  long main_tid_ = 0;                       // its kernel thread id (/proc/self/task/<tid>)
  std::atomic<bool> waiting_for_threads_{false};
};

}  // namespace ds::python
