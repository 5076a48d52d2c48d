// Fuzzes parse_transfers_csv (the --csv export read back): only ds::Error may come out, and whatever it
// accepts must survive write_transfers_csv -> parse -> write unchanged.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_common.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::deque<ds::TransferRecord> t;
  if (!ds_fuzz::parses("parse_transfers_csv",
                       [&] { t = ds::parse_transfers_csv(reinterpret_cast<const char*>(data), size, "fuzz.csv"); }))
    return 0;
  // The loaders refuse a big file from its head: no head of an accepted file may be refused.
  for (size_t cut = 0; cut < size; cut += size / 16 + 1)
    if (!ds_fuzz::parses("check_transfers_csv_head", [&] { ds::check_transfers_csv_head(reinterpret_cast<const char*>(data), cut, "head"); }))
      ds_fuzz::finding("the head check refused the first " + std::to_string(cut) + " bytes of an accepted file");
  std::ostringstream first;
  ds::write_transfers_csv(t, first);
  const std::string a = first.str();
  std::deque<ds::TransferRecord> back;
  if (!ds_fuzz::parses("parse_transfers_csv (round trip)", [&] { back = ds::parse_transfers_csv(a.data(), a.size(), "re.csv"); }))
    ds_fuzz::finding("a CSV the loader accepted was written back as a file it refuses");
  std::ostringstream second;
  ds::write_transfers_csv(back, second);
  if (second.str() != a) ds_fuzz::finding("write -> parse -> write of an accepted CSV changed the file");
  return 0;
}
