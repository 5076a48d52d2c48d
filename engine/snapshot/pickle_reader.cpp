// The restricted unpickler: a byte source (file by read(2) in chunks, or memory) and the opcode loop.
#include "snapshot/pickle_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/errors.h"
#include "core/file_descriptor.h"

namespace ds::snapshot {

static_assert(std::endian::native == std::endian::little, "ByteSource::little_endian loads pickle's little-endian integers directly");

const char* pickle_kind_name(PickleKind k) {
  switch (k) {
    case PickleKind::None: return "None";
    case PickleKind::Bool: return "bool";
    case PickleKind::Int: return "int";
    case PickleKind::Float: return "float";
    case PickleKind::String: return "str";
    case PickleKind::Bytes: return "bytes";
    case PickleKind::List: return "list";
    case PickleKind::Tuple: return "tuple";
    case PickleKind::Dict: return "dict";
    case PickleKind::Taken: return "trace entry";
    case PickleKind::Frame: return "frame";
    case PickleKind::Stack: return "list of frames";
    case PickleKind::Freed: return "freed";
  }
  return "?";
}

double PickleDocument::as_float(ValueId id) const {
  const PickleValue& v = values_[id];
  if (v.kind == PickleKind::Int) return double(int64_t(v.bits));
  double d;
  std::memcpy(&d, &v.bits, sizeof d);
  return d;
}

const ValueId* PickleDocument::find(ValueId dict, std::string_view key) const {
  if (kind(dict) != PickleKind::Dict) return nullptr;
  const std::vector<ValueId>& kv = items(dict);
  for (size_t i = 0; i + 1 < kv.size(); i += 2)
    if (is_text(kv[i]) && as_text(kv[i]) == key) return &kv[i + 1];
  return nullptr;
}

ValueId PickleDocument::add(PickleKind kind, uint64_t bits) {
  if (!free_values_.empty()) {
    const ValueId id = free_values_.back();
    free_values_.pop_back();
    values_[id] = {kind, false, bits};
    return id;
  }
  values_.push_back({kind, false, bits});
  return ValueId(values_.size() - 1);
}

void PickleDocument::convert(ValueId dict, PickleKind converted, uint64_t index) {
  PickleValue& d = values_[dict];
  std::vector<ValueId>& items = containers_[d.bits];
  for (ValueId v : items) {
    PickleValue& x = values_[v];
    const bool scalar = x.kind == PickleKind::None || x.kind == PickleKind::Bool || x.kind == PickleKind::Int ||
                        x.kind == PickleKind::Float;
    if (scalar && !x.shared) {  // referred to by this dict alone
      x.kind = PickleKind::Freed;
      free_values_.push_back(v);
    }
  }
  std::vector<ValueId>().swap(items);
  free_containers_.push_back(d.bits);
  d.kind = converted;
  d.bits = index;
}
ValueId PickleDocument::add_text(PickleKind kind, std::string text) {
  strings_.push_back(std::move(text));
  return add(kind, strings_.size() - 1);
}
ValueId PickleDocument::add_container(PickleKind kind, std::vector<ValueId> items) {
  if (!free_containers_.empty()) {
    const uint64_t c = free_containers_.back();
    free_containers_.pop_back();
    containers_[c] = std::move(items);
    return add(kind, c);
  }
  containers_.push_back(std::move(items));
  return add(kind, containers_.size() - 1);
}

namespace {

// Where the bytes come from: a file read in chunks, or memory. Offsets count from the file's start.
class ByteSource {
 public:
  ByteSource(std::string_view memory, uint64_t size, const std::string& name) : mem_(memory), size_(size), name_(name) {}
  ByteSource(int fd, uint64_t size, const std::string& name, LoadProgress* progress)
      : fd_(fd), size_(size), name_(name), progress_(progress) {}

  uint64_t offset() const { return base_ + pos_; }
  uint64_t remaining() const { return size_ - offset(); }

