// Human size text for the GUI.
#include "gui/view_state/size_text.h"

#include <cmath>
#include <cstdio>

namespace ds::gui {
namespace {

// v in [1, 1024): three significant digits, trailing zeros and a trailing dot dropped.
std::string digits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// The value rounded as digits() would print it.
double rounded(double v) {
  const double q = v < 10 ? 100 : v < 100 ? 10 : 1;
  return std::round(v * q) / q;
}

}  // namespace

std::string size_text(uint64_t bytes) {
  if (bytes == 1) return "1 byte";
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  return size_text(double(bytes));
}

std::string size_text(double bytes) {
  if (!(bytes >= 0)) return "0 bytes";
  if (bytes < 1024) {
    if (bytes == std::floor(bytes)) return size_text(uint64_t(bytes));
    return digits(std::max(bytes, 0.01)) + " bytes";
  }
  static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = bytes / 1024;
  size_t u = 0;
  while (u + 1 < std::size(units) && rounded(v) >= 1024) {
    v /= 1024;
    ++u;
  }
  return digits(v) + " " + units[u];
}

}  // namespace ds::gui
