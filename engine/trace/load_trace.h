// Reading a recording back: a Chrome trace JSON or a transfers CSV written by DeviceScope
// (how a GPU machine's recording is shown on a laptop). Bad files raise ds::Error, never crash.
#pragma once

#include <deque>
#include <istream>
#include <string>

#include "core/errors.h"
#include "trace/export_chrome_trace.h"
#include "trace/records.h"

namespace ds {

struct LoadedTrace {
  TraceMeta meta;                        // from a CSV: only `simulated` (any row simulated) is known
  std::deque<TransferRecord> transfers;  // backend_ticket is not stored and reads back as 0
  std::deque<Event> events;              // empty for a CSV
  std::string format;                    // "chrome-trace" or "csv"
};

// Detects the format from the content. A file that cannot be read raises RuntimeError
// "cannot read <path>: <strerror>"; anything that is not a complete DeviceScope trace raises
// ValueError "<path>: not a DeviceScope trace: <what is wrong>".
LoadedTrace load_trace(const std::string& path);
std::deque<TransferRecord> load_transfers_csv(const std::string& path);

// The same from memory; `name` stands for the path in messages.
LoadedTrace parse_chrome_trace(const char* data, size_t size, const std::string& name);
std::deque<TransferRecord> parse_transfers_csv(const char* data, size_t size, const std::string& name);

// The ValueError the loaders raise.
Error not_a_trace(const std::string& name, const std::string& what);

}  // namespace ds
