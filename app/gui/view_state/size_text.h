// Sizes as people write them on screen (issue 24 item 8): "0 bytes", "1 byte", "40 bytes", "1 KiB",
// "1.5 KiB", "182 KiB", "2 MiB"; never "1024.00 KiB" or "1 bytes". (The command line keeps core/format's
// fixed two decimals, which line up in columns.)
#pragma once

#include <cstdint>
#include <string>

namespace ds::gui {

// Three significant digits at most, trailing zeros dropped, the unit changed when rounding reaches 1024.
std::string size_text(uint64_t bytes);
// A fractional size, e.g. a scale ("1 px \xe2\x89\x88 182 KiB"); below one byte: "0.25 bytes".
std::string size_text(double bytes);

}  // namespace ds::gui
