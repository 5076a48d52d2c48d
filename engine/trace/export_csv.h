// Transfers as CSV (one row per copy) for spreadsheets and pandas; load_transfers_csv reads it back.
#pragma once

#include <deque>
#include <ostream>
#include <string_view>

#include "trace/records.h"
#include "trace/transfer_fields.h"

namespace ds {

// A header row (kTransfersCsvHeader: the names of kTransferFields, in order), then one row per
// transfer, each field written as its FieldKind says. Lines end with "\n"; owner is quoted per
// RFC 4180 when it needs it.
void write_transfers_csv(const std::deque<TransferRecord>& transfers, std::ostream& out);

// RFC 4180 field: quoted (with quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);

}  // namespace ds
