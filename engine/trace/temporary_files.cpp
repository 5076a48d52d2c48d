// Temporaries: naming, the stale sweep, and the signal-time cleanup. The handler only uses
// async-signal-safe calls (unlink, signal, raise) on paths stored in fixed buffers beforehand.
#include "trace/temporary_files.h"

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string_view>

namespace ds {
namespace {

constexpr int kSlots = 16;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

enum SlotState : int { kFree, kFilling, kReady };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

std::mutex g_install_mutex;
int g_guards = 0;                                  // live TemporaryFileGuards
bool g_installed[std::size(kSignals)] = {};         // our handler is in place for kSignals[i]

void on_fatal_signal(int sig) {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kReady) ::unlink(s.path);
  // Installed only over SIG_DFL: die the way the signal meant (exit status says "killed by SIGTERM").
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction old {};
    if (::sigaction(kSignals[i], nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;  // someone handles it (Python, a watchdog)
    struct sigaction mine {};
    mine.sa_handler = on_fatal_signal;
    sigemptyset(&mine.sa_mask);
    g_installed[i] = ::sigaction(kSignals[i], &mine, nullptr) == 0;
  }
}

void remove_handlers() {
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    if (!g_installed[i]) continue;
    g_installed[i] = false;
    struct sigaction now {};
    // Leave a handler someone installed meanwhile in place.
    if (::sigaction(kSignals[i], nullptr, &now) == 0 && !(now.sa_flags & SA_SIGINFO) &&
        now.sa_handler == on_fatal_signal)
      ::signal(kSignals[i], SIG_DFL);
  }
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::string temporary_name(const std::string& file, unsigned n) {
  return file + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
}

void remove_stale_temporaries(const std::string& file) {
  const size_t slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? file : file.substr(slash + 1)) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;  // the export itself will report the problem
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view rest = name.substr(prefix.size());  // "<pid>.<n>"
    const size_t dot = rest.find('.');
    if (dot == std::string_view::npos || !all_digits(rest.substr(0, dot)) || !all_digits(rest.substr(dot + 1))) continue;
    const long pid = std::strtol(std::string(rest.substr(0, dot)).c_str(), nullptr, 10);
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to ask): in use
    const std::string path = dir + "/" + std::string(name);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(path.c_str());
  }
  ::closedir(d);
}

TemporaryFileGuard::TemporaryFileGuard(const std::string& temp) {
  if (temp.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, temp.c_str(), temp.size() + 1);
    g_slots[i].state.store(kReady, std::memory_order_release);
    slot_ = i;
    break;
  }
  std::lock_guard lock(g_install_mutex);
  if (g_guards++ == 0) install_handlers();
}

TemporaryFileGuard::~TemporaryFileGuard() {
  {
    std::lock_guard lock(g_install_mutex);
    if (--g_guards == 0) remove_handlers();
  }
  if (slot_ >= 0) g_slots[slot_].state.store(kFree, std::memory_order_release);
}

}  // namespace ds
