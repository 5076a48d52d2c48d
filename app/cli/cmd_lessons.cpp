// `devicescope lessons [--list] [--check] [--lesson NAME]...`: lists the workshop lessons (assets/lessons) and
// checks them headless - each lesson in a fresh session (new globals, new runtime) - through devicescope.lessons.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <iostream>
#include <string>
#include <vector>

#include "core/install_layout.h"
#include "cli/commands.h"

#ifdef DEVICESCOPE_HAVE_PYTHON
#include "python/python_session.h"
#endif

extern char** environ;

namespace ds::cli {
namespace {

struct LessonsArgs {
  bool list = false;
  bool check = false;
  bool verbose = false;
  bool no_summary = false;  // internal: a child run for one lesson prints no summary line
  int timeout_s = 300;      // per lesson; a lesson stuck in a loop is interrupted and fails
  std::vector<std::string> lessons;
  std::string dir;
};

// Exit codes of devicescope.lessons.main (engine/python/devicescope/lessons.py).
constexpr int kPass = 0, kFail = 1, kUsage = 2, kUnmet = 3;

std::string lessons_dir(const LessonsArgs& a) {
  if (!a.dir.empty()) return a.dir;
  if (const char* env = std::getenv("DEVICESCOPE_LESSONS_DIR"); env && *env) return env;
  if (const std::string installed = installed_data_dir("assets/lessons"); !installed.empty())
    return installed + "/assets/lessons";  // an installed binary (core/install_layout.h)
  return std::string(DEVICESCOPE_SOURCE_DIR) + "/assets/lessons";
}

#ifdef DEVICESCOPE_HAVE_PYTHON
constexpr const char* kDriver =
    "import sys\n"
    "from devicescope import lessons\n"
    "raise SystemExit(lessons.main(sys.argv[1:]))\n";

// Interrupts the session (KeyboardInterrupt in the lesson's code) when a run takes longer than its limit.
class Watchdog {
 public:
  Watchdog(python::PythonSession& session, int seconds) {
    if (seconds <= 0) return;
    thread_ = std::thread([this, &session, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) session.interrupt();
    });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

// One interpreter for the whole command; what Python prints is either captured or passed through.
class LessonDriver {
 public:
  explicit LessonDriver(const BackendFlags& flags) {
    python::SessionOptions options;
    options.runtime.backend = flags.options();
    options.build_object_graph = false;  // nothing shows it headless
    options.output = [this](std::string_view text, bool is_err) {
      if (capture_) {
        captured_.append(text);
      } else {
        (is_err ? std::cerr : std::cout) << text;
      }
    };
    session_ = std::make_unique<python::PythonSession>(options);
  }

  bool simulated() { return session_->runtime().backend().caps().simulated; }

  // Runs devicescope.lessons.main(args); returns its exit code (the traceback is printed if the driver itself
  // failed, which is a bug in the checker rather than in a lesson).
  int run(const std::vector<std::string>& args, bool capture, std::string* out = nullptr, int timeout_s = 0) {
    capture_ = capture;
    captured_.clear();
    std::vector<std::string> argv{"devicescope-lessons"};
    argv.insert(argv.end(), args.begin(), args.end());
    python::RunResult r;
    {
      Watchdog dog(*session_, timeout_s);
      r = session_->run_source(kDriver, "<devicescope lessons>", argv);
    }
    capture_ = false;
    if (out) *out = captured_;
    std::cout.flush();
    if (r.status == python::RunStatus::Error || r.status == python::RunStatus::Interrupted) {
      if (!captured_.empty() && !out) std::cout << captured_;
      std::cerr << r.error.traceback << std::flush;
      return r.status == python::RunStatus::Interrupted ? 130 : kUsage;
    }
    return r.exit_code;
  }

  void reset() { session_->reset(); }

