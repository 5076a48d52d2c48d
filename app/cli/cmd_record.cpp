// `devicescope record [--out FILE] [--python PYTHON] SCRIPT [ARGS...]`: runs SCRIPT under a real
// PyTorch interpreter with DeviceScope's pure-Python recorder (engine/recorder/devicescope_recorder) and
// says where the recording went. The recorder writes the Chrome trace `devicescope inspect` and the app
// open, keeping the script, its arguments and exit status in its metadata; the script's exit code is this
// command's exit code (a signal that killed it: 128 + the signal). The recorder is the same package that
// installs as a wheel on a GPU machine (engine/recorder, `python -m devicescope_recorder`).
// Under torchrun (`torchrun --no_python devicescope record ...`) RANK is set and each rank writes
// FILE with ".rankN" before the extension.
//
// Signals: Ctrl+C in a terminal reaches the whole foreground process group, so the script already has
// it; a signal sent to this process alone (kill, a job scheduler) is passed on to the script.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/install_layout.h"
#include "cli/commands.h"

extern char** environ;

namespace ds::cli {
namespace {

namespace fs = std::filesystem;

struct RecordArgs {
  std::string out;
  std::string python = "python3";
  std::string script;
  std::vector<std::string> script_args;
};

// The recorder package's parent folder: $DEVICESCOPE_RECORDER_DIR, else the source tree's engine/recorder.
std::string recorder_dir() {
  if (const char* dir = std::getenv("DEVICESCOPE_RECORDER_DIR"); dir && *dir) return dir;
  // An installed binary's copy beside it (core/install_layout.h).
  if (const std::string installed = installed_data_dir("engine/recorder/devicescope_recorder"); !installed.empty())
    return installed + "/engine/recorder";
#ifdef DEVICESCOPE_PYTHON_DIR
  return (fs::path(DEVICESCOPE_PYTHON_DIR).parent_path() / "recorder").string();
#else
  return (fs::path(__FILE__).parent_path().parent_path().parent_path() / "engine" / "recorder").string();
#endif
}

// PYTHON as execvp would find it, for messages ("" when it is nowhere on PATH).
std::string resolve_python(const std::string& python) {
  if (python.find('/') != std::string::npos) return ::access(python.c_str(), X_OK) == 0 ? python : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + python;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

std::vector<char*> c_argv(std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (std::string& a : argv) out.push_back(a.data());
  out.push_back(nullptr);
  return out;
}

// Runs argv, its stdout and stderr captured together; the wait status (-1 when it could not start).
int run_captured(std::vector<std::string> argv, std::string& output) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    std::vector<char*> a = c_argv(argv);
    ::execvp(a[0], a.data());
    std::fprintf(stderr, "%s\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  char buf[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buf, size_t(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// "" when PYTHON imports a torch of 1.13 or later, else what is wrong, for the user.
std::string torch_problem(const std::string& python, const std::string& resolved) {
  if (resolved.empty())
    return "no Python interpreter '" + python + "'" +
           (python.find('/') != std::string::npos ? " (not an executable file)" : " on PATH") +
           "; pick one with --python PYTHON";
  std::string output;
  const int status = run_captured({resolved, "-c", "import torch, sys; sys.stdout.write(torch.__version__)"}, output);
  const std::string how = "Install PyTorch 1.13 or later for it (`" + resolved +
                          " -m pip install torch`, see https://pytorch.org/get-started/locally/) or pick another "
                          "interpreter with --python PYTHON";
  if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return resolved + " cannot import torch (" + last_line(output) + "). " + how;
  int major = 0, minor = 0;
  if (std::sscanf(output.c_str(), "%d.%d", &major, &minor) != 2 || major < 1 || (major == 1 && minor < 13))
    return resolved + " has torch " + output + "; the recorder needs 1.13 or later. " + how;
  return "";
}

// FILE with ".rankN" before its extension under torchrun, as the recorder names it.
std::string ranked(const std::string& path) {
  const char* rank = std::getenv("RANK");
  if (!rank) return path;
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + ".rank" + rank + p.extension().string())).string();
}

volatile sig_atomic_t g_child = 0;

void pass_on(int sig, siginfo_t* info, void*) {
  // SI_KERNEL: the terminal sent it to the whole process group, the script included.
  if (g_child > 0 && info && info->si_code != SI_KERNEL) ::kill(g_child, sig);
}

int record(RecordArgs& a) {
  const std::string resolved = resolve_python(a.python);
  if (const std::string problem = torch_problem(a.python, resolved); !problem.empty()) {
    std::cerr << "devicescope record: " << problem << "\n";
    return 2;
  }
  struct stat st {};
  if (::stat(a.script.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::cerr << "devicescope record: no script file '" << a.script << "'\n";
    return 2;
  }
  if (a.out.empty()) a.out = fs::path(a.script).stem().string() + ".devicescope.json";
  const std::string out = fs::absolute(a.out).string();  // the script may chdir

  std::string pythonpath = recorder_dir();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonpath += std::string(":") + old;
  std::vector<std::string> argv = {resolved, "-m", "devicescope_recorder", "--out", out, "--", a.script};
  argv.insert(argv.end(), a.script_args.begin(), a.script_args.end());

  struct sigaction sa {};
  sa.sa_sigaction = pass_on;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) ::sigaction(sig, &sa, nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) {
    std::cerr << "devicescope record: cannot start " << resolved << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) ::signal(sig, SIG_DFL);
    ::setenv("PYTHONPATH", pythonpath.c_str(), 1);
    ::setenv("DEVICESCOPE_VERSION", DEVICESCOPE_VERSION, 1);
    ::setenv("DEVICESCOPE_RECORD_CLI", "1", 1);  // this command says where the recording went
    std::vector<char*> c = c_argv(argv);
    ::execv(c[0], c.data());
    std::fprintf(stderr, "devicescope record: cannot run %s: %s\n", c[0], std::strerror(errno));
    ::_exit(127);
  }
  g_child = pid;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  const std::string written = ranked(out);
  struct stat rec {};
  if (::stat(written.c_str(), &rec) == 0)
    std::cerr << "devicescope record: recording written to " << written
              << (::stat((written + ".pickle").c_str(), &rec) == 0 ? " (allocator snapshot: " + written + ".pickle)" : "")
              << "\n";
  else
    std::cerr << "devicescope record: no recording was written (" << written << ")\n";
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

Command record_command() {
  auto args = std::make_shared<RecordArgs>();
  Command c;
  c.setup = [args](CLI::App& app, BackendFlags&) {
    CLI::App* sub = app.add_subcommand("record", "run a script under real PyTorch and record its memory and copies");
    sub->add_option("--out", args->out, "the recording to write (default: SCRIPT's name + .devicescope.json; "
                                        "under torchrun FILE.rankN.json per rank)");
    sub->add_option("--python", args->python, "the Python interpreter with torch 1.13+ (default: python3 on PATH)");
    sub->add_option("script", args->script, "the Python script (run as __main__, like `python SCRIPT.py`)")->required();
    sub->add_option("args", args->script_args,
                    "arguments for the script (sys.argv[1:]): everything after the script, as with python3 (record's own "
                    "options come before the script)");
    return sub;
  };
  c.run = [args]() { return record(*args); };
  return c;
}

}  // namespace ds::cli
