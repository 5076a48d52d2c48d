// A small validating JSON pull reader for load_trace: no DOM, no allocation per value, so a
// million-transfer trace (about 600 MB) reads in seconds. Syntax errors throw JsonSyntaxError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ds {

struct JsonSyntaxError : std::runtime_error {
  JsonSyntaxError(size_t offset, bool truncated, const std::string& what)
      : std::runtime_error(what), offset(offset), truncated(truncated) {}
  size_t offset;   // byte where the problem was found
  bool truncated;  // the input ended inside a value
};

class JsonReader {
 public:
  enum class Type { Object, Array, String, Number, Bool, Null, End };

  JsonReader(const char* data, size_t size) : p_(data), begin_(data), end_(data + size) {}

  // Type of the next value (skips white space); End when the input is exhausted.
  Type peek();
  // Objects: begin_object(); while (next_key(k)) { read or skip exactly one value }
  void begin_object();
  bool next_key(std::string_view& key);  // false at '}'; `key` is valid until the next string is read
  // Arrays: begin_array(); while (next_element()) { read or skip exactly one value }
  void begin_array();
  bool next_element();  // false at ']'

  std::string_view read_string();       // unescaped; valid until the next string is read
  std::string_view read_number_text();  // the number as written (grammar checked)
  bool read_bool();
  void read_null();
  void skip_value();
  void finish();  // only white space may follow the top-level value
  size_t offset() const { return size_t(p_ - begin_); }

  // Conversions of read_number_text(); nullopt when the number does not fit the type.
  static std::optional<uint64_t> to_u64(std::string_view number);
  static std::optional<int64_t> to_i64(std::string_view number);
  static std::optional<double> to_double(std::string_view number);

 private:
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_at_end() const;
  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  char next_char();  // after white space; fails at the end of input
  void expect_literal(std::string_view word);
  void skip_value(int depth);
  uint32_t hex4();

  const char* p_;
  const char* begin_;
  const char* end_;
  std::vector<uint8_t> first_;  // per open container: no element read yet
  std::string scratch_;         // unescaped strings
};

}  // namespace ds
