// Buffered text output for the exporters: numbers through std::to_chars, flushed in large chunks.
// (std::ostream's operator<< per field is several times slower at a million rows.)
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace ds::trace_detail {

class TextOut {
 public:
  explicit TextOut(std::ostream& os) : os_(os) { buf_.reserve(kChunk + 4096); }
  ~TextOut() { flush(); }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  TextOut& put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) flush();
    return *this;
  }
  TextOut& put(char c) {
    buf_.push_back(c);
    return *this;
  }
  TextOut& u64(uint64_t v) { return number(v); }
  TextOut& i64(int64_t v) { return number(v); }
  // Shortest text that reads back to the same double; non-finite values become 0 (JSON has no NaN).
  TextOut& dbl(double v) {
    if (!std::isfinite(v)) v = 0;
    char tmp[32];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
    return *this;
  }
  TextOut& fixed(double v, int decimals) {
    if (!std::isfinite(v)) v = 0;
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, decimals);
    if (r.ec != std::errc()) return dbl(v);
    buf_.append(tmp, r.ptr);
    return *this;
  }
  // Nanoseconds written as microseconds with three decimals: exact, no floating point.
  TextOut& ns_as_us(uint64_t ns) {
    number(ns / 1000);
    const unsigned frac = unsigned(ns % 1000);
    char tmp[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10)};
    buf_.append(tmp, 4);
    return *this;
  }
  void flush() {
    if (!buf_.empty()) {
      os_.write(buf_.data(), std::streamsize(buf_.size()));
      buf_.clear();
    }
  }

 private:
  template <typename T>
  TextOut& number(T v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
    return *this;
  }

  static constexpr size_t kChunk = 1 << 20;
  std::ostream& os_;
  std::string buf_;
};

}  // namespace ds::trace_detail
