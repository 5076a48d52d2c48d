// parse_transfers_csv: reads back write_transfers_csv's output (RFC 4180 quoting, LF or CRLF lines),
// columns found by their names in the first line (kTransferFields). duration_ns and gbps are derived
// columns: checked to be numbers when present, then recomputed from the record.
// Fields are views into the file's bytes (a copy only for a quoted field with doubled quotes), so a
// row costs no allocation but its owner string: millions of rows load at memory speed.
#include "trace/load_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <string_view>
#include <vector>

#include "trace/not_a_trace.h"
#include "trace/recording_file.h"
#include "trace/trace_text.h"
#include "trace/transfer_checks.h"
#include "trace/transfer_fields.h"

namespace ds {
namespace {

class CsvReader {
 public:
  CsvReader(const char* data, size_t size, const std::string& name) : s_(data, size), name_(name) {}

  // Reads the next record into `fields` (valid until the next call); false at the end of the input.
  bool next(std::vector<std::string_view>& fields) {
    fields.clear();
    unescaped_.clear();
    if (pos_ >= s_.size()) return false;
    record_line_ = line_;
    while (true) {
      if (pos_ < s_.size() && s_[pos_] == '"') {
        fields.push_back(quoted_field());
        if (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r')
          throw not_a_trace(name_, "line " + std::to_string(line_) + ": text after a closing quote");
      } else {
        const size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r') {
          if (s_[pos_] == '"')
            throw not_a_trace(name_, "line " + std::to_string(line_) + ": a quote inside an unquoted field");
          ++pos_;
        }
        fields.push_back(s_.substr(start, pos_ - start));
      }
      if (pos_ >= s_.size()) {
        ended_without_newline_ = true;
        return true;
      }
      const char c = s_[pos_++];
      if (c == ',') continue;
      if (c == '\r' && pos_ < s_.size() && s_[pos_] == '\n') ++pos_;
      ++line_;
      return true;
    }
  }
  size_t record_line() const { return record_line_; }
  size_t offset() const { return pos_; }
  bool ended_without_newline() const { return ended_without_newline_; }
  bool in_quoted_field_at_end() const { return quoted_at_end_; }

 private:
  // At the opening quote; returns the unquoted text and leaves pos_ after the closing quote.
  std::string_view quoted_field() {
    const size_t start = ++pos_;
    std::string* copy = nullptr;  // only once a doubled quote is met
    size_t run = start;           // start of the text not yet appended to *copy
    while (true) {
      if (pos_ >= s_.size()) {
        quoted_at_end_ = true;
        throw not_a_trace(name_, "line " + std::to_string(record_line_) +
                                     ": a quoted field is not closed (truncated file?)");
      }
      const char c = s_[pos_++];
      if (c == '\n') ++line_;
      if (c != '"') continue;
      if (pos_ < s_.size() && s_[pos_] == '"') {  // "" stands for one quote
        if (!copy) copy = &unescaped_.emplace_back();
        copy->append(s_.substr(run, pos_ - run));
        run = ++pos_;
        continue;
      }
      const std::string_view tail = s_.substr(run, pos_ - 1 - run);
      if (!copy) return tail;
      copy->append(tail);
      return *copy;
    }
  }

  std::string_view s_;
  const std::string& name_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t record_line_ = 1;
  bool ended_without_newline_ = false;
  bool quoted_at_end_ = false;
  std::deque<std::string> unescaped_;  // a deque: views into earlier strings stay valid as it grows
};

class RowParser {
 public:
  RowParser(const std::vector<std::string_view>& f, const std::vector<std::string_view>& cols, size_t line,
            const std::string& name)
      : f_(f), cols_(cols), line_(line), name_(name) {}

