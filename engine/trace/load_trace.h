// Reading a recording back: a Chrome trace JSON or a transfers CSV written by DeviceScope
// (how a GPU machine's recording is shown on a laptop). Bad files raise ds::Error, never crash.
#pragma once

#include <deque>
#include <istream>
#include <string>

#include "core/errors.h"
#include "trace/export_chrome_trace.h"
#include "trace/load_csv.h"
#include "trace/load_progress.h"
#include "trace/not_a_trace.h"
#include "trace/records.h"

namespace ds {

struct LoadedTrace {
  TraceMeta meta;                        // from a CSV: only `simulated` (any row simulated) is known
  std::deque<TransferRecord> transfers;  // backend_ticket is not stored and reads back as 0
  std::deque<Event> events;              // empty for a CSV
  std::string format;                    // "chrome-trace" or "csv"
  // The "devicescopeRecorder" object `devicescope record` adds (raw JSON text, "" when absent): storage_roles
  // {storage id: role name}, transfer_lines, allocator, ... (engine/recorder/devicescope_recorder/trace_writer.py).
  // `devicescope run --trace` and the app's exports write one too, with storage_roles only (export_roles.h).
  std::string recorder_json;
  // The run `devicescope record` saw (raw JSON object text, "" when absent): {"script", "script_args",
  // "exit_status", "ended_by"} from the file's metadata.
  std::string run_json;
};

// Detects the format from the content. A file that cannot be read (missing, a directory, a FIFO or
// device, changed while read) raises RuntimeError "cannot read <path>: <why>"; anything that is not
// a complete, consistent DeviceScope trace raises ValueError "<path>: not a DeviceScope trace: <what
// is wrong>" (a file that is plainly not a recording is refused from its first bytes, unread).
// `progress` (optional) reports how far the load is and can cancel it (LoadCancelled).
LoadedTrace load_trace(const std::string& path, LoadProgress* progress = nullptr);
std::deque<TransferRecord> load_transfers_csv(const std::string& path, LoadProgress* progress = nullptr);

// The same from memory (a CSV: parse_transfers_csv in load_csv.h); `name` stands for the path in messages. `progress->bytes_done` counts bytes
// of `data` parsed (bytes_total and bytes_read are left to the caller).
LoadedTrace parse_chrome_trace(const char* data, size_t size, const std::string& name,
                               LoadProgress* progress = nullptr);

// The first bytes of a larger Chrome trace file (cut anywhere): raises what parsing the whole file would raise
// when the error already shows in them, so a huge file that is not a recording is refused unread.
void check_chrome_trace_head(const char* data, size_t size, const std::string& name);

}  // namespace ds
