// write_transfers_csv: one row per TransferRecord, streamed through a large buffer.
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
  auto boolean = [&](bool b) -> trace_detail::TextOut& { return o.put(b ? "true" : "false"); };
  for (const TransferRecord& t : transfers) {
    o.u64(t.id).put(',');
    o.put(t.src.str()).put(',');
    o.put(t.dst.str()).put(',');
    o.u64(t.bytes).put(',');
    o.put(route_name(t.route)).put(',');
    boolean(t.non_blocking).put(',');
    boolean(t.async).put(',');
    o.i64(t.stream_device).put(',');
    o.i64(t.stream).put(',');
    o.u64(t.enqueue_ns).put(',');
    o.u64(t.start_ns).put(',');
    o.u64(t.end_ns).put(',');
    o.u64(t.complete && t.end_ns >= t.start_ns ? t.end_ns - t.start_ns : 0).put(',');
    o.fixed(t.gbps(), 3).put(',');
    o.dbl(t.measured_ns).put(',');
    boolean(t.simulated).put(',');
    boolean(t.complete).put(',');
    o.u64(t.src_storage).put(',');
    o.u64(t.dst_storage).put(',');
    put_csv(o, t.owner);
    o.put('\n');
  }
  o.flush();
}

}  // namespace ds
