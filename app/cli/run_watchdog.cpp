// RunWatchdog (run_watchdog.h): a thread that sleeps on a self-pipe until the run's deadline, a SIGTERM or
// the end of the run, and interrupts the script in stages.
#ifdef DEVICESCOPE_HAVE_PYTHON
#include "cli/run_watchdog.h"

#include <pybind11/pybind11.h>  // the interpreter lock, for the last resort's exports

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <future>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

namespace ds::cli {
namespace {

// The SIGTERM handler's only state: where to write, and which process owns the watchdog.
int g_wake_fd = -1;
pid_t g_owner = 0;
struct sigaction g_previous_sigterm {};
std::mutex g_give_up_mutex;  // stop() and the last resort exclude each other: the exports are written once

// How long the last resort waits for the interpreter lock, to describe the run and to write the exports.
constexpr std::chrono::seconds kLockPatience{2};

void on_sigterm(int) {
  if (getpid() != g_owner) {  // a forked child (a DataLoader worker) keeps SIGTERM's default action
    std::signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
    return;
  }
  const char byte = 't';
  if (g_wake_fd >= 0) (void)!write(g_wake_fd, &byte, 1);
}

std::string seconds_text(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

}  // namespace

RunWatchdog::RunWatchdog(python::PythonSession& session, double timeout_s, std::string timeout_text,
                         std::function<void()> write_exports)
    : session_(session), timeout_s_(timeout_s), timeout_text_(std::move(timeout_text)),
      write_exports_(std::move(write_exports)) {
  if (pipe2(wake_fds_, O_CLOEXEC | O_NONBLOCK) != 0) wake_fds_[0] = wake_fds_[1] = -1;
  g_wake_fd = wake_fds_[1];
  g_owner = getpid();
  struct sigaction action {};
  action.sa_handler = on_sigterm;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // other threads' system calls carry on; only the watchdog wakes up
  sigaction(SIGTERM, &action, &g_previous_sigterm);
  thread_ = std::thread([this] { watch(); });
}

RunWatchdog::~RunWatchdog() {
  stop();
  sigaction(SIGTERM, &g_previous_sigterm, nullptr);
  g_wake_fd = -1;
  for (int fd : wake_fds_)
    if (fd >= 0) close(fd);
}

void RunWatchdog::stop() {
  if (stopped_) return;
  {
    std::lock_guard lock(g_give_up_mutex);  // waits while the last resort runs (it ends the process)
    stopped_ = true;
  }
  const char byte = 'q';
  (void)!write(wake_fds_[1], &byte, 1);
  if (thread_.joinable()) thread_.join();
}

bool RunWatchdog::sigterm_received() {
  if (stopped_) {  // the watchdog's thread no longer reads the pipe
    char byte = 0;
    while (read(wake_fds_[0], &byte, 1) == 1)
      if (byte == 't') terminated_ = true;
  }
  return terminated_.load();
}

void RunWatchdog::watch() {
  using Clock = std::chrono::steady_clock;
  // A stop begins at `begin` (the deadline, or SIGTERM's arrival): KeyboardInterrupt then, again after
  // `second`, and the last resort after `last` (seconds from `begin`).
  std::optional<Clock::time_point> begin;
  double second = 0, last = 0;
  std::string message;
  if (timeout_s_ > 0) {
    // The clock starts now, with the user's code: DeviceScope's own start-up (import torch) is not counted.
    begin = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_));
    second = timeout_s_;
    last = 3 * timeout_s_;
    message = "script interrupted after " + timeout_text_ + " s";
  }
  int stage = 0;  // interrupts sent so far
  for (;;) {
    int wait_ms = -1;
    if (begin) {
      const double offset = stage == 0 ? 0 : stage == 1 ? second : last;
      const auto due = *begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(offset));
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count();
      wait_ms = int(std::max<long long>(0, std::min<long long>(left + 1, 1 << 30)));
    }
    pollfd p{wake_fds_[0], POLLIN, 0};
    const int ready = poll(&p, 1, wait_ms);
    if (ready > 0) {
      char byte = 0;
      while (read(wake_fds_[0], &byte, 1) == 1) {
        if (byte == 'q') return;
        if (byte == 't' && !terminated_.exchange(true)) {
          begin = Clock::now();
          second = 1;
          last = 3;
          message = "stopped by SIGTERM";
          stage = 0;
        }
      }
      continue;
    }
    if (ready < 0 || !begin) continue;  // EINTR
    const double offset = stage == 0 ? 0 : stage == 1 ? second : last;
    if (Clock::now() < *begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(offset)))
      continue;
    if (stage < 2) {
      session_.interrupt(message);
      ++stage;
    } else {
      give_up(message, last);
    }
  }
}

void RunWatchdog::give_up(const std::string& message, double after_s) {
  std::lock_guard lock(g_give_up_mutex);
  if (stopped_) return;  // the run ended meanwhile: stop()'s 'q' is on its way, its thread writes the exports
  const std::string why = session_.describe_still_running(kLockPatience);
  std::cout.flush();
  std::cerr << "KeyboardInterrupt: " << message << "\ndevicescope: still running " << seconds_text(after_s)
            << " s after KeyboardInterrupt: " << why << "; writing the exports and exiting\n"
            << std::flush;
  // Writing the exports takes the interpreter lock (to stop the script's threads, and to read the record they
  // change): native code that never lets go of it must not turn the last resort into a hang. The wait for the
  // lock is as short as the one describe_still_running() just had (the lock is free between any two bytecodes,
  // so a script that runs Python gets it in milliseconds); once the lock is held, the writing itself has its
  // time (a large trace), bounded only against a reader that never comes (a FIFO).
  auto locked = std::make_shared<std::promise<void>>();
  auto written = std::make_shared<std::promise<void>>();
  std::future<void> got_lock = locked->get_future();
  std::future<void> done = written->get_future();
  std::thread([this, locked, written] {
    pybind11::gil_scoped_acquire lock;  // write_exports_ takes it again (re-entrant)
    locked->set_value();
    try {
      write_exports_();
    } catch (const std::exception& e) {
      std::cerr << "devicescope: " << e.what() << "\n";
    }
    written->set_value();
  }).detach();
  if (got_lock.wait_for(kLockPatience) != std::future_status::ready)
    std::cerr << "devicescope: the exports were not written: the script's native code keeps the interpreter lock "
              << "(waited " << kLockPatience.count() << " s for it)\n";
  else if (done.wait_for(std::chrono::seconds(600)) != std::future_status::ready)
    std::cerr << "devicescope: the exports were not finished in 600 s (nothing reads the output?)\n";
  std::fflush(nullptr);
  std::_Exit(interrupted_exit_code());
}

}  // namespace ds::cli

#endif  // DEVICESCOPE_HAVE_PYTHON