  [[noreturn]] void fail(const std::string& what, uint64_t at) const {
    raise(ErrorKind::ValueError, name_ + ": not a plain-data pickle: " + what + " at byte " + std::to_string(at));
  }
  [[noreturn]] void truncated() const { fail("the file ends in the middle of the pickle (truncated)", offset()); }

  uint8_t byte() {
    if (pos_ == buf_.size()) refill();
    return uint8_t(buf_[pos_++]);
  }
  // Exactly n bytes (n already checked against the file's size by the caller where it came from the file).
  void take(uint64_t n, std::string& out) {
    if (n > remaining()) truncated();
    out.clear();
    out.reserve(size_t(n));
    while (n > 0) {
      if (pos_ == buf_.size()) refill();
      const size_t k = size_t(std::min<uint64_t>(n, buf_.size() - pos_));
      out.append(buf_.data() + pos_, k);
      pos_ += k;
      n -= k;
    }
  }
  uint64_t little_endian(int n) {
    if (buf_.size() - pos_ >= 8) {  // one load when the chunk holds 8 more bytes (pickle is little-endian, as is x86)
      uint64_t v;
      std::memcpy(&v, buf_.data() + pos_, sizeof v);
      pos_ += size_t(n);
      return n == 8 ? v : v & ((uint64_t(1) << (8 * n)) - 1);
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t(byte()) << (8 * i);
    return v;
  }
  std::string line() {  // protocol 0 arguments end with '\n'
    std::string s;
    for (;;) {
      const char c = char(byte());
      if (c == '\n') return s;
      if (s.size() > (size_t(1) << 20)) fail("a text argument longer than 1 MiB", offset());
      s.push_back(c);
    }
  }

 private:
  void refill() {
    if (offset() >= size_) truncated();
    base_ += buf_.size();
    pos_ = 0;
    if (fd_ < 0) {
      // Memory: the whole rest at once.
      const uint64_t start = base_;
      buf_.assign(mem_.data() + start, size_t(size_ - start));
      return;
    }
    if (progress_ && progress_->cancel.load()) throw LoadCancelled(name_);
    const size_t want = size_t(std::min<uint64_t>(kChunk, size_ - base_));
    buf_.resize(want);
    size_t got = 0;
    while (got < want) {
      const ssize_t n = ::read(fd_, buf_.data() + got, want - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        raise(ErrorKind::RuntimeError, "cannot read " + name_ + ": " + std::strerror(errno));
      }
      if (n == 0)
        raise(ErrorKind::RuntimeError, "cannot read " + name_ + ": the file changed while it was read (" +
                                           std::to_string(size_) + " bytes when opened, only " +
                                           std::to_string(base_ + got) + " could be read)");
      got += size_t(n);
    }
    if (progress_) {
      progress_->bytes_read = base_ + got;
      progress_->bytes_done = base_;
    }
  }

  static constexpr size_t kChunk = size_t(1) << 20;
  std::string_view mem_;
  int fd_ = -1;
  uint64_t size_;
  const std::string& name_;
  LoadProgress* progress_ = nullptr;
  std::string buf_;
  size_t pos_ = 0;
  uint64_t base_ = 0;
};

const char* refused_opcode_name(uint8_t op) {
  switch (op) {
    case 'c': return "GLOBAL";
    case 0x93: return "STACK_GLOBAL";
    case 'R': return "REDUCE";
    case 'b': return "BUILD";
    case 'i': return "INST";
    case 'o': return "OBJ";
    case 0x81: return "NEWOBJ";
    case 0x92: return "NEWOBJ_EX";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
  }
}

std::string hex_byte(uint8_t b) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

class Unpickler {
 public:
  Unpickler(ByteSource& in, const PickleLimits& limits, PickleDocument& doc, const AppendHook& hook)
      : in_(in), limits_(limits), doc_(doc), hook_(hook) {}

