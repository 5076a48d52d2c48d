// Fuzzes parse_chrome_trace (the trace files `devicescope` and the app open): only ds::Error may come
// out, and whatever it accepts must survive write_chrome_trace -> parse -> write unchanged.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_common.h"
#include "trace/export_chrome_trace.h"
#include "trace/load_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ds::LoadedTrace t;
  if (!ds_fuzz::parses("parse_chrome_trace",
                       [&] { t = ds::parse_chrome_trace(reinterpret_cast<const char*>(data), size, "fuzz.json"); }))
    return 0;
  // The loaders refuse a big file from its head: no head of an accepted file may be refused.
  for (size_t cut = 0; cut < size; cut += size / 16 + 1)
    if (!ds_fuzz::parses("check_chrome_trace_head", [&] { ds::check_chrome_trace_head(reinterpret_cast<const char*>(data), cut, "head"); }))
      ds_fuzz::finding("the head check refused the first " + std::to_string(cut) + " bytes of an accepted file");
  std::ostringstream first;
  ds::write_chrome_trace(t.events, t.transfers, t.meta, first);
  const std::string a = first.str();
  ds::LoadedTrace back;
  if (!ds_fuzz::parses("parse_chrome_trace (round trip)", [&] { back = ds::parse_chrome_trace(a.data(), a.size(), "re.json"); }))
    ds_fuzz::finding("a trace the loader accepted was written back as a file it refuses");
  std::ostringstream second;
  ds::write_chrome_trace(back.events, back.transfers, back.meta, second);
  if (second.str() != a) ds_fuzz::finding("write -> parse -> write of an accepted trace changed the file");
  return 0;
}
