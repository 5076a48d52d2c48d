// Parsing the text forms written by the exporters back into engine values.
#include "trace/trace_text.h"

#include <charconv>

namespace ds {

std::optional<Place> place_from_string(std::string_view text) {
  // "rank N <place>": a place of one rank in a folder of per-rank recordings (Place::str()).
  if (text.substr(0, 5) == "rank ") {
    const size_t space = text.find(' ', 5);
    int rank = -1;
    if (space == std::string_view::npos) return std::nullopt;
    auto r = std::from_chars(text.data() + 5, text.data() + space, rank);
    if (r.ec != std::errc() || r.ptr != text.data() + space || rank < 0 || rank > 65535) return std::nullopt;
    std::optional<Place> own = place_from_string(text.substr(space + 1));
    if (!own || own->rank >= 0) return std::nullopt;
    own->rank = rank;
    return own;
  }
  if (text == "pageable") return Place::pageable();
  if (text == "pinned") return Place::pinned();
  constexpr std::string_view prefix = "cuda:";
  if (text.substr(0, prefix.size()) != prefix || text.size() == prefix.size()) return std::nullopt;
  const char* first = text.data() + prefix.size();
  const char* last = text.data() + text.size();
  int index = -1;
  auto r = std::from_chars(first, last, index);
  if (r.ec != std::errc() || r.ptr != last || index < 0 || index > 32767) return std::nullopt;
  return Place::cuda(index);
}

std::optional<Route> route_from_string(std::string_view text) {
  for (Route r : {Route::Direct, Route::StagedPinned, Route::Peer})
    if (text == route_name(r)) return r;
  return std::nullopt;
}

std::optional<EventKind> event_kind_from_string(std::string_view text) {
  for (EventKind k : {EventKind::Alloc, EventKind::Free, EventKind::Copy, EventKind::CopyDone,
                      EventKind::ModuleMoveBegin, EventKind::ModuleMoveEnd, EventKind::Sync, EventKind::Note})
    if (text == event_kind_name(k)) return k;
  return std::nullopt;
}

const char* transfer_direction(const Place& src, const Place& dst) {
  if (src.is_host() && dst.is_host()) return "H2H";
  if (src.is_host()) return "H2D";
  if (dst.is_host()) return "D2H";
  return src.device == dst.device ? "D2D" : "P2P";
}

}  // namespace ds