  void run() {
    for (;;) {
      const uint64_t at = in_.offset();
      const uint8_t op = in_.byte();
      if (op == '.') {  // STOP
        if (stack_.size() != 1 || !marks_.empty()) in_.fail("STOP with " + std::to_string(stack_.size()) + " values on the stack", at);
        doc_.root = stack_.back();
        return;
      }
      step(op, at);
      if (stack_.size() > limits_.max_stack) in_.fail("more than " + std::to_string(limits_.max_stack) + " values nested or pending", at);
    }
  }

 private:
  void push(ValueId v) { stack_.push_back(v); }
  ValueId pop(uint64_t at) {
    if (stack_.size() <= stack_floor()) in_.fail("an opcode needs a value but the stack is empty", at);
    const ValueId v = stack_.back();
    stack_.pop_back();
    return v;
  }
  size_t stack_floor() const { return marks_.empty() ? 0 : marks_.back(); }
  // The values pushed since the last MARK, which is removed.
  std::vector<ValueId> pop_mark(uint64_t at) {
    if (marks_.empty()) in_.fail("an opcode needs a MARK but there is none", at);
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<ValueId> items(stack_.begin() + long(m), stack_.end());
    stack_.resize(m);
    return items;
  }
  // The last MARK's stack position, the MARK removed; the values above it stay on the stack.
  size_t pop_mark_index(uint64_t at) {
    if (marks_.empty()) in_.fail("an opcode needs a MARK but there is none", at);
    const size_t m = marks_.back();
    marks_.pop_back();
    return m;
  }
  // The container just below stack position m (what APPENDS/SETITEMS add to).
  ValueId container_below(size_t m, PickleKind want, uint64_t at, const char* opname) {
    if (m <= stack_floor()) in_.fail(std::string(opname) + " with nothing to add to", at);
    const ValueId c = stack_[m - 1];
    if (doc_.kind(c) != want)
      in_.fail(std::string(opname) + " on a " + pickle_kind_name(doc_.kind(c)) + ", not a " + pickle_kind_name(want), at);
    return c;
  }
  ValueId top_container(PickleKind want, uint64_t at, const char* opname) {
    if (stack_.size() <= stack_floor()) in_.fail(std::string(opname) + " with nothing to add to", at);
    const ValueId c = stack_.back();
    if (doc_.kind(c) != want)
      in_.fail(std::string(opname) + " on a " + pickle_kind_name(doc_.kind(c)) + ", not a " + pickle_kind_name(want), at);
    return c;
  }
  void check_length(uint64_t n, uint64_t at) {
    if (n > in_.remaining())
      in_.fail("a length of " + std::to_string(n) + " bytes runs past the end of the file (" +
                   std::to_string(in_.remaining()) + " left; truncated or corrupt)", at);
  }
  // A dict appended to a list goes to the hook, which may convert it and take it out of the tree.
  void offer(ValueId v) {
    if (hook_ && doc_.kind(v) == PickleKind::Dict) hook_(doc_, v);
  }
  void memo_put(uint64_t index, uint64_t at) {
    if (stack_.size() <= stack_floor()) in_.fail("a memo store with an empty stack", at);
    // Each memo entry costs the file at least one byte; a larger index is a corrupt or hostile file.
    if (index > memo_.size() + in_.remaining() + 16) in_.fail("memo index " + std::to_string(index) + " out of range", at);
    if (index >= memo_.size()) memo_.resize(size_t(index) + 1, kUnset);
    memo_[size_t(index)] = stack_.back();
    doc_.mark_shared(stack_.back());
  }
  void memo_get(uint64_t index, uint64_t at) {
    if (index >= memo_.size() || memo_[size_t(index)] == kUnset) in_.fail("memo index " + std::to_string(index) + " was never stored", at);
    push(memo_[size_t(index)]);
  }
  // Nesting depth: a child is complete before it is added (pickle builds bottom-up), so one number
  // per container, raised as children arrive, is the depth of the finished tree.
  uint32_t depth(ValueId v) const {
    const PickleKind k = doc_.kind(v);
    if (k != PickleKind::List && k != PickleKind::Tuple && k != PickleKind::Dict) return 0;
    return depth_[doc_.at(v).bits];
  }
  ValueId container(PickleKind kind, std::vector<ValueId> items, uint64_t at) {
    uint32_t d = 1;
    for (ValueId v : items) d = std::max(d, depth(v) + 1);
    check_depth(d, at);
    const ValueId id = doc_.add_container(kind, std::move(items));
    const uint64_t c = doc_.at(id).bits;  // a recycled container index, or a new one
    if (c == depth_.size()) depth_.push_back(d);
    else depth_[c] = d;
    return id;
  }
  void added_children(ValueId c, const ValueId* begin, const ValueId* end, uint64_t at) {
    uint32_t& d = depth_[doc_.at(c).bits];
    for (const ValueId* v = begin; v != end; ++v) d = std::max(d, depth(*v) + 1);
    check_depth(d, at);
  }
  void check_depth(uint32_t d, uint64_t at) {
    if (d > limits_.max_depth) in_.fail("containers nested more than " + std::to_string(limits_.max_depth) + " deep", at);
  }
  ValueId make_int(int64_t v) { return doc_.add(PickleKind::Int, uint64_t(v)); }
  // LONG1/LONG4: little-endian two's complement of n bytes; only what fits in 64 bits.
  ValueId long_bytes(uint64_t n, uint64_t at) {
    check_length(n, at);
    if (n > 0 && n <= 8) {  // the usual case (addresses, times): no string in between
      uint64_t v = in_.little_endian(int(n));
      if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t(0) << (8 * n);  // sign-extend
      return make_int(int64_t(v));
    }
    std::string b;
    in_.take(n, b);
    if (n == 0) return make_int(0);
    // Drop sign-extension bytes beyond 8 (0x00 for positive, 0xff for negative).
    const bool negative = uint8_t(b.back()) & 0x80;
    while (b.size() > 8 && uint8_t(b.back()) == (negative ? 0xff : 0x00)) b.pop_back();
    if (b.size() > 8 && !(b.size() == 9 && !negative && uint8_t(b.back()) == 0))
      in_.fail("an integer wider than 64 bits", at);
    uint64_t v = negative ? ~uint64_t(0) : 0;
    for (size_t i = 0; i < std::min<size_t>(b.size(), 8); ++i) {
      v &= ~(uint64_t(0xff) << (8 * i));
      v |= uint64_t(uint8_t(b[i])) << (8 * i);
    }
    return make_int(int64_t(v));  // an unsigned 64-bit address keeps its bits
  }
  ValueId text(PickleKind kind, uint64_t n, uint64_t at) {
    check_length(n, at);
    std::string s;
    in_.take(n, s);
    return doc_.add_text(kind, std::move(s));
  }
  // Protocol 0 strings: bytes are Latin-1 code points, \uXXXX and \UXXXXXXXX escape the rest; out as UTF-8.
  std::string raw_unicode_escape(const std::string& in, uint64_t at) {
    std::string out;
    auto put = [&](uint32_t cp) {
      if (cp > 0x10FFFF) in_.fail("a \\U escape beyond Unicode", at);
      if (cp < 0x80) out.push_back(char(cp));
      else if (cp < 0x800) { out.push_back(char(0xC0 | (cp >> 6))); out.push_back(char(0x80 | (cp & 0x3F))); }
      else if (cp < 0x10000) { out.push_back(char(0xE0 | (cp >> 12))); out.push_back(char(0x80 | ((cp >> 6) & 0x3F))); out.push_back(char(0x80 | (cp & 0x3F))); }
      else { out.push_back(char(0xF0 | (cp >> 18))); out.push_back(char(0x80 | ((cp >> 12) & 0x3F))); out.push_back(char(0x80 | ((cp >> 6) & 0x3F))); out.push_back(char(0x80 | (cp & 0x3F))); }
    };
    for (size_t i = 0; i < in.size(); ++i) {
      const size_t digits = (in[i] == '\\' && i + 1 < in.size()) ? (in[i + 1] == 'u' ? 4 : in[i + 1] == 'U' ? 8 : 0) : 0;
      if (digits == 0) {
        put(uint8_t(in[i]));
        continue;
      }
      if (i + 2 + digits > in.size()) in_.fail("a truncated \\u escape", at);
      uint32_t cp = 0;
      for (size_t k = 0; k < digits; ++k) {
        const char c = in[i + 2 + k];
        const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0) in_.fail("a malformed \\u escape", at);
        cp = cp * 16 + uint32_t(v);
      }
      put(cp);
      i += 1 + digits;
    }
    return out;
  }
  int64_t parse_decimal(const std::string& s, uint64_t at) {
    try {
      size_t used = 0;
      const long long v = std::stoll(s, &used);
      if (used != s.size() && !(used + 1 == s.size() && s.back() == 'L')) throw std::invalid_argument(s);
      return v;
    } catch (const std::exception&) {
      in_.fail("a malformed integer '" + s.substr(0, 40) + "'", at);
    }
  }