 private:
  std::unique_ptr<python::PythonSession> session_;
  bool capture_ = false;
  std::string captured_;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A lesson whose `# requires:` fails on this backend (e.g. it needs two GPUs and the machine has one real GPU) is
// checked again in a child process on (at least two) simulated devices, so a one-GPU machine still checks every
// lesson; the note printed before it says so.
int check_in_simulated_child(const BackendFlags& flags, const LessonsArgs& a, const std::string& path) {
  std::vector<std::string> args{"devicescope",  "lessons",    "--check", "--no-summary", "--lesson",
                                path,           "--backend",  "sim",     "--sim-devices",
                                std::to_string(flags.sim_devices < 2 ? 2 : flags.sim_devices),
                                "--sim-memory", flags.sim_memory, "--link", flags.link};
  if (a.verbose) args.push_back("--verbose");
  args.push_back("--timeout");
  args.push_back(std::to_string(a.timeout_s));
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::cout.flush();
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ) != 0) {
    std::cout << "FAIL " << path << " (could not start a simulated-device run)\n";
    return kFail;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? kPass : kFail;
}

int run_lessons(const BackendFlags& flags, const LessonsArgs& a) {
  LessonDriver driver(flags);
  std::vector<std::string> selection{"--dir", lessons_dir(a)};
  for (const std::string& n : a.lessons) {
    selection.push_back("--lesson");
    selection.push_back(n);
  }
  if (a.list || !a.check) {
    std::vector<std::string> args{"list"};
    args.insert(args.end(), selection.begin(), selection.end());
    const int code = driver.run(args, false);
    if (!a.check || code != kPass) return code;
  }

  std::string listing;
  std::vector<std::string> args{"paths"};
  args.insert(args.end(), selection.begin(), selection.end());
  if (int code = driver.run(args, true, &listing); code != kPass) {
    std::cerr << listing;
    return code;
  }
  // Re-running on simulated devices helps unless we already are on two or more of them.
  const bool fallback = !driver.simulated() || flags.sim_devices < 2;
  int passed = 0, failed = 0;
  for (const std::string& path : split_lines(listing)) {
    driver.reset();  // fresh globals and a fresh runtime for every lesson
    std::vector<std::string> one{"check-one", path};
    if (a.verbose) one.push_back("--verbose");
    if (fallback) one.push_back("--fallback");
    std::string report;
    int code = driver.run(one, true, &report, a.timeout_s);
    if (code == 130) {
      std::string name = path.substr(path.find_last_of('/') + 1);
      if (name.size() > 3 && name.ends_with(".py")) name.resize(name.size() - 3);
      std::cout << report << "FAIL " << name << " (interrupted: still running after " << a.timeout_s
                << " s; see --timeout)\n";
      code = kFail;
    } else if (code == kUnmet) {
      std::cout << "note: " << report.substr(0, report.find('\n'))
                << " - checking it on simulated devices instead\n";
      code = check_in_simulated_child(flags, a, path);
    } else {
      std::cout << report;
    }
    (code == kPass ? passed : failed) += 1;
  }
  if (!a.no_summary) std::cout << passed << " passed, " << failed << " failed\n";
  std::cout.flush();
  return failed == 0 ? kPass : kFail;
}
#endif

}  // namespace

Command lessons_command() {
  auto flags_ptr = std::make_shared<BackendFlags*>(nullptr);
  auto args = std::make_shared<LessonsArgs>();
  Command c;
  c.setup = [flags_ptr, args](CLI::App& app, BackendFlags& flags) {
    *flags_ptr = &flags;
    CLI::App* sub = app.add_subcommand("lessons", "list the workshop lessons, or check them headless");
    sub->add_flag("--list", args->list, "list the lessons (the default without --check)");
    sub->add_flag("--check", args->check,
                  "run every lesson, each in a fresh session, and verify every expectation it declares");
    sub->add_option("--lesson", args->lessons, "only this lesson (its number, name, a unique prefix or a path); repeatable");
    sub->add_option("--dir", args->dir, "the lessons folder (default: $DEVICESCOPE_LESSONS_DIR or assets/lessons)");
    sub->add_flag("--verbose", args->verbose, "also list the steps of passing lessons");
    sub->add_option("--timeout", args->timeout_s, "seconds one lesson may run before it is interrupted (0: no limit)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_flag("--no-summary", args->no_summary)->group("");  // internal, for the simulated-device re-run
    return sub;
  };
  c.run = [flags_ptr, args]() -> int {
#ifdef DEVICESCOPE_HAVE_PYTHON
    return run_lessons(**flags_ptr, *args);
#else
    std::cerr << "devicescope: this build has no Python support (python3-dev and pybind11-dev are needed)\n";
    return kUsage;
#endif
  };
  return c;
}

}  // namespace ds::cli
