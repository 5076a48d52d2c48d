// RunWatchdog: ends a `devicescope run` that must stop, at its --timeout or when SIGTERM arrives, without
// ever hanging the terminal. First the script gets KeyboardInterrupt (its `finally:` blocks run and the
// command writes its exports as after any error); then a second one; and if it still runs after that, the
// watchdog says what keeps it going (a loop that catches KeyboardInterrupt, a non-daemon thread, a blocked
// input()), writes the exports itself and ends the process.
#pragma once
#ifdef DEVICESCOPE_HAVE_PYTHON

#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "python/python_session.h"

namespace ds::cli {

class RunWatchdog {
 public:
  // timeout_s <= 0: no time limit (SIGTERM is still handled). timeout_text: the limit as the user typed it.
  // write_exports: called from the watchdog's thread on its last resort, just before it ends the process.
  RunWatchdog(python::PythonSession& session, double timeout_s, std::string timeout_text,
              std::function<void()> write_exports);
  ~RunWatchdog();  // stop(), and SIGTERM back to its former action
  RunWatchdog(const RunWatchdog&) = delete;
  RunWatchdog& operator=(const RunWatchdog&) = delete;

  // The run has ended by itself (or by the first interrupts): no more interrupts from here on.
  void stop();
  // The exit code the interrupted run should end with: 143 after SIGTERM, 130 otherwise.
  int interrupted_exit_code() const { return terminated_.load() ? 143 : 130; }
  // Whether SIGTERM arrived, also after stop() (while the exports were written: they complete, and the
  // process then exits 143 instead of dying half way).
  bool sigterm_received();

 private:
  void watch();
  void give_up(const std::string& message, double after_s);  // ends the process unless stop() came first

  python::PythonSession& session_;
  double timeout_s_;
  std::string timeout_text_;
  std::function<void()> write_exports_;
  int wake_fds_[2] = {-1, -1};  // self-pipe: 't' from the SIGTERM handler, 'q' from stop()
  std::atomic<bool> terminated_{false};
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace ds::cli

#endif  // DEVICESCOPE_HAVE_PYTHON