  void step(uint8_t op, uint64_t at) {
    switch (op) {
      case 0x80: {  // PROTO
        const uint8_t v = in_.byte();
        if (v > 5) in_.fail("pickle protocol " + std::to_string(v) + " (this reader knows 0 to 5)", at);
        return;
      }
      case 0x95: in_.little_endian(8); return;  // FRAME: only a read-ahead hint
      case '(':
        if (marks_.size() >= limits_.max_marks) in_.fail("more than " + std::to_string(limits_.max_marks) + " nested MARKs", at);
        marks_.push_back(stack_.size());
        return;
      case '}': push(container(PickleKind::Dict, {}, at)); return;
      case ']': push(container(PickleKind::List, {}, at)); return;
      case ')': push(container(PickleKind::Tuple, {}, at)); return;
      case 'l': push(container(PickleKind::List, pop_mark(at), at)); return;
      case 't': push(container(PickleKind::Tuple, pop_mark(at), at)); return;
      case 'd': {
        std::vector<ValueId> kv = pop_mark(at);
        if (kv.size() % 2) in_.fail("DICT with an odd number of items", at);
        push(container(PickleKind::Dict, std::move(kv), at));
        return;
      }
      case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
        const size_t n = size_t(op - 0x84);
        if (stack_.size() < stack_floor() + n) in_.fail("TUPLE" + std::to_string(n) + " with too few values", at);
        std::vector<ValueId> items(stack_.end() - long(n), stack_.end());
        stack_.resize(stack_.size() - n);
        push(container(PickleKind::Tuple, std::move(items), at));
        return;
      }
      case 's': {  // SETITEM
        const ValueId v = pop(at), k = pop(at);
        const ValueId c = top_container(PickleKind::Dict, at, "SETITEM");
        const ValueId kv[2] = {k, v};
        added_children(c, kv, kv + 2, at);
        std::vector<ValueId>& d = doc_.mutable_items(c);
        d.push_back(k);
        d.push_back(v);
        return;
      }
      case 'u': {  // SETITEMS: the items go from the stack into the dict with no copy in between
        const size_t m = pop_mark_index(at);
        if ((stack_.size() - m) % 2) in_.fail("SETITEMS with an odd number of items", at);
        const ValueId c = container_below(m, PickleKind::Dict, at, "SETITEMS");
        added_children(c, stack_.data() + m, stack_.data() + stack_.size(), at);
        std::vector<ValueId>& d = doc_.mutable_items(c);
        d.insert(d.end(), stack_.begin() + long(m), stack_.end());
        stack_.resize(m);
        return;
      }
      case 'a': {  // APPEND
        const ValueId v = pop(at);
        const ValueId c = top_container(PickleKind::List, at, "APPEND");
        added_children(c, &v, &v + 1, at);
        offer(v);
        doc_.mutable_items(c).push_back(v);
        return;
      }
      case 'e': {  // APPENDS
        const size_t m = pop_mark_index(at);
        const ValueId c = container_below(m, PickleKind::List, at, "APPENDS");
        added_children(c, stack_.data() + m, stack_.data() + stack_.size(), at);
        for (size_t i = m; i < stack_.size(); ++i) offer(stack_[i]);
        std::vector<ValueId>& l = doc_.mutable_items(c);
        l.insert(l.end(), stack_.begin() + long(m), stack_.end());
        stack_.resize(m);
        return;
      }
      case 'J': push(make_int(int32_t(uint32_t(in_.little_endian(4))))); return;  // BININT
      case 'K': push(make_int(in_.byte())); return;                               // BININT1
      case 'M': push(make_int(int64_t(in_.little_endian(2)))); return;            // BININT2
      case 0x8a: push(long_bytes(in_.byte(), at)); return;                        // LONG1
      case 0x8b: push(long_bytes(in_.little_endian(4), at)); return;              // LONG4
      case 'I': {  // INT (protocol 0; "00"/"01" are False/True)
        const std::string s = in_.line();
        if (s == "00" || s == "01") push(doc_.add(PickleKind::Bool, s == "01"));
        else push(make_int(parse_decimal(s, at)));
        return;
      }
      case 'L': push(make_int(parse_decimal(in_.line(), at))); return;  // LONG (protocol 0)
      case 'G': {  // BINFLOAT: big-endian IEEE double
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = (bits << 8) | in_.byte();
        push(doc_.add(PickleKind::Float, bits));
        return;
      }
      case 'F': {  // FLOAT (protocol 0)
        const std::string s = in_.line();
        char* end = nullptr;
        const double d = std::strtod(s.c_str(), &end);
        if (s.empty() || *end) in_.fail("a malformed float '" + s.substr(0, 40) + "'", at);
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        push(doc_.add(PickleKind::Float, bits));
        return;
      }
      case 'V': push(doc_.add_text(PickleKind::String, raw_unicode_escape(in_.line(), at))); return;  // UNICODE (protocol 0)
      case 0x8c: push(text(PickleKind::String, in_.byte(), at)); return;             // SHORT_BINUNICODE
      case 'X': push(text(PickleKind::String, in_.little_endian(4), at)); return;    // BINUNICODE
      case 0x8d: push(text(PickleKind::String, in_.little_endian(8), at)); return;   // BINUNICODE8
      case 'U': push(text(PickleKind::String, in_.byte(), at)); return;              // SHORT_BINSTRING
      case 'T': {                                                                    // BINSTRING (signed length)
        const int64_t n = int32_t(uint32_t(in_.little_endian(4)));
        if (n < 0) in_.fail("BINSTRING with a negative length", at);
        push(text(PickleKind::String, uint64_t(n), at));
        return;
      }
      case 'C': push(text(PickleKind::Bytes, in_.byte(), at)); return;               // SHORT_BINBYTES
      case 'B': push(text(PickleKind::Bytes, in_.little_endian(4), at)); return;     // BINBYTES
      case 0x8e: case 0x96: push(text(PickleKind::Bytes, in_.little_endian(8), at)); return;  // BINBYTES8, BYTEARRAY8
      case 'N': push(doc_.add(PickleKind::None, 0)); return;
      case 0x88: push(doc_.add(PickleKind::Bool, 1)); return;  // NEWTRUE
      case 0x89: push(doc_.add(PickleKind::Bool, 0)); return;  // NEWFALSE
      case 0x94: memo_put(memo_.size(), at); return;           // MEMOIZE
      case 'q': memo_put(in_.byte(), at); return;              // BINPUT
      case 'r': memo_put(in_.little_endian(4), at); return;    // LONG_BINPUT
      case 'p': memo_put(uint64_t(parse_decimal(in_.line(), at)), at); return;  // PUT
      case 'h': memo_get(in_.byte(), at); return;              // BINGET
      case 'j': memo_get(in_.little_endian(4), at); return;    // LONG_BINGET
      case 'g': memo_get(uint64_t(parse_decimal(in_.line(), at)), at); return;  // GET
      case '0': pop(at); return;                               // POP
      case '1': pop_mark(at); return;                          // POP_MARK
      case '2': {                                              // DUP
        const ValueId v = pop(at);
        doc_.mark_shared(v);
        push(v);
        push(v);
        return;
      }
      default: break;
    }
    if (const char* name = refused_opcode_name(op))
      in_.fail(std::string("opcode ") + name + " (" + hex_byte(op) +
                   ") is refused: a memory snapshot holds only dicts, lists, tuples, strings, numbers, "
                   "booleans and None, and opening a file never builds objects or runs code",
               at);
    in_.fail("unknown opcode " + hex_byte(op), at);
  }

