// Reading a transfers CSV (write_transfers_csv's output) from memory; load_trace.h reads files.
// Bad content raises not_a_trace's ValueError, never crashes.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

#include "trace/load_progress.h"
#include "trace/records.h"

namespace ds {

// `name` stands for the path in messages. `progress->bytes_done` counts bytes of `data` parsed
// (bytes_total and bytes_read are left to the caller). Columns are found by their names in the
// first line, so reordered and extra columns are read; a missing stored column is an error naming it.
std::deque<TransferRecord> parse_transfers_csv(const char* data, size_t size, const std::string& name,
                                               LoadProgress* progress = nullptr);

// The first bytes of a larger CSV (cut anywhere): raises what parsing the whole file would raise when
// the error already shows in them, so a huge file that is not a recording is refused unread.
void check_transfers_csv_head(const char* data, size_t size, const std::string& name);

// Whether `text` starts with a line naming a transfers CSV column (in any order): how load_trace
// tells a CSV from other files.
bool starts_like_transfers_csv(std::string_view text);

}  // namespace ds
