// The one description of a TransferRecord's fields: their names, kinds and order. The CSV writer and
// reader, the Chrome trace writer and reader and the Python binding (`_devicescope_C.transfers()`)
// all walk this table, so a new field is added here once and every format carries it.
// (backend_ticket is not a field: it is the backend's handle of a copy in flight, meaningless in a file.)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "trace/records.h"

namespace ds {

// How a field's value is written: CSV and JSON write U64/I32 as integers, Double as the shortest
// decimal that reads back exactly, Rate with 3 decimals, Bool as true/false, PlaceText as
// Place::str(), RouteText as route_name() (the last three as JSON strings in a Chrome trace).
enum class FieldKind : uint8_t { U64, I32, Double, Rate, Bool, String, PlaceText, RouteText };

// A field's value, in the member its kind names (a tagless union: the kind travels beside it).
struct FieldValue {
  uint64_t u = 0;       // U64
  int64_t i = 0;        // I32
  double d = 0;         // Double, Rate
  bool b = false;       // Bool
  std::string_view s;   // String: a view into the record (get) or the input being read (set)
  Place place;          // PlaceText
  Route route = Route::Direct;  // RouteText
};

inline constexpr int8_t kNotInChromeTrace = -1;

struct TransferField {
  std::string_view name;  // CSV column, Chrome trace args key (unless chrome_key says otherwise), Python key
  FieldKind kind;
  FieldValue (*get)(const TransferRecord&);
  // nullptr for a derived field (duration_ns, gbps): written for readers' convenience, recomputed on load.
  void (*set)(TransferRecord&, const FieldValue&);
  // Where the field stands in a Chrome trace slice's args (files written since format_version 1
  // list them in this order; readers accept any order), or kNotInChromeTrace.
  int8_t chrome_position;
  std::string_view chrome_key = {};  // "" = `name`
  constexpr bool stored() const { return set != nullptr; }
  constexpr std::string_view key_in_chrome_trace() const { return chrome_key.empty() ? name : chrome_key; }
};

namespace transfer_field_detail {

template <typename T>
constexpr FieldKind kind_of() {
  if constexpr (std::is_same_v<T, uint64_t>) return FieldKind::U64;
  else if constexpr (std::is_same_v<T, int>) return FieldKind::I32;
  else if constexpr (std::is_same_v<T, double>) return FieldKind::Double;
  else if constexpr (std::is_same_v<T, bool>) return FieldKind::Bool;
  else if constexpr (std::is_same_v<T, std::string>) return FieldKind::String;
  else if constexpr (std::is_same_v<T, Place>) return FieldKind::PlaceText;
  else if constexpr (std::is_same_v<T, Route>) return FieldKind::RouteText;
  else static_assert(sizeof(T) == 0, "a TransferRecord member of a type no format knows");
}

template <auto Member>
using MemberType = std::remove_cvref_t<decltype(std::declval<TransferRecord&>().*Member)>;

template <auto Member>
FieldValue get(const TransferRecord& t) {
  using T = MemberType<Member>;
  FieldValue v;
  if constexpr (std::is_same_v<T, uint64_t>) v.u = t.*Member;
  else if constexpr (std::is_same_v<T, int>) v.i = t.*Member;
  else if constexpr (std::is_same_v<T, double>) v.d = t.*Member;
  else if constexpr (std::is_same_v<T, bool>) v.b = t.*Member;
  else if constexpr (std::is_same_v<T, std::string>) v.s = t.*Member;
  else if constexpr (std::is_same_v<T, Place>) v.place = t.*Member;
  else v.route = t.*Member;
  return v;
}

template <auto Member>
void set(TransferRecord& t, const FieldValue& v) {
  using T = MemberType<Member>;
  if constexpr (std::is_same_v<T, uint64_t>) t.*Member = v.u;
  else if constexpr (std::is_same_v<T, int>) t.*Member = int(v.i);
  else if constexpr (std::is_same_v<T, double>) t.*Member = v.d;
  else if constexpr (std::is_same_v<T, bool>) t.*Member = v.b;
  else if constexpr (std::is_same_v<T, std::string>) (t.*Member).assign(v.s);
  else if constexpr (std::is_same_v<T, Place>) t.*Member = v.place;
  else t.*Member = v.route;
}

// A field that is a member of TransferRecord, read and written as it is.
template <auto Member>
constexpr TransferField stored(std::string_view name, int8_t chrome_position) {
  return {name, kind_of<MemberType<Member>>(), &get<Member>, &set<Member>, chrome_position};
}

inline FieldValue duration(const TransferRecord& t) {
  FieldValue v;
  v.u = t.complete && t.end_ns >= t.start_ns ? t.end_ns - t.start_ns : 0;
  return v;
}
inline FieldValue rate(const TransferRecord& t) {
  FieldValue v;
  v.d = t.gbps();
  return v;
}

}  // namespace transfer_field_detail

// In the CSV's column order (which is also the order of the Python dicts).
inline constexpr TransferField kTransferFields[] = {
    transfer_field_detail::stored<&TransferRecord::id>("id", 0),
    transfer_field_detail::stored<&TransferRecord::src>("src", 4),
    transfer_field_detail::stored<&TransferRecord::dst>("dst", 5),
    transfer_field_detail::stored<&TransferRecord::bytes>("bytes", 1),
    transfer_field_detail::stored<&TransferRecord::route>("route", 3),
    transfer_field_detail::stored<&TransferRecord::non_blocking>("non_blocking", 8),  // what the caller asked for
    transfer_field_detail::stored<&TransferRecord::async>("async", 9),  // whether the host really did not wait
    transfer_field_detail::stored<&TransferRecord::stream_device>("stream_device", 11),
    transfer_field_detail::stored<&TransferRecord::stream>("stream", 12),
    transfer_field_detail::stored<&TransferRecord::enqueue_ns>("enqueue_ns", 13),
    transfer_field_detail::stored<&TransferRecord::start_ns>("start_ns", 14),
    transfer_field_detail::stored<&TransferRecord::end_ns>("end_ns", 15),
    // 0 while incomplete. A Chrome trace slice has it as its "dur".
    {"duration_ns", FieldKind::U64, &transfer_field_detail::duration, nullptr, kNotInChromeTrace},
    // GB/s (1e9 bytes/s), 0 while incomplete; Perfetto shows the args key "GB/s" as is.
    {"gbps", FieldKind::Rate, &transfer_field_detail::rate, nullptr, 2, "GB/s"},
    transfer_field_detail::stored<&TransferRecord::measured_ns>("measured_ns", 16),
    transfer_field_detail::stored<&TransferRecord::simulated>("simulated", 7),
    transfer_field_detail::stored<&TransferRecord::complete>("complete", 10),
    transfer_field_detail::stored<&TransferRecord::src_storage>("src_storage", 17),
    transfer_field_detail::stored<&TransferRecord::dst_storage>("dst_storage", 18),
    transfer_field_detail::stored<&TransferRecord::owner>("owner", 6),  // quoted in the CSV when it needs it
};
inline constexpr size_t kTransferFieldCount = std::size(kTransferFields);

// The CSV header row, without the line break: the field names joined by commas, built at compile time.
namespace transfer_field_detail {
constexpr size_t header_length() {
  size_t n = 0;
  for (const TransferField& f : kTransferFields) n += f.name.size() + 1;
  return n - 1;
}
inline constexpr std::array<char, header_length()> kHeaderChars = [] {
  std::array<char, header_length()> out{};
  size_t at = 0;
  for (const TransferField& f : kTransferFields) {
    if (at) out[at++] = ',';
    for (char c : f.name) out[at++] = c;
  }
  return out;
}();
}  // namespace transfer_field_detail
inline constexpr std::string_view kTransfersCsvHeader(transfer_field_detail::kHeaderChars.data(),
                                                      transfer_field_detail::kHeaderChars.size());

// The fields a Chrome trace slice's args hold, in the order the writer writes them.
namespace transfer_field_detail {
constexpr size_t chrome_field_count() {
  size_t n = 0;
  for (const TransferField& f : kTransferFields) n += f.chrome_position != kNotInChromeTrace;
  return n;
}
}  // namespace transfer_field_detail
inline constexpr auto kChromeTraceArgs = [] {
  std::array<const TransferField*, transfer_field_detail::chrome_field_count()> out{};
  for (const TransferField& f : kTransferFields)
    if (f.chrome_position != kNotInChromeTrace) out[size_t(f.chrome_position)] = &f;
  return out;
}();
// Counted by position, not by testing the pointers above: with -fsanitize=undefined GCC will not compare
// the address of a static object with null in a constant expression.
static_assert([] {
  std::array<int, transfer_field_detail::chrome_field_count()> taken{};
  for (const TransferField& f : kTransferFields) {
    if (f.chrome_position == kNotInChromeTrace) continue;
    if (size_t(f.chrome_position) >= taken.size()) return false;
    ++taken[size_t(f.chrome_position)];
  }
  for (int n : taken)
    if (n != 1) return false;
  return true;
}(), "chrome_position: every position from 0 up is taken once");

// A value written as both formats write it (Out: trace_detail::TextOut): numbers, true/false, and the
// text of a place or route, which a Chrome trace then wraps in quotes. A String (an owner) is
// written raw here: each format escapes it its own way, so the writers handle it themselves.
template <typename Out>
void write_field_text(Out& o, FieldKind kind, const FieldValue& v) {
  switch (kind) {
    case FieldKind::U64: o.u64(v.u); break;
    case FieldKind::I32: o.i64(v.i); break;
    case FieldKind::Double: o.dbl(v.d); break;
    case FieldKind::Rate: o.fixed(v.d, 3); break;
    case FieldKind::Bool: o.put(v.b ? "true" : "false"); break;
    case FieldKind::String: o.put(v.s); break;
    case FieldKind::PlaceText: o.put(v.place.str()); break;
    case FieldKind::RouteText: o.put(route_name(v.route)); break;
  }
}

// The field named `name` (a CSV column), or nullptr.
constexpr const TransferField* find_transfer_field(std::string_view name) {
  for (const TransferField& f : kTransferFields)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace ds