  static constexpr ValueId kUnset = ~ValueId(0);
  ByteSource& in_;
  PickleLimits limits_;
  PickleDocument& doc_;
  const AppendHook& hook_;
  std::vector<ValueId> stack_;
  std::vector<size_t> marks_;
  std::vector<ValueId> memo_;
  std::deque<uint32_t> depth_;  // by container index
};

[[noreturn]] void cannot_read(const std::string& path, const std::string& why) {
  raise(ErrorKind::RuntimeError, "cannot read " + path + ": " + why);
}

// torch.save writes a zip archive (with a pickle inside): its "PK" would read as the opcode PERSID, so
// say what the file is instead.
void refuse_zip(std::string_view head, const std::string& name) {
  if (head.substr(0, 4) == std::string_view("PK\x03\x04", 4))
    raise(ErrorKind::ValueError, name + ": not a plain-data pickle: a zip archive (torch.save writes these); a memory "
                                        "snapshot is the plain pickle torch.cuda.memory._dump_snapshot() writes");
}

void unpickle(PickleDocument& doc, ByteSource& in, uint64_t size, const std::string& name, const PickleLimits& limits,
              const AppendHook& hook) {
  if (size == 0) raise(ErrorKind::ValueError, name + ": not a plain-data pickle: the file is empty");
  if (size > limits.max_file_bytes)
    raise(ErrorKind::ValueError, name + ": not a plain-data pickle: " + std::to_string(size) +
                                     " bytes is more than the limit of " + std::to_string(limits.max_file_bytes));
  Unpickler(in, limits, doc, hook).run();
}

}  // namespace

