// Progress and Cancel for the file loaders (load_trace, load_transfers_csv, load_sweep_json), so a
// GUI can load a recording on a worker thread, draw a progress bar and offer a Cancel button.
//
//   auto progress = std::make_shared<ds::LoadProgress>();
//   worker: try { LoadedTrace t = ds::load_trace(path, progress.get()); ... }
//           catch (const ds::LoadCancelled&) { /* the user cancelled: say nothing or "cancelled" */ }
//           catch (const std::exception& e) { /* show e.what() */ }
//   GUI:    ImGui::ProgressBar(float(progress->fraction())); if (Cancel) progress->cancel = true;
//
// A loader first reads the file into memory (bytes_read climbs to bytes_total), then parses it
// (bytes_done climbs to bytes_total). It checks `cancel` at least once per MiB of either, so a
// cancelled load ends within milliseconds, having loaded nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/errors.h"

namespace ds {

// Shared between the loading thread and any other: every member may be read or written from any
// thread at any time. One LoadProgress per load; a loader only ever raises the counters.
struct LoadProgress {
  std::atomic<uint64_t> bytes_total{0};  // the file's size, known once it is opened (0 before)
  std::atomic<uint64_t> bytes_read{0};   // bytes read from the file into memory so far
  std::atomic<uint64_t> bytes_done{0};   // bytes parsed so far (equals bytes_total when loading ends)
  std::atomic<bool> cancel{false};       // set by anyone: the loader stops and throws LoadCancelled

  // 0..1 for a progress bar: reading and parsing count half each.
  double fraction() const {
    const uint64_t total = bytes_total.load();
    if (total == 0) return 0.0;
    return (double(bytes_read.load()) + double(bytes_done.load())) / (2.0 * double(total));
  }
};

// What a loader throws when LoadProgress::cancel was set: "<path>: loading cancelled".
// An Error (RuntimeError) so code that shows every failure still shows something sensible.
class LoadCancelled : public Error {
 public:
  explicit LoadCancelled(const std::string& path) : Error(ErrorKind::RuntimeError, path + ": loading cancelled") {}
};

}  // namespace ds
