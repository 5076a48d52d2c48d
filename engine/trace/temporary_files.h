// The temporaries of write_file_atomically ("<file>.tmp.<pid>.<n>", up to hundreds of MB) must not
// outlive an export: one in flight is removed when SIGINT/SIGTERM/SIGHUP ends the process, and the
// next export to the same file removes those of processes that died without a chance (SIGKILL).
#pragma once

#include <string>

namespace ds {

// "<file>.tmp.<this process's pid>.<n>".
std::string temporary_name(const std::string& file, unsigned n);

// Removes "<file>.tmp.<pid>.<n>" (regular files only) whose process no longer exists; a live pid's
// temporary is another export in progress and is left alone.
void remove_stale_temporaries(const std::string& file);

// While one exists, `temp` is unlinked if SIGINT, SIGTERM or SIGHUP ends the process with its default
// action (a handler is installed only for signals nobody else handles, and removed again after).
class TemporaryFileGuard {
 public:
  explicit TemporaryFileGuard(const std::string& temp);
  ~TemporaryFileGuard();
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

 private:
  int slot_ = -1;  // -1: no free slot (too many exports at once; the stale sweep still catches it)
};

}  // namespace ds
