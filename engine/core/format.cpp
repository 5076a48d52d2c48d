// Byte formatting as c10's format_size (CUDACachingAllocator.cpp) and a parser for the CLI.
#include "core/format.h"

#include <cctype>
#include <cstdio>

#include "core/errors.h"

namespace ds {

std::string format_bytes(uint64_t size) {
  char buf[64];
  if (size <= 1024) {
    std::snprintf(buf, sizeof buf, "%llu bytes", (unsigned long long)size);
  } else if (size <= 1048576) {
    std::snprintf(buf, sizeof buf, "%.2f KiB", double(size) / 1024.0);
  } else if (size <= 1073741824ull) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", double(size) / 1048576.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(size) / 1073741824.0);
  }
  return buf;
}

uint64_t parse_bytes(const std::string& text) {
  size_t i = 0;
  double value = 0;
  bool digits = false, dot = false;
  double scale = 0.1;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
      if (dot) { value += (c - '0') * scale; scale /= 10; }
      else value = value * 10 + (c - '0');
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  std::string unit = text.substr(i);
  for (auto& c : unit) c = char(std::tolower(static_cast<unsigned char>(c)));
  double mult = 0;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kib" || unit == "kb") mult = 1024.0;
  else if (unit == "m" || unit == "mib" || unit == "mb") mult = 1048576.0;
  else if (unit == "g" || unit == "gib" || unit == "gb") mult = 1073741824.0;
  else if (unit == "t" || unit == "tib" || unit == "tb") mult = 1099511627776.0;
  if (!digits || mult == 0)
    raise(ErrorKind::ValueError, "invalid size '" + text + "' (expected e.g. 4096, 4KiB, 256MiB, 16GiB)");
  return uint64_t(value * mult + 0.5);
}

std::string format_duration(double ns, bool compact) {
  char buf[32];
  if (ns < 1e3) std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  else if (ns < 1e6) std::snprintf(buf, sizeof buf, compact ? "%.1f \xc2\xb5s" : "%.2f \xc2\xb5s", ns / 1e3);
  else if (ns < 1e9) std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  else std::snprintf(buf, sizeof buf, compact ? "%.2f s" : "%.3f s", ns / 1e9);
  return buf;
}

std::string format_rate(double gb_per_s) {
  char buf[32];
  if (gb_per_s >= 10) std::snprintf(buf, sizeof buf, "%.1f GB/s", gb_per_s);
  else if (gb_per_s >= 0.01) std::snprintf(buf, sizeof buf, "%.2f GB/s", gb_per_s);
  else std::snprintf(buf, sizeof buf, "%.1f MB/s", gb_per_s * 1000);
  return buf;
}

}  // namespace ds
