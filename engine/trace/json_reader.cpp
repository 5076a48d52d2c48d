// JsonReader: RFC 8259 grammar, checked byte by byte; strings are views into the input unless they
// hold escapes. Errors say where, and whether the input simply ended (a truncated file).
#include "trace/json_reader.h"

#include <charconv>

namespace ds {

void JsonReader::fail(const std::string& what) const { throw JsonSyntaxError(offset(), false, what); }
void JsonReader::fail_at_end() const { throw JsonSyntaxError(offset(), true, "unexpected end of input"); }

char JsonReader::next_char() {
  skip_ws();
  if (p_ >= end_) fail_at_end();
  return *p_;
}

JsonReader::Type JsonReader::peek() {
  skip_ws();
  if (p_ >= end_) return Type::End;
  switch (*p_) {
    case '{': return Type::Object;
    case '[': return Type::Array;
    case '"': return Type::String;
    case 't':
    case 'f': return Type::Bool;
    case 'n': return Type::Null;
    default:
      if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return Type::Number;
      fail(std::string("unexpected character '") + (*p_ >= 0x20 && *p_ < 0x7f ? std::string(1, *p_) : "?") + "'");
  }
}

void JsonReader::begin_object() {
  if (next_char() != '{') fail("expected '{'");
  ++p_;
  first_.push_back(1);
}

bool JsonReader::next_key(std::string_view& key) {
  char c = next_char();
  if (c == '}') {
    if (first_.empty()) fail("unexpected '}'");
    first_.pop_back();
    ++p_;
    return false;
  }
  if (!first_.back()) {
    if (c != ',') fail("expected ',' or '}' after an object member");
    ++p_;
    c = next_char();
  }
  first_.back() = 0;
  if (c != '"') fail("expected a string as object key");
  key = read_string();
  if (next_char() != ':') fail("expected ':' after an object key");
  ++p_;
  return true;
}

void JsonReader::begin_array() {
  if (next_char() != '[') fail("expected '['");
  ++p_;
  first_.push_back(1);
}

bool JsonReader::next_element() {
  const char c = next_char();
  if (c == ']') {
    if (first_.empty()) fail("unexpected ']'");
    first_.pop_back();
    ++p_;
    return false;
  }
  if (!first_.back()) {
    if (c != ',') fail("expected ',' or ']' after an array element");
    ++p_;
    next_char();  // a value must follow (fails at the end of input)
  }
  first_.back() = 0;
  return true;
}

uint32_t JsonReader::hex4() {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    if (p_ >= end_) fail_at_end();
    const char c = *p_++;
    v <<= 4;
    if (c >= '0' && c <= '9') v |= uint32_t(c - '0');
    else if (c >= 'a' && c <= 'f') v |= uint32_t(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= uint32_t(c - 'A' + 10);
    else fail("bad \\u escape");
  }
  return v;
}

std::string_view JsonReader::read_string() {
  if (next_char() != '"') fail("expected a string");
  ++p_;
  const char* start = p_;
  // Fast path: no escapes.
  while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
  if (p_ >= end_) fail_at_end();
  if (*p_ == '"') return std::string_view(start, size_t(p_++ - start));
  scratch_.assign(start, p_);
  while (true) {
    if (p_ >= end_) fail_at_end();
    const unsigned char c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      ++p_;
      return scratch_;
    }
    if (c < 0x20) fail("control character in a string");
    if (c != '\\') {
      scratch_.push_back(char(c));
      ++p_;
      continue;
    }
    if (++p_ >= end_) fail_at_end();
    const char e = *p_++;
    switch (e) {
      case '"': scratch_.push_back('"'); break;
      case '\\': scratch_.push_back('\\'); break;
      case '/': scratch_.push_back('/'); break;
      case 'b': scratch_.push_back('\b'); break;
      case 'f': scratch_.push_back('\f'); break;
      case 'n': scratch_.push_back('\n'); break;
      case 'r': scratch_.push_back('\r'); break;
      case 't': scratch_.push_back('\t'); break;
      case 'u': {
        uint32_t cp = hex4();
        if (cp >= 0xD800 && cp < 0xDC00) {  // high surrogate: a low one must follow
          if (end_ - p_ < 2) fail_at_end();
          if (p_[0] != '\\' || p_[1] != 'u') fail("unpaired surrogate in \\u escape");
          p_ += 2;
          const uint32_t lo = hex4();
          if (lo < 0xDC00 || lo >= 0xE000) fail("unpaired surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          fail("unpaired surrogate in \\u escape");
        }
        if (cp < 0x80) {
          scratch_.push_back(char(cp));
        } else if (cp < 0x800) {
          scratch_.push_back(char(0xC0 | (cp >> 6)));
          scratch_.push_back(char(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
          scratch_.push_back(char(0xE0 | (cp >> 12)));
          scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
          scratch_.push_back(char(0x80 | (cp & 0x3F)));
        } else {
          scratch_.push_back(char(0xF0 | (cp >> 18)));
          scratch_.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
          scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
          scratch_.push_back(char(0x80 | (cp & 0x3F)));
        }
        break;
      }
      default:
        fail("bad escape in a string");
    }
  }
}

std::string_view JsonReader::read_number_text() {
  next_char();
  const char* start = p_;
  auto digit = [&] { return p_ < end_ && *p_ >= '0' && *p_ <= '9'; };
  // A number may run to the very end of the input only when it is the whole document; inside
  // a container an input that ends here is truncated, which the container's next read reports.
  if (p_ < end_ && *p_ == '-') ++p_;
  if (!digit()) {
    if (p_ >= end_) fail_at_end();
    fail("bad number");
  }
  if (*p_ == '0') ++p_;
  else
    while (digit()) ++p_;
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    if (!digit()) {
      if (p_ >= end_) fail_at_end();
      fail("bad number");
    }
    while (digit()) ++p_;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (!digit()) {
      if (p_ >= end_) fail_at_end();
      fail("bad number");
    }
    while (digit()) ++p_;
  }
  return std::string_view(start, size_t(p_ - start));
}

void JsonReader::expect_literal(std::string_view word) {
  for (char c : word) {
    if (p_ >= end_) fail_at_end();
    if (*p_ != c) fail("bad literal (expected " + std::string(word) + ")");
    ++p_;
  }
}

bool JsonReader::read_bool() {
  const char c = next_char();
  if (c == 't') {
    expect_literal("true");
    return true;
  }
  if (c == 'f') {
    expect_literal("false");
    return false;
  }
  fail("expected true or false");
}

void JsonReader::read_null() {
  next_char();
  expect_literal("null");
}

void JsonReader::skip_value() { skip_value(0); }

void JsonReader::skip_value(int depth) {
  if (depth > 256) fail("nested too deeply");
  std::string_view key;
  switch (peek()) {
    case Type::Object:
      begin_object();
      while (next_key(key)) skip_value(depth + 1);
      break;
    case Type::Array:
      begin_array();
      while (next_element()) skip_value(depth + 1);
      break;
    case Type::String: read_string(); break;
    case Type::Number: read_number_text(); break;
    case Type::Bool: read_bool(); break;
    case Type::Null: read_null(); break;
    case Type::End: fail_at_end();
  }
}

void JsonReader::finish() {
  skip_ws();
  if (p_ != end_) fail("unexpected text after the end of the JSON document");
}

std::optional<uint64_t> JsonReader::to_u64(std::string_view n) {
  uint64_t v = 0;
  auto r = std::from_chars(n.data(), n.data() + n.size(), v);
  if (r.ec != std::errc() || r.ptr != n.data() + n.size()) return std::nullopt;
  return v;
}

std::optional<int64_t> JsonReader::to_i64(std::string_view n) {
  int64_t v = 0;
  auto r = std::from_chars(n.data(), n.data() + n.size(), v);
  if (r.ec != std::errc() || r.ptr != n.data() + n.size()) return std::nullopt;
  return v;
}

std::optional<double> JsonReader::to_double(std::string_view n) {
  double v = 0;
  auto r = std::from_chars(n.data(), n.data() + n.size(), v);
  if (r.ec != std::errc() || r.ptr != n.data() + n.size()) return std::nullopt;
  return v;
}

}  // namespace ds
