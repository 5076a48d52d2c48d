// Fuzzes ds::Device::parse (torch.device("...")): it either raises ds::Error or returns a device whose
// str() is exactly the input (the grammar has one spelling per device), and from_type_and_index agrees.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/device.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ds::Device d;
  if (!ds_fuzz::parses("Device::parse", [&] { d = ds::Device::parse(text); })) return 0;
  if (d.str() != text) ds_fuzz::finding("Device::parse('" + std::string(text) + "').str() is '" + d.str() + "'");
  if (d.has_index()) {
    const size_t colon = text.find(':');
    ds::Device e;
    const bool ok = ds_fuzz::parses("Device::from_type_and_index",
                                    [&] { e = ds::Device::from_type_and_index(text.substr(0, colon), d.index()); });
    if (!ok || e != d) ds_fuzz::finding("from_type_and_index disagrees with parse for '" + std::string(text) + "'");
  }
  return 0;
}
