// write_transfers_csv: one row per TransferRecord (columns: kTransferFields), streamed through a large buffer.
#include "trace/export_csv.h"

#include "trace/text_out.h"

namespace ds {
namespace {

// csv_field without the temporary string: most owners need no quoting.
void put_csv(trace_detail::TextOut& o, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    o.put(text);
    return;
  }
  o.put('"');
  for (char c : text) {
    if (c == '"') o.put('"');
    o.put(c);
  }
  o.put('"');
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

void write_transfers_csv(const std::deque<TransferRecord>& transfers, std::ostream& out) {
  trace_detail::TextOut o(out);
  o.put(kTransfersCsvHeader).put('\n');
  for (const TransferRecord& t : transfers) {
    for (const TransferField& f : kTransferFields) {
      if (&f != kTransferFields) o.put(',');
      const FieldValue v = f.get(t);
      if (f.kind == FieldKind::String) put_csv(o, v.s);
      else write_field_text(o, f.kind, v);
    }
    o.put('\n');
  }
  o.flush();
}

}  // namespace ds