  [[noreturn]] void bad(size_t i, const char* want) const {
    throw not_a_trace(name_, "line " + std::to_string(line_) + ": column " + std::string(cols_[i]) + " is '" +
                                 shown(f_[i]) + "', not " + want);
  }
  // A field as a message shows it: printable, and short (a field of a broken file can be megabytes of NULs).
  static std::string shown(std::string_view field) {
    std::string s;
    for (size_t i = 0; i < field.size() && i < 40; ++i) {
      const unsigned char c = static_cast<unsigned char>(field[i]);
      s.push_back(c >= 0x20 && c != 0x7f ? char(c) : '?');
    }
    if (field.size() > 40) s += "...";
    return s;
  }
  size_t size() const { return f_.size(); }
  template <typename T>
  T integer(size_t i) const {
    T v{};
    const std::string_view s = f_[i];
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) bad(i, "an integer");
    return v;
  }
  // from_chars reads "nan" and "inf" too; no DeviceScope column holds either.
  double number(size_t i) const {
    double v = 0;
    const std::string_view s = f_[i];
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) bad(i, "a finite number");
    return v;
  }
  bool boolean(size_t i) const {
    if (f_[i] == "true") return true;
    if (f_[i] == "false") return false;
    bad(i, "true or false");
  }
  Place place(size_t i) const {
    auto p = place_from_string(f_[i]);
    if (!p) bad(i, "a place (pageable, pinned, cuda:N)");
    return *p;
  }
  std::string_view text(size_t i) const { return f_[i]; }
  Route route(size_t i) const {
    auto r = route_from_string(f_[i]);
    if (!r) bad(i, "a route (direct, staged-pinned, peer)");
    return *r;
  }

 private:
  const std::vector<std::string_view>& f_;
  const std::vector<std::string_view>& cols_;
  size_t line_;
  const std::string& name_;
};

// Field i of the row as `kind` (raises for a bad value).
FieldValue parse_field(const RowParser& p, size_t i, FieldKind kind) {
  FieldValue v;
  switch (kind) {
    case FieldKind::U64: v.u = p.integer<uint64_t>(i); break;
    case FieldKind::I32: v.i = p.integer<int>(i); break;
    case FieldKind::Double:
    case FieldKind::Rate: v.d = p.number(i); break;
    case FieldKind::Bool: v.b = p.boolean(i); break;
    case FieldKind::String: v.s = p.text(i); break;
    case FieldKind::PlaceText: v.place = p.place(i); break;
    case FieldKind::RouteText: v.route = p.route(i); break;
  }
  return v;
}

// The first line: which transfer field each column holds (nullptr: a column DeviceScope does not
// write, ignored). Columns are found by name, so a file whose columns were reordered, or which
// gained columns in a spreadsheet, still loads; a stored field's column must be there.
struct Header {
  std::vector<std::string> names;            // owned: a quoted name's text does not outlive the line
  std::vector<std::string_view> name_views;  // what RowParser's messages quote
  std::vector<const TransferField*> fields;  // per column
};

// Whether the first line's cells name a transfer column: what tells a transfers CSV from other text
// (which columns it lacks is said once the whole line is read). `cut`: the text ends inside the line,
// so its last cell may be a column name cut short.
bool names_a_transfer_column(const std::vector<std::string_view>& cells, bool cut) {
  for (size_t i = 0; i < cells.size(); ++i)
    if ((!cut || i + 1 < cells.size()) && find_transfer_field(cells[i])) return true;
  if (cut && cells.size() == 1)
    for (const TransferField& f : kTransferFields)
      if (f.name.starts_with(cells[0])) return true;
  return false;
}

// `cut`: the head of a larger file ends inside this line (its last name may be cut short).
Header read_header(const std::vector<std::string_view>& cells, const std::string& name, bool cut) {
  if (!names_a_transfer_column(cells, cut))
    throw not_a_trace(name, "the first line is not DeviceScope's transfers CSV header (" +
                                std::string(kTransfersCsvHeader) + ")");
  Header h;
  for (size_t i = 0; i < cells.size(); ++i) {
    h.names.emplace_back(cells[i]);
    const bool complete = !cut || i + 1 < cells.size();
    const TransferField* f = complete ? find_transfer_field(cells[i]) : nullptr;
    if (f && std::find(h.fields.begin(), h.fields.end(), f) != h.fields.end())
      throw not_a_trace(name, "the first line names the column '" + std::string(f->name) + "' twice");
    h.fields.push_back(f);
  }
  for (const std::string& n : h.names) h.name_views.push_back(n);
  if (cut) return h;
  for (const TransferField& f : kTransferFields)
    if (f.stored() && std::find(h.fields.begin(), h.fields.end(), &f) == h.fields.end())
      throw not_a_trace(name, "the first line has no column '" + std::string(f.name) +
                                  "' (DeviceScope's transfers CSV header is " + std::string(kTransfersCsvHeader) + ")");
  return h;
}

