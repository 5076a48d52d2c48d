// Transfers as CSV (one row per copy) for spreadsheets and pandas; load_transfers_csv reads it back.
#pragma once

#include <deque>
#include <ostream>
#include <string_view>

#include "trace/records.h"

namespace ds {

// The header row, without the line break. Columns: places as Place::str(), routes as route_name(),
// booleans as true/false, times in integer nanoseconds, gbps with 3 decimals (1e9 bytes/s),
// measured_ns as the shortest decimal that reads back exactly. duration_ns and gbps are 0 while
// a copy is incomplete. Lines end with "\n"; owner is quoted per RFC 4180 when it needs it.
inline constexpr std::string_view kTransfersCsvHeader =
    "id,src,dst,bytes,route,non_blocking,async,stream_device,stream,enqueue_ns,start_ns,end_ns,"
    "duration_ns,gbps,measured_ns,simulated,complete,src_storage,dst_storage,owner";

void write_transfers_csv(const std::deque<TransferRecord>& transfers, std::ostream& out);

// RFC 4180 field: quoted (with quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);

}  // namespace ds