PickleDocument read_pickle_bytes(std::string_view data, const std::string& name, const PickleLimits& limits) {
  PickleDocument doc;
  read_pickle_bytes_into(doc, data, name, limits, {});
  return doc;
}

void read_pickle_bytes_into(PickleDocument& doc, std::string_view data, const std::string& name, const PickleLimits& limits,
                            const AppendHook& hook) {
  refuse_zip(data, name);
  ByteSource in(data, data.size(), name);
  unpickle(doc, in, data.size(), name, limits, hook);
}

PickleDocument read_pickle_file(const std::string& path, LoadProgress* progress, const PickleLimits& limits) {
  PickleDocument doc;
  read_pickle_file_into(doc, path, progress, limits, {});
  return doc;
}

void read_pickle_file_into(PickleDocument& doc, const std::string& path, LoadProgress* progress,
                           const PickleLimits& limits, const AppendHook& hook) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) cannot_read(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) cannot_read(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) cannot_read(path, std::strerror(EISDIR));
  if (!S_ISREG(st.st_mode)) cannot_read(path, "not a regular file");
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  const uint64_t size = uint64_t(st.st_size);
  if (progress) {
    progress->bytes_total = size;
    if (progress->cancel.load()) throw LoadCancelled(path);
  }
  char head[4];
  const ssize_t got = ::pread(fd.get(), head, sizeof head, 0);
  refuse_zip(std::string_view(head, got > 0 ? size_t(got) : 0), path);
  ByteSource in(fd.get(), size, path, progress);
  unpickle(doc, in, size, path, limits, hook);
  if (progress) progress->bytes_done = size;
}

}  // namespace ds::snapshot