// The row into `t`: stored fields set, derived ones (duration_ns, gbps) only checked to be numbers.
void parse_row(const RowParser& p, const Header& h, TransferRecord& t) {
  for (size_t i = 0; i < h.fields.size(); ++i) {
    const TransferField* f = h.fields[i];
    if (!f) continue;
    const FieldValue v = parse_field(p, i, f->kind);
    if (f->stored()) f->set(t, v);
  }
}

// The row the head of a larger file ends in, cut anywhere: its complete fields must be right, and a
// cut integer field must still be digits (a huge file of NULs fails here, on its first field).
void check_cut_row(const RowParser& p, const Header& h, const std::vector<std::string_view>& fields) {
  const size_t last = std::min(fields.size(), h.fields.size()) - 1;
  for (size_t i = 0; i < last; ++i)
    if (h.fields[i]) parse_field(p, i, h.fields[i]->kind);
  const TransferField* f = h.fields[last];
  const bool integer_column = f && (f->kind == FieldKind::U64 || f->kind == FieldKind::I32);
  if (integer_column && fields[last].find_first_not_of("0123456789-") != std::string_view::npos)
    p.bad(last, "an integer");
}

std::deque<TransferRecord> parse_csv(const char* data, size_t size, const std::string& name, LoadProgress* progress,
                                     bool head_only) {
  CsvReader reader(data, size, name);
  ParseProgress ticker(progress, name);
  std::vector<std::string_view> fields;
  if (!reader.next(fields)) {
    if (head_only) return {};
    throw not_a_trace(name, "the file is empty");
  }
  const Header header = read_header(fields, name, head_only && reader.ended_without_newline());
  const std::vector<std::string_view>& cols = header.name_views;

  std::deque<TransferRecord> out;
  UniqueIdCheck ids;
  while (true) {
    try {
      if (!reader.next(fields)) break;
    } catch (const Error&) {
      if (head_only && reader.in_quoted_field_at_end()) return out;  // the head was cut inside a quoted field
      throw;
    }
    ticker.at(reader.offset());
    const size_t line = reader.record_line();
    if (fields.size() == 1 && fields[0].empty()) continue;  // blank line
    if (head_only && reader.ended_without_newline()) {
      check_cut_row(RowParser(fields, cols, line, name), header, fields);
      return out;
    }
    if (fields.size() != cols.size())
      throw not_a_trace(name, "line " + std::to_string(line) + ": expected " + std::to_string(cols.size()) +
                                  " fields, found " + std::to_string(fields.size()) +
                                  (reader.ended_without_newline() ? " (truncated file?)" : ""));
    const RowParser p(fields, cols, line, name);
    TransferRecord& t = out.emplace_back();
    parse_row(p, header, t);
    if (const std::string problem = transfer_problem(t); !problem.empty())
      throw not_a_trace(name, "line " + std::to_string(line) + " (transfer " + std::to_string(t.id) + "): " + problem);
    ids.add(t.id, line);
  }
  // A file cut inside its last row usually fails above; one cut right after a field may not, so a
  // DeviceScope CSV must end with a line break.
  if (reader.ended_without_newline() && !head_only)
    throw not_a_trace(name, "line " + std::to_string(reader.record_line()) +
                                ": the last line has no line break (truncated file?)");
  if (auto d = ids.find_duplicate())
    throw not_a_trace(name, "transfer id " + std::to_string(d->id) + " appears twice (lines " +
                                std::to_string(d->first) + " and " + std::to_string(d->second) + ")");
  ticker.publish(size);
  return out;
}

}  // namespace

std::deque<TransferRecord> parse_transfers_csv(const char* data, size_t size, const std::string& name,
                                               LoadProgress* progress) {
  return parse_csv(data, size, name, progress, false);
}

bool starts_like_transfers_csv(std::string_view text) {
  const size_t end = text.find_first_of("\r\n");
  const std::string_view line = text.substr(0, end);
  std::vector<std::string_view> cells;
  for (size_t start = 0;;) {
    const size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return names_a_transfer_column(cells, end == std::string_view::npos);
}

void check_transfers_csv_head(const char* data, size_t size, const std::string& name) {
  parse_csv(data, size, name, nullptr, true);
}

}  // namespace ds
